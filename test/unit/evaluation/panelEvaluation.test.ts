import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeRerankSet, writeRatings } from '../../../src/core/evaluation';
import { noteCommitted, noteRerankingSaved, rerankOwner } from '../../../src/core/evaluation/compare/decisionTimes';
import { comparisonSentences } from '../../../src/core/evaluation/format';
import { loadReview } from '../../../src/core/review';
import { readRunRecord } from '../../../src/core/record/store';
import { runEvaluation, runFeedback, saveRatingsFromPanel, saveSurveyFromPanel } from '../../../src/extension/panel/state/evaluation';
import { buildPanelState } from '../../../src/extension/panel/panelState';
import { EvaluationSchema, parseWebviewMessage } from '../../../src/protocol/panel';
import { makeReviewWithRun, RUN_ID, writeRerankBySource } from './fixtures';

describe('evaluation: the panel\'s "Did it help?", ratings and survey (host side), time to decision', function () {
  this.timeout(30_000);
  let root = '';
  const logged: string[] = [];
  const log = (line: string): void => void logged.push(line);
  before(async () => {
    root = await makeReviewWithRun();
  });
  after(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it("no re-rank set: no section; with one: the comparison in the protocol's shape, sentences a lead reads", async () => {
    assert.equal(await runEvaluation(root, RUN_ID, log), undefined);
    await makeRerankSet(root, RUN_ID);
    const waiting = await runEvaluation(root, RUN_ID, log);
    assert.ok(waiting);
    assert.equal(waiting.after, null);
    assert.equal(waiting.folder, `runs/${RUN_ID}/rerank`);
    assert.match(comparisonSentences(waiting).join('\n'), /After: not yet\. 0 of the 2 re-rankings needed/);
    await writeRerankBySource(root, 'd1', ['r2', '4', '3', 'r1', '2']);
    await writeRerankBySource(root, 'd2', ['r2', '3', '4', '2', 'r1']);
    const done = await runEvaluation(root, RUN_ID, log);
    assert.ok(EvaluationSchema.safeParse(done).success);
    assert.equal(done!.acceptance!.top1, true);
    const words = comparisonSentences(done!).join('\n');
    assert.match(words, /For the 2 designers who ranked both times/);
    assert.match(words, /No ratings of proxy commentary yet\./);
    assert.deepEqual(logged, []);
    // The state carries it only for the run shown.
    const load = await loadReview(root, { requireRankings: true, decodeImages: false });
    const record = await readRunRecord(root, RUN_ID);
    const base = {
      root,
      load,
      analysis: { error: 'x' },
      runs: [record],
      trusted: true,
      running: false,
      toWebviewUri: (p: string) => `uri:${p}`,
    };
    assert.equal(buildPanelState({ ...base, evaluation: done! }).evaluation?.runId, RUN_ID);
    assert.equal(buildPanelState({ ...base, evaluation: { ...done!, runId: '2026-01-01T00-00-00Z-0000' } }).evaluation, undefined);
  });

  it('the panel saves ratings and survey answers through the same validation; saved ones come back in the state', async () => {
    const ok = await saveRatingsFromPanel(root, {
      type: 'saveRatings',
      requestId: 1,
      runId: RUN_ID,
      designer: 'd1',
      ratings: [{ message: 'i1-m4', score: 4 }],
    });
    assert.deepEqual(ok, { type: 'saveFeedbackResult', requestId: 1, ok: true, file: `runs/${RUN_ID}/ratings/d1.yaml` });
    const guest = await saveRatingsFromPanel(root, {
      type: 'saveRatings',
      requestId: 2,
      runId: RUN_ID,
      designer: 'd1',
      ratings: [{ message: 'i1-m3', score: 4 }],
    });
    assert.equal(guest.ok, false);
    assert.match(guest.message!, /guest message; only proxy messages can be rated/);
    const outside = await saveRatingsFromPanel(root, { type: 'saveRatings', requestId: 3, runId: RUN_ID, designer: '../x', ratings: [] });
    assert.equal(outside.ok, false);
    const survey = await saveSurveyFromPanel(root, { type: 'saveSurvey', requestId: 4, runId: RUN_ID, designer: 'd2', clarity: 3 });
    assert.equal(survey.ok, true, survey.message);
    const fb = await runFeedback(root, await readRunRecord(root, RUN_ID), log);
    assert.deepEqual(fb, { runId: RUN_ID, ratings: { d1: { 'i1-m4': { score: 4 } } }, survey: { d2: { clarity: 3 } }, problems: [] });
    assert.equal(
      parseWebviewMessage({ type: 'saveRatings', requestId: 1, runId: RUN_ID, designer: 'd1', ratings: [{ message: 'i1-m1', score: 6 }] })
        .ok,
      false,
    );
    await writeRatings(root, await readRunRecord(root, RUN_ID), 'd1', [{ message: 'i1-m1', score: 2 }]);
  });

  it('time to decision: a re-ranking saved from the panel and Commit Run are recorded in run.json', async () => {
    const dir = path.join(root, 'runs', RUN_ID, 'rerank');
    assert.deepEqual(rerankOwner(dir), { reviewRoot: root, runId: RUN_ID });
    assert.equal(rerankOwner(root), undefined);
    assert.equal(await noteRerankingSaved(root), false, 'an ordinary review is not a re-rank set');
    assert.equal(await noteRerankingSaved(dir, new Date('2026-11-22T10:40:05.000Z')), true);
    await noteCommitted(root, RUN_ID, new Date('2026-11-23T22:40:05.000Z'));
    const record = await readRunRecord(root, RUN_ID);
    assert.equal(record.rerankedAt, '2026-11-22T10:40:05.000Z');
    assert.equal(record.committedAt, '2026-11-23T22:40:05.000Z');
    const e = await runEvaluation(root, RUN_ID, log);
    // The run started 2026-11-21T22:40:05Z: 12 h to the re-rankings, 48 h to the commit.
    assert.equal(e!.timing.rerankedFrom, 'record');
    assert.equal(e!.timing.hoursToRerank, 12);
    assert.equal(e!.timing.hoursToCommit, 48);
    assert.equal(e!.timing.note, null);
    assert.match(
      comparisonSentences(e!).join('\n'),
      /Time to decision: re-rankings saved 12\.0 hours after the run started; committed 2\.0 days after it started\./,
    );
  });
});
