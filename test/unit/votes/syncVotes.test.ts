/**
 * Votes through the team's git remote (issue 33: "vote files travel through --sync like say and pin, only as their
 * author"), with real git — a bare remote and three clones whose user.email differ — and the built CLI. `vote --sync`
 * commits and pushes the voter's own file; a votes file someone else commits under a member's name is not counted, said
 * with its file, commit and author; the member's own vote replaces the forgery; the vote that completes the count commits
 * run.json with the decision, which the others pull. With `requireSignedCommits: true` an unsigned commit does not speak.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam, pullAndPush } from '../../support/gitTeam';
import { readRunRecord } from '../../../src/core/record/store';
import { voteAuthorCheck } from '../../../src/core/evaluation/votes/authorship';
import { useCliAgainstMock } from '../cli/buildCli';
import { makeReview, makeTempDir } from '../run/fixtures';
import { forkedRun } from './forkedRun';

const MAPPING = 'team:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n';

describe('votes over --sync: each member votes only as themselves (real git, the built CLI)', function () {
  this.timeout(600_000);
  const rig = useCliAgainstMock({ drop: /^GIT_/, checkSpec: true });

  /** A forked run committed at review/ of a bare remote; Ana (d1, the lead), Ben (d2) and Chen (d3) each have a clone. */
  async function team(extraYaml = '') {
    const seed = await makeReview({ options: 4, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), `lead: d1\nremixesPerIteration: 2\n${MAPPING}${extraYaml}`);
    const { runId } = await forkedRun(rig.mock, await makeTempDir('tf-cache-'), { root: seed });
    const t = await makeGitTeam(await makeTempDir('tf-votes-git-'), seed, ['ana', 'ben', 'chen'] as const);
    return { t, runId, votes: (who: 'ana' | 'ben' | 'chen', id: string) => path.join(t.review(who), 'runs', runId, 'votes', `${id}.yaml`) };
  }

  it("vote --sync pushes the voter's file as them; Ben's forgery of Ana's vote is refused by name; Ana's own vote replaces it and decides", async () => {
    const { t, runId, votes } = await team();
    const ben = await rig.run(['vote', t.review('ben'), runId, '--as', 'd2', '--sync', '1', 'a']);
    assert.equal(ben.code, 0, ben.stderr);
    assert.match(ben.stderr, new RegExp(`Committed runs/${runId}/votes/d2\\.yaml \\("TeamFusion ${runId}: d2 votes"\\)`));
    assert.match(ben.stderr, /Pushed to origin\/main/);
    assert.equal(git(t.remote, 'log', '-1', '--format=%ae %s', 'main').trim(), `ben@example.com TeamFusion ${runId}: d2 votes`);

    // Ben writes a vote in Ana's name (d1 for "cool") and commits it as himself.
    await fs.writeFile(votes('ben', 'd1'), 'designer: d1\nvotes:\n  - iteration: 1\n    decisionPoint: 1\n    choice: r1b\n');
    git(t.clone.ben, 'add', '-A');
    git(t.clone.ben, 'commit', '--quiet', '-m', "Ana's vote");
    const forged = git(t.clone.ben, 'rev-parse', 'HEAD').trim();
    pullAndPush(t.clone.ben);

    // Chen votes: the pull brings the forgery, which is not counted, and the refusal names file, commit and author.
    const chen = await rig.run(['vote', t.review('chen'), runId, '--as', 'd3', '--sync', '1', 'b']);
    assert.equal(chen.code, 0, chen.stderr);
    const refusal = `runs/${runId}/votes/d1.yaml:1:1: error: These votes are not counted: commit ${forged.slice(0, 12)} by Ben <ben@example.com> wrote it, and that is not d1 (review.yaml team.d1.git: ana@example.com); each member votes only as themselves.`;
    assert.ok(chen.stderr.includes(refusal), chen.stderr);
    assert.match(chen.stderr, /2 of 3 have voted \(warm palette 1, cool palette 1\); waiting for Ana \(d1\)\./);
    assert.equal((await readRunRecord(t.review('chen'), runId)).iterations[0]!.decisions, undefined, 'a forged vote decides nothing');

    // Ana votes: her file replaces the forgery whole; the count is complete and run.json goes out with the decision.
    const ana = await rig.run(['vote', t.review('ana'), runId, '--as', 'd1', '--sync', '1', 'r1a']);
    assert.equal(ana.code, 0, ana.stderr);
    assert.match(
      ana.stderr,
      new RegExp(`runs/${runId}/votes/d1\\.yaml was not yours as committed \\(commit ${forged.slice(0, 12)} by Ben`),
    );
    assert.match(ana.stderr, /Decided: warm palette \(warm palette 2, cool palette 1\); the next refinement carries it\./);
    assert.match(ana.stderr, new RegExp(`Committed runs/${runId}/votes/d1\\.yaml, runs/${runId}/run\\.json`));
    assert.equal(
      await fs.readFile(votes('ana', 'd1'), 'utf8'),
      'designer: d1\nvotes:\n  - iteration: 1\n    decisionPoint: 1\n    choice: r1a\n',
    );

    git(t.clone.chen, 'pull', '--quiet', '--rebase');
    const decided = (await readRunRecord(t.review('chen'), runId)).iterations[0]!.decisions;
    assert.deepEqual(
      decided?.map((d) => [d.decision, d.by, d.via, d.voters, d.counts]),
      [['warm palette', 'team', 'human', ['d1', 'd2', 'd3'], { 'warm palette': 2, 'cool palette': 1 }]],
    );
    assert.equal(git(t.clone.chen, 'log', '-1', '--format=%ae', '--', `review/runs/${runId}/votes/d1.yaml`).trim(), 'ana@example.com');
  });

  it("requireSignedCommits: a vote whose commit git verify-commit does not accept is not counted; a file never committed is this machine's own", async () => {
    const { t, runId } = await team('requireSignedCommits: true\n');
    const ben = await rig.run(['vote', t.review('ben'), runId, '--as', 'd2', '--sync', '1', 'a']);
    assert.equal(ben.code, 0, ben.stderr);
    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    const check = await voteAuthorCheck(t.review('ana'), {
      team: { d1: { git: 'ana@example.com' }, d2: { git: 'ben@example.com' }, d3: { git: 'chen@example.com' } },
      requireSignedCommits: true,
    });
    assert.ok(check, 'e-mails named and a git repository: votes are checked');
    assert.match(
      (await check(`runs/${runId}/votes/d2.yaml`, 'd2'))!,
      /^commit [0-9a-f]{12} by Ben <ben@example\.com> wrote it, and git verify-commit does not accept its signature \(requireSignedCommits: true\)$/,
    );
    const ana = await rig.run(['vote', t.review('ana'), runId, '--as', 'd1', '1', 'a']);
    assert.equal(ana.code, 0, ana.stderr);
    assert.match(ana.stderr, /d2\.yaml:1:1: error: These votes are not counted: commit [0-9a-f]{12} by Ben/);
    assert.match(
      ana.stderr,
      /1 of 3 have voted \(warm palette 1, cool palette 0\); waiting for Ben \(d2\), Chloé \(d3\)\./,
      "Ana's uncommitted vote counts, Ben's unsigned one does not",
    );
    // Without e-mails in review.yaml nothing is checked.
    assert.equal(await voteAuthorCheck(t.review('ana'), {}), undefined);
  });
});
