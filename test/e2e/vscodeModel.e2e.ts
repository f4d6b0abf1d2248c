/**
 * A first run with no key, then VS Code's own language models, in a real VS Code (code-server + Chromium), as a user does it:
 *   1. without any key or model, Run shows the first-run choices in one place (Set API Key, Use a VS Code Model, Use a Local
 *      Endpoint) before it asks anything (not "who takes part?" first and "nothing can run" after), and sends nothing;
 *   2. the walkthrough's "Connect a model" step offers the same three choices;
 *   3. a test extension (test/lmProvider, loaded beside TeamFusion) registers two scripted models with
 *      vscode.lm.registerLanguageModelChatProvider; "Use a VS Code Model" from Run's choices shows VS Code's models in a quick
 *      pick, the one picked is shown in the status bar, and Run completes through it: images arrive as image data parts, the
 *      remix is made on the scripted OpenAI server (the image endpoint, with its own key), no chat request reaches that
 *      server, and the panel's Run tab shows the tokens with the chat "covered by your plan";
 *   4. a model that reads text only: Run says so in one sentence (before asking who takes part) and offers to continue
 *      text-only; then no image is sent.
 *
 *   npm run build && npm run compile-tests && npx mocha --no-config --timeout 300000 out/test/e2e/vscodeModel.e2e.js
 * Screenshots (dark and light): .test-output/screenshots/vscode-model-*.png
 */
import * as assert from 'node:assert/strict';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { runCommand } from '../harness/codeServer';
import type { ReceivedRequest, ScriptedModel } from '../lmProvider/extension';
import { FIRST_RUN_CHOICES } from '../../src/extension/run/trustGuard';
import { REPO, copySample, e2eSuite, readRunJson, runIds, until } from './support/suite';
import {
  command,
  notificationItem as notification,
  notificationShows,
  openReview,
  requireBuilt,
  screenshot,
  shootBothThemes,
  showTab,
  waitInFrame,
} from './support/workbench';

const TITLE = 'Lumen on a VS Code model';
const IMAGE_KEY = 'sk-e2e-image-key-0123456789abcdef';
const VISION: ScriptedModel = { id: 'scripted-vision', name: 'Scripted Vision', imageInput: true };
const TEXT: ScriptedModel = { id: 'scripted-text', name: 'Scripted Text', imageInput: false };
const CHOICES = FIRST_RUN_CHOICES.map(([button]) => button);
const NONE_SET_UP = 'none is set up yet';
const MODEL_PICKER = 'the model the proxy agents use';

/** The quick pick Run shows with three or more designers. */
function whoTakesPart(page: Page): Locator {
  return page.locator('.quick-input-widget', { hasText: 'who takes part' });
}

/** Shows the notification again if it went out of sight (e.g. while the theme changed). */
async function keepShowing(page: Page, n: Locator): Promise<void> {
  if (!(await n.isVisible().catch(() => false))) await command(page, 'Notifications: Show Notifications');
  await n.waitFor({ state: 'visible', timeout: 60_000 });
}

/** Waits until the notification shows (its toast or the notification centre). */
async function untilShown(page: Page, n: Locator, what: string): Promise<void> {
  await until(page, what, () => notificationShows(page, n), 60_000);
}

interface Finished {
  id: string;
  status: string;
  settings: Record<string, unknown>;
  usage: Record<string, number>;
}

