/**
 * Workspace trust in a real VS Code (code-server + Chromium): with trust ON and the workspace untrusted (Restricted
 * Mode), nothing reaches the model. The mock model server counts every request; the test tries every way a user (or a
 * misbehaving webview) could start a run: the panel's Run button, the command palette, a forced Run message and a
 * forced Refine (both refused by the host's allow-list of read-only panel messages, src/protocol/effects.ts).
 *
 * Needs `npm run build` (dist/) and `npm run compile-tests`. Run:
 *   npx mocha --no-config --timeout 300000 out/test/e2e/trust.e2e.js
 * Screenshots land in .test-output/screenshots/trust-*.png.
 */
import * as assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { commandPaletteEntries, runCommand } from '../harness/codeServer';
import { copySample, e2eSuite, mockEnv, runCli, runIds, until } from './support/suite';
import { extensionLog, openReview, showTab, screenshot, waitForPanel, waitInFrame, requireBuilt } from './support/workbench';

const UNTRUSTED_WORDS = /untrusted|not trusted|restricted/i;

/**
 * Does what no user can do: enables a disabled button of the panel and clicks it, so the webview posts its message to
 * the extension host anyway. The host (not the webview) must refuse.
 */
async function forceClick(frame: Frame, selector: string): Promise<void> {
  const found = await frame.evaluate((sel) => {
    const el = document.querySelector<HTMLElement & { disabled?: boolean }>(sel);
    if (!el) return false;
    el.removeAttribute('disabled');
    if ('disabled' in el) el.disabled = false;
    el.click();
    return true;
  }, selector);
  assert.equal(found, true, `the panel has ${selector}`);
}

