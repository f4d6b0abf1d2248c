/**
 * A pool of directions in a real VS Code (code-server + Chromium), issue 41: with the default settings (teamfusion.pool 4)
 * a run started from the panel against the mock server shows its pooled round in the Run tab — the four candidates side by
 * side, each saying who ranked it first, and the one elected marked with the remix it became: r1, the round's one remix
 * (iteration-1/remix.png), which keeps the elected letter in run.json.
 *
 * Needs `npm run build` (dist/) and the compiled tests. Run:
 *   npx mocha --no-config --timeout 600000 out/test/e2e/pools.e2e.js
 */
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { copySample, e2eSuite, readRunJson, runIds } from './support/suite';
import { openReview, requireBuilt, showTab, waitInFrame } from './support/workbench';

describe('a pool of directions in a real VS Code (code-server)', function () {
  this.timeout(600_000);
  const s = e2eSuite('pools');
  let panel: Frame;
  let review: string;

  before(async function () {
    requireBuilt();
    review = await copySample(await s.makeWorkspace(), 'lumen-perfume', { title: 'A pooled round', turnsPerAgent: 1, iterations: 2 });
    await s.startMock();
    await s.startWorkbench({ hideSideBar: true });
  });

  it('the Run tab shows the pooled round: four candidates side by side, who ranked each first, the elected marked', async () => {
    panel = await openReview(s.page, 'lumen-perfume', 'A pooled round');
    await showTab(panel, 'run');
    await panel.locator('#tf-run').click();
    await waitInFrame(
      panel,
      () => document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed',
      'status completed',
      300_000,
    );
    await waitInFrame(panel, () => document.querySelectorAll('#tf-pools .tf-pool-card').length === 4, 'four pool cards', 60_000);
    const cards = await panel.locator('#tf-pools .tf-pool-card').evaluateAll((els) =>
      els.map((e) => ({
        letter: e.getAttribute('data-pool-letter'),
        elected: e.classList.contains('tf-pool-elected'),
        badge: e.querySelector('vscode-badge')?.textContent ?? '',
        text: e.textContent ?? '',
        directions: e.querySelector('.tf-directions')?.textContent ?? '',
      })),
    );
    assert.deepEqual(
      cards.map((c) => c.letter),
      ['a', 'b', 'c', 'd'],
    );
    const elected = cards.filter((c) => c.elected);
    assert.equal(elected.length, 1, JSON.stringify(cards));
    assert.equal(elected[0]!.badge, 'elected → remix r1', "the round's one remix");
    assert.ok(
      cards.every((c) => /Ranked first by/.test(c.text) && c.directions.length > 0),
      JSON.stringify(cards),
    );
    assert.equal(s.mock.requests.filter((r) => r.route === 'edit').length, 1, 'only the elected reached the image model');
    const head = await panel.locator('#tf-pools .tf-pool').first().textContent();
    assert.match(head ?? '', /Iteration 1: a pool of 4/);
    assert.match(head ?? '', /Diversity \d\.\d\d/);
    const [id] = await runIds(review);
    const record = await readRunJson<{
      settings: { pool?: number };
      iterations: { remix?: { id: string; file: string; letter?: string } }[];
    }>(review, id!);
    assert.equal(record?.settings.pool, 4, 'the default pool');
    assert.deepEqual(record?.iterations[0]?.remix, {
      ...record?.iterations[0]?.remix,
      id: 'r1',
      file: 'iteration-1/remix.png',
      letter: elected[0]!.letter,
    });
  });
});