describe('a first run without a key, then a VS Code language model, in a real VS Code', function () {
  this.timeout(600_000);
  const s = e2eSuite('vscode-model');
  let review = '';
  let lmConfig = '';
  let lmRecord = '';

  const received = async (): Promise<ReceivedRequest[]> =>
    existsSync(lmRecord)
      ? (await fs.readFile(lmRecord, 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as ReceivedRequest)
      : [];

  /**
   * "Run TeamFusion on Review" from the palette, as a user: every question and notification is answered as it shows, in
   * the order it shows (`steps`: a name, what shows, how it is answered); resolves with the names in the order seen, once
   * `last` has been seen. A question that is not in `steps` fails the run at once.
   */
  async function run(
    page: Page,
    steps: { name: string; shows: () => Promise<boolean>; answer?: () => Promise<void> }[],
    last: string,
  ): Promise<string[]> {
    const seen: string[] = [];
    await runCommand(page, 'TeamFusion: Run TeamFusion on Review');
    await until(
      page,
      `Run to show ${last} (seen so far: ${seen.join(' → ') || 'nothing'})`,
      async () => {
        for (const step of steps) {
          if (seen.includes(step.name) || !(await step.shows().catch(() => false))) continue;
          seen.push(step.name);
          await step.answer?.();
        }
        return seen.includes(last);
      },
      180_000,
    );
    return seen;
  }

  /** The run started after `before` (run folder ids), once it has finished. */
  async function finished(page: Page, before: string[]): Promise<Finished> {
    const id = await until(page, 'the new run folder', async () => (await runIds(review)).find((n) => !before.includes(n)));
    return until(
      page,
      `run ${id} to finish`,
      async () => {
        const rec = await readRunJson<Partial<Finished>>(review, id);
        return rec?.status && rec.status !== 'running' ? (rec as Finished) : undefined;
      },
      300_000,
    );
  }

  /** Everyone takes part (all are ticked): Enter. */
  const everyone = (page: Page) => ({
    name: 'who takes part',
    shows: () => whoTakesPart(page).isVisible(),
    answer: () => whoTakesPart(page).locator('input').press('Enter'),
  });

  before(async () => {
    requireBuilt(['dist/extension.js', 'dist/webview/panel.js']);
    if (!existsSync(path.join(REPO, 'out/test/lmProvider/extension.js')))
      throw new Error('out/test/lmProvider is missing: run `npm run compile-tests` first.');
    const ws = await s.makeWorkspace();
    review = await copySample(ws, 'lumen-perfume', { title: TITLE, turnsPerAgent: 1, iterations: 2 });
    // The scripted models' control files sit in the workspace (removed with it), outside the review.
    lmConfig = path.join(ws, 'lm-config.json');
    lmRecord = path.join(ws, 'lm-received.jsonl');
    await fs.writeFile(lmConfig, JSON.stringify({ models: [] }));
    const mock = await s.startMock();
    await s.startWorkbench({
      hideSideBar: true,
      // The image endpoint is set (the mock, with its own key); the chat has neither a key nor a model yet.
      settings: { 'teamfusion.imageBaseUrl': mock.baseURL },
      env: {
        TEAMFUSION_LM_CONFIG: lmConfig,
        TEAMFUSION_LM_RECORD: lmRecord,
        TEAMFUSION_IMAGE_API_KEY: IMAGE_KEY,
        OPENAI_API_KEY: '',
        OPENAI_BASE_URL: '',
      },
      extraExtensions: [path.join(REPO, 'test', 'lmProvider')],
    });
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && s.running) {
      await screenshot(s.page, `vscode-model-failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    }
  });

  it('without any key or model, Run shows the three choices at once, before asking anything, and sends nothing', async () => {
    const page = s.page;
    const choices = notification(page, NONE_SET_UP);
    const seen = await run(
      page,
      [everyone(page), { name: 'the first-run choices', shows: () => notificationShows(page, choices) }],
      'the first-run choices',
    );
    assert.deepEqual(seen, ['the first-run choices'], 'the choices come first: nothing is asked before them');
    assert.equal(await whoTakesPart(page).isVisible(), false, 'and nothing is asked beside them');
    for (const b of CHOICES) assert.equal(await choices.locator('.monaco-button', { hasText: b }).count(), 1, `the choices offer "${b}"`);
    await shootBothThemes(page, 'vscode-model-1-first-run-choices', () => keepShowing(page, choices));
    assert.equal(s.mock.requests.length, 0, 'nothing was sent to the endpoint');
    assert.deepEqual(await received(), [], 'nothing was sent to a VS Code model');
    assert.deepEqual(await runIds(review), [], 'no run folder');
  });

  it('the walkthrough\'s "Connect a model" step offers the same three choices', async () => {
    const page = s.page;
    await runCommand(page, 'Welcome: Open Walkthrough...');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 60_000 });
    await input.fill('Get started with TeamFusion');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with TeamFusion' }).first().click();
    const step = page.locator('.getting-started-step', { hasText: 'Connect a model' }).first();
    await step.waitFor({ state: 'visible', timeout: 60_000 });
    await step.click();
    const offered = async () => {
      const labels: string[] = [];
      for (const b of CHOICES)
        if (
          await step
            .getByRole('button', { name: b, exact: true })
            .first()
            .isVisible()
            .catch(() => false)
        )
          labels.push(b);
      return labels.length === CHOICES.length ? labels : undefined;
    };
    assert.deepEqual(await until(page, 'the step to show its three choices', offered, 60_000), CHOICES);
    await shootBothThemes(page, 'vscode-model-2-walkthrough-choices', async () => {
      await step.waitFor({ state: 'visible', timeout: 60_000 });
      await until(page, "the step's choices", offered, 60_000);
    });
    await command(page, 'View: Close All Editors');
  });

  it('"Use a VS Code Model" picks one of VS Code\'s models; Run completes through it with images as data parts and the panel shows the tokens', async () => {
    const page = s.page;
    await fs.writeFile(lmConfig, JSON.stringify({ models: [VISION, TEXT] }));
    await command(page, 'TeamFusion Test: Reload Scripted Models');
    await command(page, 'Notifications: Clear All Notifications');
    // Still no key and no model chosen: Run offers the choices again; take the second one.
    const choices = notification(page, NONE_SET_UP);
    await run(
      page,
      [everyone(page), { name: 'the first-run choices', shows: () => notificationShows(page, choices) }],
      'the first-run choices',
    );
    await choices.locator('.monaco-button', { hasText: 'Use a VS Code Model' }).click();
    const picker = page.locator('.quick-input-widget', { hasText: MODEL_PICKER });
    const row = picker.locator('.quick-input-list .monaco-list-row', { hasText: VISION.name }).first();
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    assert.equal(
      await picker.locator('.quick-input-list .monaco-list-row', { hasText: TEXT.name }).count(),
      1,
      'both scripted models are offered',
    );
    await screenshot(page, 'vscode-model-3-pick-dark');
    await row.click();
    await untilShown(page, notification(page, 'the proxies use your VS Code model'), 'VS Code Model to say the proxies use it');
    await page.locator('.statusbar-item', { hasText: VISION.name }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await command(page, 'Notifications: Clear All Notifications');

    s.mock.reset();
    const before = await runIds(review);
    // The model is remembered and sees images: the only question is who takes part.
    assert.deepEqual(await run(page, [everyone(page)], 'who takes part'), ['who takes part']);
    const record = await finished(page, before);
    assert.equal(record.status, 'completed', JSON.stringify(record).slice(0, 400));
    assert.equal(record.settings.chatProvider, 'vscode');
    assert.equal(record.settings.chatModel, VISION.id);
    assert.equal(s.mock.requests.filter((r) => r.route === 'chat').length, 0, 'no chat request reached the OpenAI endpoint');
    assert.ok(
      s.mock.requests.some((r) => r.route === 'edit'),
      'the remix was made on the image endpoint',
    );
    for (const r of s.mock.requests) assert.equal(r.headers.authorization, `Bearer ${IMAGE_KEY}`, `${r.path} carries the image key`);
    const got = (await received()).filter((r) => r.model === VISION.id);
    assert.ok(got.length >= 4 && got.every((r) => !r.error), `the model answered the discussion (${got.length} requests)`);
    const parts = got.flatMap((r) => r.messages.flatMap((m) => m.parts)).filter((p) => p.kind === 'data');
    assert.ok(parts.length >= 1, 'images were sent as data parts');
    for (const p of parts) assert.equal(p.mime, `image/${p.signature}`, 'an image data part whose MIME type matches its bytes');
    assert.ok(record.usage.inputTokens! > 0 && record.usage.outputTokens! > 0, JSON.stringify(record.usage));

    const panel = await openReview(page, 'lumen-perfume', TITLE);
    await showTab(panel, 'run');
    const usage = await waitInFrame(
      panel,
      () => document.querySelector('.tf-usage')?.textContent ?? '',
      'the Tokens and cost section',
      60_000,
    );
    assert.match(usage, /covered by your plan/, usage);
    const digits = (n: number) => n.toLocaleString('en-US').replace(/,/g, '[,.\\s\\u202f\\u00a0]?');
    assert.match(usage, new RegExp(`Input tokens\\s*${digits(record.usage.inputTokens!)}`), usage);
    assert.match(usage, new RegExp(`Output tokens\\s*${digits(record.usage.outputTokens!)}`), usage);
    // Tokens, cost and settings are collapsed at the foot of the Run tab: opened for the picture.
    await panel.evaluate(() => document.getElementById('tf-cost')?.setAttribute('open', ''));
    await shootBothThemes(page, 'vscode-model-4-run-tokens', () => panel.locator('.tf-usage').scrollIntoViewIfNeeded());
    await command(page, 'View: Close All Editors');
  });

  it('a model that reads text only: Run says so in one sentence before asking anything else, continues text-only when asked, and sends no image', async () => {
    const page = s.page;
    await command(page, 'Notifications: Clear All Notifications');
    await runCommand(page, 'TeamFusion: Pick Chat Model');
    const picker = page.locator('.quick-input-widget', { hasText: MODEL_PICKER });
    const row = picker.locator('.quick-input-list .monaco-list-row', { hasText: TEXT.name }).first();
    await row.waitFor({ state: 'visible', timeout: 60_000 });
    await row.click();
    await page.locator('.statusbar-item', { hasText: TEXT.name }).first().waitFor({ state: 'visible', timeout: 60_000 });
    const before = await runIds(review);
    const sent = (await received()).length;
    const offer = notification(page, 'reads text only');
    const seen = await run(
      page,
      [
        everyone(page),
        {
          name: 'the text-only offer',
          shows: () => notificationShows(page, offer),
          answer: async () => {
            assert.match(
              (await offer.locator('.notification-list-item-message').textContent()) ?? '',
              new RegExp(`^${TEXT.name}[^.]* reads text only[^.]*\\.$`),
            );
            await shootBothThemes(page, 'vscode-model-5-text-only-offer', () => keepShowing(page, offer));
            // The pointer may still rest on the status bar's bell (notificationShows clicks it): its hover ("Hide
            // Notifications") would lie over the button. A user's pointer goes to the button; here it leaves the bell first.
            await page.mouse.move(720, 300);
            await offer.locator('.monaco-button', { hasText: 'Continue Text-Only' }).click();
          },
        },
      ],
      'who takes part',
    );
    assert.deepEqual(seen, ['the text-only offer', 'who takes part'], 'the offer comes before the question');
    const record = await finished(page, before);
    assert.equal(record.status, 'completed', JSON.stringify(record).slice(0, 400));
    assert.equal(record.settings.chatModel, TEXT.id);
    const got = (await received()).slice(sent);
    assert.ok(got.length >= 4 && got.every((r) => r.model === TEXT.id && !r.error), `the text model answered (${got.length} requests)`);
    assert.equal(got.flatMap((r) => r.messages.flatMap((m) => m.parts)).filter((p) => p.kind === 'data').length, 0, 'no image was sent');
  });
});
