/**
 * Several remixes a round in a real VS Code (code-server + Chromium): with the setting teamfusion.remixesPerIteration: 2 a
 * run started from the panel against the mock server makes r1a and r1b; the Run tab shows both remix cards (each with its
 * proposal, its sources and its own directions), the timeline names both, and the image facts of r1b say what it was made
 * from. Screenshots several-remixes-dark / -light.
 *
 * Needs `npm run build` (dist/) and `npm run compile-tests`. Run (under the shared lock):
 *   npx mocha --no-config --timeout 600000 out/test/e2e/severalRemixes.e2e.js
 */
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { copySample, e2eSuite } from './support/suite';
import { openReview, requireBuilt, shootBothThemes, showTab, waitInFrame } from './support/workbench';

describe('several remixes a round in a real VS Code (code-server)', function () {
  this.timeout(600_000);
  const s = e2eSuite('remixes');
  let panel: Frame;

  before(async function () {
    requireBuilt();
    await copySample(await s.makeWorkspace(), 'lumen-perfume', { title: 'Two remixes a round', turnsPerAgent: 1, iterations: 2 });
    await s.startMock();
    await s.startWorkbench({ hideSideBar: true, settings: { 'teamfusion.remixesPerIteration': 2 } });
  });

  it('a run from the panel with the setting at 2 shows r1a and r1b, each with its proposal, sources and directions', async () => {
    panel = await openReview(s.page, 'lumen-perfume', 'Two remixes a round');
    await showTab(panel, 'run');
    await panel.locator('#tf-run').click();
    await waitInFrame(
      panel,
      () => document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed',
      'status completed',
      300_000,
    );
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
    assert.equal(s.mock.requests.filter((r) => r.route === 'edit').length, 2, 'two image edits in the one remix round');
    assert.deepEqual(s.mock.specErrors(), [], 'every request valid against the OpenAPI spec');

    const cards = await panel.locator('.tf-remix-card').evaluateAll((els) =>
      els.map((e) => ({
        id: e.getAttribute('data-remix'),
        caption: e.querySelector(':scope > figcaption')?.textContent ?? '',
        idea: e.querySelector(':scope > .tf-remix-idea')?.textContent ?? '',
        directions: e.querySelector(':scope > .tf-directions')?.textContent ?? '',
        sources: e.querySelectorAll('.tf-compare-from img').length,
      })),
    );
    assert.deepEqual(
      cards.map((c) => c.id),
      ['r1a', 'r1b'],
    );
    assert.match(cards[0]!.caption, /^remix r1a · iteration 1(final pick)?$/);
    assert.match(cards[1]!.caption, /^remix r1b · iteration 1(final pick)?$/);
    assert.ok(
      cards.every((c) => c.idea.length > 0 && c.directions.length > 0 && c.sources > 0),
      JSON.stringify(cards),
    );
    assert.notEqual(cards[0]!.directions, cards[1]!.directions, 'each remix shows its own directions');
    const timeline = await panel.locator('.tf-step[data-iteration="1"]').textContent();
    assert.match(timeline ?? '', /→ remix r1a, remix r1b/);
    // Round 2 (the final pick) discussed both remixes.
    const round2 = await panel.locator('.tf-step[data-iteration="2"] .tf-step-row').evaluate((e) => e.children.length);
    assert.equal(round2, 3 + 2, 'the top 3 and both remixes');

    await shootBothThemes(s.page, 'several-remixes', async () => {
      await s.page.mouse.move(2, 2); // no thumbnail zoomed under the pointer
      await panel.evaluate(() => document.getElementById('tf-remixes')?.scrollIntoView());
    });
  });
});
