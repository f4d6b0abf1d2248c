/**
 * Several remixes a round in a real VS Code (code-server + Chromium): with the setting teamfusion.remixesPerIteration: 2 a
 * run started from the panel against the mock server makes r1a and r1b; the Run tab shows both remix cards (each with its
 * proposal, its sources and its own directions), the timeline names both, and the image facts of r1b say what it was made
 * from. Screenshots several-remixes-dark / -light.
 *
 * Needs `npm run build` (dist/) and `npm run compile-tests`. Run (under the shared lock):
 *   flock /tmp/tf-vscode.lock npx mocha --no-config --timeout 600000 out/test/e2e/severalRemixes.e2e.js
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { repoRoot } from '../harness/codeServer';
import { MockOpenAI } from '../support/openaiMock';
import { DARK, command, openReview, requireBuilt, shootBothThemes, showTab, startWorkbench, waitInFrame, type Workbench } from './support/workbench';

const SAMPLE = path.join(repoRoot(), 'samples', 'lumen-perfume');

describe('several remixes a round in a real VS Code (code-server)', function () {
  this.timeout(600_000);
  let ws = '';
  let mock: MockOpenAI | undefined;
  let w: Workbench | undefined;
  let panel: Frame;

  before(async function () {
    requireBuilt(['dist/extension.js', 'dist/cli.js', 'dist/webview/panel.js']);
    ws = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-e2e-remixes-'));
    const review = path.join(ws, 'lumen-perfume');
    await fs.cp(SAMPLE, review, { recursive: true });
    await fs.rm(path.join(review, 'runs'), { recursive: true, force: true });
    const config = (parseYaml(await fs.readFile(path.join(review, 'review.yaml'), 'utf8')) ?? {}) as Record<string, unknown>;
    await fs.writeFile(path.join(review, 'review.yaml'), stringifyYaml({ ...config, title: 'Two remixes a round', turnsPerAgent: 1, iterations: 2 }));
    mock = await MockOpenAI.start();
    w = await startWorkbench({
      workspace: ws,
      settings: {
        'workbench.colorTheme': DARK,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'teamfusion.baseUrl': mock.baseURL,
        'teamfusion.remixesPerIteration': 2,
      },
      env: { OPENAI_API_KEY: 'sk-e2e-placeholder' },
    });
    await w.open();
    await command(w.page, 'View: Toggle Primary Side Bar Visibility');
  });

  after(async () => {
    await w?.stop();
    await mock?.close();
    if (ws) await fs.rm(ws, { recursive: true, force: true });
  });

  it('a run from the panel with the setting at 2 shows r1a and r1b, each with its proposal, sources and directions', async () => {
    panel = await openReview(w!.page, 'lumen-perfume', 'Two remixes a round');
    await showTab(panel, 'run');
    await panel.locator('#tf-run').click();
    await waitInFrame(panel, () => document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed', 'status completed', 300_000);
    await waitInFrame(
      panel,
      () => {
        document.getElementById('tf-remixes')?.scrollIntoView();
        const imgs = [...document.querySelectorAll<HTMLImageElement>('.tf-remix-card .tf-compare-main img')];
        return imgs.length === 2 && imgs.every((img) => img.complete && img.naturalWidth > 0);
      },
      'both remix images',
      120_000,
    );
    assert.equal(mock!.requests.filter((r) => r.route === 'edit').length, 2, 'two image edits in the one remix round');
    assert.deepEqual(mock!.specErrors(), [], 'every request valid against the OpenAPI spec');

    const cards = await panel.locator('.tf-remix-card').evaluateAll((els) =>
      els.map((e) => ({
        id: e.getAttribute('data-remix'),
        caption: e.querySelector(':scope > figcaption')?.textContent ?? '',
        idea: e.querySelector(':scope > .tf-remix-idea')?.textContent ?? '',
        directions: e.querySelector(':scope > .tf-directions')?.textContent ?? '',
        sources: e.querySelectorAll('.tf-compare-from img').length,
      })),
    );
    assert.deepEqual(cards.map((c) => c.id), ['r1a', 'r1b']);
    assert.match(cards[0]!.caption, /Remix r1a · iteration 1 · proposal a of 2/);
    assert.match(cards[1]!.caption, /Remix r1b · iteration 1 · proposal b of 2/);
    assert.ok(cards.every((c) => c.idea.length > 0 && c.directions.length > 0 && c.sources > 0), JSON.stringify(cards));
    assert.notEqual(cards[0]!.directions, cards[1]!.directions, 'each remix shows its own directions');
    const timeline = await panel.locator('.tf-step[data-iteration="1"]').textContent();
    assert.match(timeline ?? '', /→ remixes r1a, r1b/);
    // Round 2 (the final pick) discussed both remixes.
    const round2 = await panel.locator('.tf-step[data-iteration="2"] .tf-step-row').evaluate((e) => e.children.length);
    assert.equal(round2, 3 + 2, 'the top 3 and both remixes');

    await shootBothThemes(w!.page, 'several-remixes', async () => {
      await w!.page.mouse.move(2, 2); // no thumbnail zoomed under the pointer
      await panel.evaluate(() => document.getElementById('tf-remixes')?.scrollIntoView());
    });
  });
});
