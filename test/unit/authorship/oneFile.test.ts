/**
 * One person, one file (issue 39): two files for one id in a member folder (ben.yaml beside ben.yml) are refused both,
 * each with one sentence naming the other; neither counts for anyone.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeReview } from '../run/fixtures';
import { makeReviewWithRun, RUN_ID } from '../evaluation/fixtures';
import { compareRun } from '../../../src/core/evaluation';
import { loadReview, formatDiagnostic } from '../../../src/core/review';

describe('one person, one file: two files for one id count for no one', function () {
  this.timeout(60_000);

  it('rankings/d2.yaml beside rankings/d2.yml: both refused, d2 is not counted', async () => {
    const root = await makeReview({ options: 3, designers: 3 });
    await fs.copyFile(path.join(root, 'rankings', 'd2.yaml'), path.join(root, 'rankings', 'd2.yml'));
    const r = await loadReview(root, { partial: true });
    const lines = r.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
    assert.deepEqual(lines, [
      'rankings/d2.yaml:0:0: error: rankings/d2.yaml and rankings/d2.yml are both for the designer id "d2", so neither is counted; keep one file per member (merge or rename one of them).',
      'rankings/d2.yml:0:0: error: rankings/d2.yml and rankings/d2.yaml are both for the designer id "d2", so neither is counted; keep one file per member (merge or rename one of them).',
    ]);
    assert.deepEqual(
      r.review?.designers.map((d) => d.id),
      ['d1', 'd3'],
    );
  });

  it('a survey as survey/d1.yaml and survey/d1.yml: neither counts in compare', async () => {
    const root = await makeReviewWithRun();
    const dir = path.join(root, 'runs', RUN_ID, 'survey');
    await fs.mkdir(dir, { recursive: true });
    for (const name of ['d1.yaml', 'd1.yml'])
      await fs.writeFile(path.join(dir, name), 'designer: d1\nrepresentative: 5\nclarity: 5\nsatisfied: 5\n');
    const c = await compareRun(root, RUN_ID);
    assert.equal(c.survey.n, 0, 'd1 is not counted twice, nor once');
    assert.deepEqual(
      c.problems.filter((p) => p.includes('/survey/')),
      [
        `runs/${RUN_ID}/survey/d1.yaml:1:1: error: runs/${RUN_ID}/survey/d1.yaml and runs/${RUN_ID}/survey/d1.yml are both for the designer id "d1", so neither is counted; keep one file per member (merge or rename one of them).`,
        `runs/${RUN_ID}/survey/d1.yml:1:1: error: runs/${RUN_ID}/survey/d1.yml and runs/${RUN_ID}/survey/d1.yaml are both for the designer id "d1", so neither is counted; keep one file per member (merge or rename one of them).`,
      ],
    );
  });
});
