import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { codeDiscussion } from '../../../src/core/analysis';
import { loadReview } from '../../../src/core/review/loadReview';
import { discussionState } from '../../../src/extension/analysis/panelDiscussion';
import { parseHostMessage, parseWebviewMessage } from '../../../src/protocol/panel';
import { BAR_ORDER, barSegments } from '../../../webview/panel/views/discussion/discussionAnalysis';
import { clientFor } from '../run/helpers';
import { RUN_ID, reviewWithRun, scriptedCoder } from './fixtures';

describe('discussion analysis in the panel: host data, protocol, bar geometry', function () {
  this.timeout(30_000);
  let mock: MockOpenAI;
  before(async () => {
    mock = await MockOpenAI.start();
  });
  after(async () => mock.close());

  it('the host sends analysis.json (without the prompt) and the stance table of the record; the protocol accepts it', async () => {
    const { root, record } = await reviewWithRun();
    const { review } = await loadReview(root, { decodeImages: false });
    const before = await discussionState(root, record, review, undefined);
    assert.equal(before!.analysis, undefined);
    assert.deepEqual(
      before!.stance!.rows.map((r) => r.outcome),
      ['kept', 'yielded', 'yielded'],
    );

    scriptedCoder(mock);
    await codeDiscussion({ reviewRoot: root, runId: RUN_ID, client: clientFor(mock) });
    const coding = { runId: RUN_ID, active: true, coded: 3, total: 11, message: 'Coding…' };
    const d = (await discussionState(root, record, review, coding))!;
    assert.equal(d.analysis!.bales.length, 11);
    assert.equal((d.analysis as Record<string, unknown>).prompt, undefined);
    assert.deepEqual(d.coding, coding);
    const msg = parseHostMessage({ type: 'codingProgress', progress: coding });
    assert.ok(msg.ok);
    assert.ok(parseWebviewMessage({ type: 'codeDiscussion', runId: RUN_ID, force: true }).ok);
    assert.ok(parseWebviewMessage({ type: 'cancelCoding' }).ok);
    assert.ok(!parseWebviewMessage({ type: 'codeDiscussion' }).ok);
  });

  it('a broken analysis.json is an error in words naming the file, not a crash', async () => {
    const { root, record } = await reviewWithRun();
    await fs.writeFile(path.join(root, 'runs', RUN_ID, 'analysis.json'), '{"version": 1, "bales": [');
    const d = (await discussionState(root, record, undefined, undefined))!;
    assert.match(d.error!, /^runs\/2026-11-21T22-40-05Z-3f9c\/analysis\.json:1:1: error: not valid JSON/);
    assert.equal(d.stance, undefined);
  });

  it('bars: task area first, then social area, then none; widths proportional to the largest speaker', () => {
    assert.deepEqual([...BAR_ORDER], [4, 5, 6, 7, 8, 9, 1, 2, 3, 10, 11, 12, 13]);
    const segs = barSegments({ '3': 2, '5': 1, '10': 1, '13': 0 }, 8, 240);
    assert.deepEqual(
      segs.map((s) => s.category),
      [5, 3, 10],
    );
    assert.deepEqual(
      segs.map((s) => [s.x, s.w]),
      [
        [0, 30],
        [30, 60],
        [90, 30],
      ],
    );
  });
});