describe('workspace trust in a real VS Code (code-server): an untrusted workspace sends nothing to a model', function () {
  this.timeout(300_000);
  const s = e2eSuite('trust', { checkWebviewErrors: false });
  let fresh = '';
  let withRun = '';
  let existingRuns: string[] = [];
  let existingRecord = '';

  before(async function () {
    requireBuilt(['dist/extension.js', 'dist/cli.js', 'dist/webview/panel.js']);
    const ws = await s.makeWorkspace();
    fresh = await copySample(ws, 'lumen-perfume', { title: 'Lumen untrusted', turnsPerAgent: 1, iterations: 2 });
    withRun = await copySample(ws, 'with-run', { title: 'Earlier run', turnsPerAgent: 1, iterations: 2 });

    const mock = await s.startMock();
    // A completed run made by the CLI (outside VS Code) before the workbench starts: the panel then offers Refine.
    const made = await runCli(['run', withRun, '--json'], mockEnv(mock), 120_000);
    assert.equal(made.code, 0, `the CLI run completes: ${made.out.slice(-400)}`);
    existingRuns = await runIds(withRun);
    assert.equal(existingRuns.length, 1, 'the CLI made one run');
    existingRecord = await fs.readFile(path.join(withRun, 'runs', existingRuns[0]!, 'run.json'), 'utf8');
    assert.ok(mock.requests.length > 0, 'the CLI run talked to the mock (so the mock does count requests)');
    mock.reset();

    await s.startWorkbench({
      workspaceTrust: true,
      // User-level baseUrl (the suite's default): in an untrusted workspace only workspace-level values of restricted
      // settings are ignored.
      env: { OPENAI_BASE_URL: mock.baseURL },
    });
  });

  it('opens the workspace in Restricted Mode', async () => {
    const page = s.page;
    const item = page.locator('.statusbar-item', { hasText: 'Restricted Mode' });
    await item.first().waitFor({ state: 'visible', timeout: 30_000 });
    await screenshot(page, 'trust-01-restricted-mode');
  });

  it('the panel says why Run is off, and Run is disabled', async () => {
    const page = s.page;
    const panel = await openReview(page, 'lumen-perfume', 'Lumen untrusted');
    const banner = await panel.evaluate(() => [...document.querySelectorAll('.tf-notice')].map((e) => e.textContent ?? '').join('\n'));
    assert.match(banner, UNTRUSTED_WORDS, 'the panel tells the workspace is not trusted');
    await showTab(panel, 'run');
    assert.equal(await panel.locator('#tf-run').evaluate((el) => el.hasAttribute('disabled')), true, 'Run is disabled');
    assert.match((await panel.locator('#tf-run-why').textContent()) ?? '', UNTRUSTED_WORDS, 'the reason is shown next to Run');
    // A real click on the disabled button does nothing.
    await panel.locator('#tf-run').click({ force: true, timeout: 5_000 });
    await screenshot(page, 'trust-02-panel-run-disabled');
  });

  it('the command palette does not offer "Run TeamFusion on Review"', async () => {
    const page = s.page;
    // The palette works and lists the extension's other commands (so an empty answer below means something).
    const open = await commandPaletteEntries(page, 'TeamFusion: Open Review');
    assert.ok(
      open.some((l) => l.includes('TeamFusion: Open Review')),
      `Open Review is listed: ${JSON.stringify(open)}`,
    );
    const run = await commandPaletteEntries(page, 'TeamFusion: Run TeamFusion on Review');
    await screenshot(page, 'trust-03-palette-no-run');
    assert.ok(!run.some((l) => /Run TeamFusion on Review/.test(l)), `Run is not offered: ${JSON.stringify(run)}`);
    const refine = await commandPaletteEntries(page, 'TeamFusion: Refine Run');
    assert.ok(!refine.some((l) => /Refine Run/.test(l)), `Refine is not offered: ${JSON.stringify(refine)}`);
    await page.keyboard.press('Escape');
    await page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden', timeout: 10_000 })
      .catch(() => undefined);
  });

  it('a forced Run message from the panel is refused by the extension host', async () => {
    const page = s.page;
    const panel = await waitForPanel(page, 'Lumen untrusted');
    await showTab(panel, 'run');
    await forceClick(panel, '#tf-run');
    const notice = await waitInFrame(
      panel,
      () =>
        [...document.querySelectorAll('.tf-notice')]
          .map((e) => e.textContent ?? '')
          .find((t) => /nothing is sent to a model/i.test(t) && /runs are off/i.test(t)),
      'the host refusing the run',
      30_000,
    );
    assert.match(notice ?? '', UNTRUSTED_WORDS);
    await screenshot(page, 'trust-04-forced-run-refused');
  });

  it('a forced Refine is refused by the host, which tells the user: nothing sent, the earlier run unchanged', async () => {
    const page = s.page;
    const panel = await openReview(page, 'with-run', 'Earlier run');
    await showTab(panel, 'run');
    await waitInFrame(panel, () => !!document.getElementById('tf-refine'), 'the Refine button', 30_000);
    assert.equal(await panel.locator('#tf-refine').evaluate((el) => el.hasAttribute('disabled')), true, 'Refine is disabled');
    const feedback = panel.locator('#tf-feedback textarea');
    await feedback.fill('Warmer light please.');
    await forceClick(panel, '#tf-refine');
    // The webview's click handler ran (it posts `refine` to the host and clears the draft).
    await waitInFrame(
      panel,
      () => (document.getElementById('tf-feedback') as (HTMLElement & { value?: string }) | null)?.value === '',
      'the refine message to be posted',
      10_000,
    );
    // The host refused it: its answer in the panel (it comes once the host has handled the message).
    await waitInFrame(
      panel,
      () => [...document.querySelectorAll('.tf-notice')].some((e) => /Refining is off in an untrusted workspace/.test(e.textContent ?? '')),
      'the host refusing the refine',
      30_000,
    );
    assert.equal(s.mock.requests.length, 0, 'the forced refine sent nothing');
    const record = await fs.readFile(path.join(withRun, 'runs', existingRuns[0]!, 'run.json'), 'utf8');
    assert.equal(record, existingRecord, 'the earlier run was not refined');
    await screenshot(page, 'trust-05-forced-refine');
    // The host told the user with the runs' trust guard (a warning; it lands in the notification centre).
    await runCommand(page, 'Notifications: Show Notifications');
    const warning = page.locator('.notifications-center .notification-list-item', {
      hasText: 'sends nothing to a model in an untrusted workspace',
    });
    await warning.first().waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(
      await warning.first().locator('.monaco-button', { hasText: 'Manage Workspace Trust' }).count(),
      1,
      'it offers to manage trust',
    );
    await screenshot(page, 'trust-06-refine-guard-warning');
    await page.keyboard.press('Escape');
  });

  it('commands that write into the workspace (Make Blind Re-rank Set, Import Rankings) are refused in words: nothing written', async () => {
    const page = s.page;
    await runCommand(page, 'Notifications: Clear All Notifications');
    await runCommand(page, 'TeamFusion: Make Blind Re-rank Set…');
    await runCommand(page, 'Notifications: Show Notifications');
    const warning = page.locator('.notifications-center .notification-list-item', {
      hasText: 'writes nothing into an untrusted workspace, so Make Blind Re-rank Set is off',
    });
    await warning.first().waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(
      await warning.first().locator('.monaco-button', { hasText: 'Manage Workspace Trust' }).count(),
      1,
      'it offers to manage trust',
    );
    await page.keyboard.press('Escape');
    await runCommand(page, 'TeamFusion: Import Rankings from CSV…');
    await runCommand(page, 'Notifications: Show Notifications');
    await page
      .locator('.notifications-center .notification-list-item', {
        hasText: 'writes nothing into an untrusted workspace, so Import Rankings is off',
      })
      .first()
      .waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot(page, 'trust-07-write-commands-refused');
    await page.keyboard.press('Escape');
    assert.equal(existsSync(path.join(withRun, 'runs', existingRuns[0]!, 'rerank')), false, 'no re-rank set was made');
  });

  it('nothing reached the model and no run was written', async () => {
    // Every attempt above reached the extension host and was refused there: each refusal is in TeamFusion's log (written
    // where the host turns the attempt down, instead of acting on it), so nothing of them is still on its way.
    const refusals = [
      'Review panel: starting a run refused in an untrusted workspace (nothing sent).',
      'Review panel: refining a run refused in an untrusted workspace (nothing sent).',
      'Make Blind Re-rank Set: refused in an untrusted workspace (nothing written).',
      'Import Rankings: refused in an untrusted workspace (nothing written).',
    ];
    const log = await until(
      s.page,
      'the four refusals in the log',
      async () => {
        const text = await extensionLog(s.w, 'teamfusion.teamfusion');
        return refusals.every((r) => text.includes(r)) ? text : undefined;
      },
      30_000,
    ).catch(async () => extensionLog(s.w, 'teamfusion.teamfusion'));
    for (const r of refusals)
      assert.ok(
        log.includes(r),
        `the log says: ${r}\n${log
          .split('\n')
          .filter((l) => /refused/.test(l))
          .join('\n')}`,
      );
    assert.equal(s.mock.requests.length, 0, `requests to the model: ${s.mock.requests.map((r) => r.route).join(', ')}`);
    assert.equal(existsSync(path.join(fresh, 'runs')), false, 'no runs/ folder in the untouched review');
    assert.deepEqual(await runIds(withRun), existingRuns, 'no new run next to the earlier one');
    const record = await fs.readFile(path.join(withRun, 'runs', existingRuns[0]!, 'run.json'), 'utf8');
    assert.equal(record, existingRecord, 'the earlier run was not refined');
  });
});
