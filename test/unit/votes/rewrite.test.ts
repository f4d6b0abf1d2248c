/**
 * History rewritten (issue 39, item 6), with real git and the built CLI: a squash of Ben's and Chen's vote commits makes
 * the squasher their author, so neither vote counts; `validate` says so — each votes file as a warning, the files in
 * `authorship.notCounted`, and one sentence naming the commit that wrote several members' files — instead of refusing in
 * silence. Ben's re-vote of the same choice then makes a commit of his own (and counts again); a vote that changes nothing
 * makes no commit and does not say "Pushed".
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam } from '../../support/gitTeam';
import { useCliAgainstMock } from '../cli/buildCli';
import { makeReview, makeTempDir } from '../run/fixtures';
import { forkedRun } from './forkedRun';

const MAPPING = 'team:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n';

interface ValidateJson {
  diagnostics: { file: string; severity: string; message: string }[];
  authorship: { checked: boolean; notCounted: { file: string; member: string; commit: string; author: string }[] };
}

describe('a rewritten history is said by validate; the same vote again makes a commit', function () {
  this.timeout(600_000);
  const rig = useCliAgainstMock({ drop: /^GIT_/, checkSpec: true });

  it('a squash of two votes: validate names both files and the commit; Ben votes the same again and counts', async () => {
    const seed = await makeReview({ options: 4, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), `lead: d1\nremixesPerIteration: 2\n${MAPPING}`);
    const { runId } = await forkedRun(rig.mock, await makeTempDir('tf-cache-'), { root: seed });
    const t = await makeGitTeam(await makeTempDir('tf-rewrite-'), seed, ['ana', 'ben', 'chen'] as const);
    const ben = await rig.run(['vote', t.review('ben'), runId, '--as', 'd2', '--sync', '1', 'a']);
    assert.equal(ben.code, 0, ben.stderr);
    const chen = await rig.run(['vote', t.review('chen'), runId, '--as', 'd3', '--sync', '1', 'b']);
    assert.equal(chen.code, 0, chen.stderr);

    const validate = async (who: 'ana' | 'ben'): Promise<ValidateJson> =>
      JSON.parse((await rig.run(['validate', '--json', t.review(who)])).stdout) as ValidateJson;
    assert.deepEqual((await validate('ana')).authorship.notCounted, [], "before the squash every vote is its member's");

    // Ana squashes the two vote commits into one of hers and force-pushes it.
    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    git(t.clone.ana, 'reset', '--quiet', '--soft', 'HEAD~2');
    git(t.clone.ana, 'commit', '--quiet', '-m', 'The votes, squashed');
    const squash = git(t.clone.ana, 'rev-parse', 'HEAD').trim();
    git(t.clone.ana, 'push', '--quiet', '--force');

    const v = await validate('ana');
    const votes = (id: string): string => `runs/${runId}/votes/${id}.yaml`;
    assert.deepEqual(
      v.authorship.notCounted.map((n) => [n.file, n.member, n.commit, n.author]),
      [
        [votes('d2'), 'd2', squash, 'ana@example.com'],
        [votes('d3'), 'd3', squash, 'ana@example.com'],
      ],
    );
    assert.ok(
      v.diagnostics.some(
        (d) =>
          d.file === votes('d2') &&
          d.severity === 'warning' &&
          /These votes are not counted: commit [0-9a-f]{12} by Ana <ana@example\.com>/.test(d.message),
      ),
      JSON.stringify(v.diagnostics),
    );
    const said = v.diagnostics.find((d) => d.file === '.' && d.message.startsWith('History rewritten?'));
    assert.ok(said, JSON.stringify(v.diagnostics));
    assert.equal(said.severity, 'warning');
    assert.match(
      said.message,
      new RegExp(
        `^History rewritten\\? Commit ${squash.slice(0, 12)} by ana@example\\.com wrote the files of 2 members \\(d2, d3\\), so none of those files counts`,
      ),
    );
    const plain = await rig.run(['validate', t.review('ana')]);
    assert.match(plain.stdout, /History rewritten\? Commit/);

    // Ben takes the rewritten history and votes the same side again: a commit of his, pushed; his vote counts again.
    git(t.clone.ben, 'fetch', '--quiet');
    git(t.clone.ben, 'reset', '--quiet', '--hard', 'origin/main');
    const again = await rig.run(['vote', t.review('ben'), runId, '--as', 'd2', '--sync', '1', 'a']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, new RegExp(`Committed runs/${runId}/votes/d2\\.yaml`));
    assert.match(again.stderr, /Pushed to origin\/main/);
    assert.equal(git(t.remote, 'log', '-1', '--format=%ae', 'main').trim(), 'ben@example.com');
    assert.deepEqual(
      (await validate('ben')).authorship.notCounted.map((n) => n.file),
      [votes('d3')],
      "Ben's vote counts again; Chen's is still the squash's",
    );

    // The same vote once more (its file now plain again), then again: the last changes nothing — no commit, no "Pushed".
    assert.equal((await rig.run(['vote', t.review('ben'), runId, '--as', 'd2', '--sync', '1', 'a'])).code, 0);
    const same = await rig.run(['vote', t.review('ben'), runId, '--as', 'd2', '--sync', '1', 'a']);
    assert.equal(same.code, 0, same.stderr);
    assert.doesNotMatch(same.stderr, /Committed|Pushed/);
    assert.match(same.stderr, new RegExp(`Nothing to commit: runs/${runId}/votes/d2\\.yaml already holds this as committed\\.`));
  });
});
