/**
 * A run evaluate lists as skipped is summed nowhere (issue 39, item 7): a run.json someone other than its driver changed
 * is refused by compare and listed once in evaluate's `skipped`; its time to decision (and survey answers) stay out of
 * the comparison of conditions too, not only out of the runs' totals.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam, pullAndPush } from '../../support/gitTeam';
import { makeTempDir } from '../run/fixtures';
import { makeReviewWithRun, RUN_ID } from './fixtures';
import { evaluateFolder } from '../../../src/core/evaluation';
import { conditionReviewOf, loadForConditions } from '../../../src/core/evaluation/evaluate/conditionFacts';
import { listRunEntries } from '../../../src/core/record/store';

describe('evaluate: a run listed as skipped is in no total', function () {
  this.timeout(120_000);

  it("a record Ben forged with a committedAt for Ana's run: skipped once, no runs, no minutes to decision", async () => {
    const seed = await makeReviewWithRun();
    await fs.appendFile(
      path.join(seed, 'review.yaml'),
      '\nteam:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n  d4: { git: dev@example.com }\n',
    );
    const t = await makeGitTeam(await makeTempDir('tf-tampered-totals-'), seed, ['ana', 'ben'] as const);
    const facts = async () => {
      const dir = t.review('ana');
      const loaded = await loadForConditions(dir);
      return conditionReviewOf(dir, '.', loaded.review!, await listRunEntries(dir));
    };
    assert.deepEqual((await facts()).review.minutes, [], 'the run was never committed with Commit Run');

    const file = path.join(t.review('ben'), 'runs', RUN_ID, 'run.json');
    const record = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
    await fs.writeFile(file, `${JSON.stringify({ ...record, committedAt: '2026-11-21T23:40:05.000Z' }, null, 2)}\n`);
    git(t.clone.ben, 'commit', '--quiet', '-am', "Ana's run, committed by Ben");
    pullAndPush(t.clone.ben);
    git(t.clone.ana, 'pull', '--quiet', '--rebase');

    const f = await facts();
    assert.deepEqual(f.review.minutes, [], 'the forged time to decision is not summed');
    assert.deepEqual([...f.refused], [RUN_ID]);
    const e = await evaluateFolder(t.review('ana'));
    assert.equal(e.overall.runs, 0);
    const listed = e.skipped.filter((s) => s.path === `runs/${RUN_ID}`);
    assert.equal(listed.length, 1, JSON.stringify(e.skipped));
    assert.match(
      listed[0]!.reason,
      new RegExp(`runs/${RUN_ID}/run\\.json is not counted: commit [0-9a-f]{12} by Ben <ben@example\\.com> wrote it`),
    );
  });
});
