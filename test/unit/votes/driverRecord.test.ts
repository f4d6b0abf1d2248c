/**
 * The record is the driver's (issue 39): a member who is not the run's driver casts the deciding vote with --sync, and only
 * his own votes file goes into his commit — run.json is never his to write. The decision is computed from the attributed
 * vote files wherever it is read: `compare --json` on the driver's clone after a pull believes the run (not refused) and
 * shows the votes' decision; the driver's refine then records it in run.json and sets aside the side not chosen.
 * Real git (a bare remote, one clone per member) and the built CLI against the scripted server.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam } from '../../support/gitTeam';
import { readRunRecord } from '../../../src/core/record/store';
import { useCliAgainstMock } from '../cli/buildCli';
import { makeReview, makeTempDir } from '../run/fixtures';
import { QUESTION, forkedRun } from './forkedRun';
import { runSummary } from '../../../src/core/questions/runSummary';
import { nextSteps } from '../../../src/core/questions/nextSteps';
import { panelForks } from '../../../src/extension/panel/state/votesState';

const MAPPING = 'team:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n';

describe("votes: a member's deciding vote never writes the driver's record (real git, the built CLI)", function () {
  this.timeout(600_000);
  const rig = useCliAgainstMock({ drop: /^GIT_/, checkSpec: true });

  it("Ben's deciding vote commits his file alone; compare on Ana's clone shows the votes' decision; Ana's refine records it and sets aside the other side", async () => {
    const seed = await makeReview({ options: 4, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), `lead: d1\nremixesPerIteration: 2\n${MAPPING}`);
    const { runId } = await forkedRun(rig.mock, await makeTempDir('tf-cache-'), { root: seed });
    // Ana commits the seed, run.json with it: she is the run's driver.
    const t = await makeGitTeam(await makeTempDir('tf-driver-git-'), seed, ['ana', 'ben', 'chen'] as const);
    const runJson = `review/runs/${runId}/run.json`;
    const before = git(t.clone.ana, 'rev-parse', `HEAD:${runJson}`).trim();

    for (const [who, id, choice] of [
      ['ana', 'd1', 'a'],
      ['chen', 'd3', 'b'],
    ] as const) {
      const r = await rig.run(['vote', t.review(who), runId, '--as', id, '--sync', '1', choice]);
      assert.equal(r.code, 0, r.stderr);
    }
    const ben = await rig.run(['vote', t.review('ben'), runId, '--as', 'd2', '--sync', '1', 'a']);
    assert.equal(ben.code, 0, ben.stderr);
    assert.match(
      ben.stderr,
      /Decided by the votes: warm palette \(warm palette 2, cool palette 1\); the driver's record takes it in on its next refine or resume\./,
    );
    assert.equal(git(t.remote, 'log', '-1', '--format=%ae', 'main').trim(), 'ben@example.com');
    assert.deepEqual(
      git(t.remote, 'show', '--name-only', '--format=', 'main').trim().split('\n'),
      [`review/runs/${runId}/votes/d2.yaml`],
      "Ben's commit holds his votes file alone",
    );
    assert.equal(git(t.remote, 'rev-parse', `main:${runJson}`).trim(), before, 'run.json is as the driver committed it');
    assert.equal(git(t.clone.ben, 'status', '--porcelain', '--', runJson).trim(), '', 'nor is it changed on his machine');
    assert.equal((await readRunRecord(t.review('ben'), runId)).iterations[0]!.decisions, undefined);

    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    const compare = await rig.run(['compare', t.review('ana'), runId, '--json']);
    assert.doesNotMatch(compare.stderr, /is not counted/, 'the run is believed');
    const out = JSON.parse(compare.stdout) as {
      votes: { question: string; decided: boolean; recorded: boolean; decision: string | null; voters: string[] }[];
    };
    assert.deepEqual(
      out.votes.map((v) => [v.question, v.decided, v.recorded, v.decision, [...v.voters].sort()]),
      [[QUESTION, true, false, 'warm palette', ['d1', 'd2', 'd3']]],
    );

    // The questions room and the panel recompute it too.
    const summary = await runSummary(t.review('ana'), runId);
    assert.equal(summary.openForks.length, 0);
    assert.deepEqual(
      summary.decisions.map((d) => [d.round, d.by, [...(d.voters ?? [])].sort()]),
      [[1, 'team', ['d1', 'd2', 'd3']]],
    );
    assert.match(JSON.stringify(summary.decisions[0]!.decision), /warm palette/);
    assert.equal((await nextSteps(t.review('ana'), runId)).steps.filter((s) => s.kind === 'vote').length, 0, 'no vote is still to cast');
    const config = { team: { d1: { git: 'ana@example.com' }, d2: { git: 'ben@example.com' }, d3: { git: 'chen@example.com' } } };
    const panel = await panelForks(t.review('ana'), await readRunRecord(t.review('ana'), runId), config, ['d1', 'd2', 'd3']);
    assert.deepEqual(panel?.forks[0]?.decision, {
      decision: 'warm palette',
      by: 'team',
      via: 'human',
      counts: { 'warm palette': 2, 'cool palette': 1 },
    });

    const refine = await rig.run(['run', t.review('ana'), '--resume', runId, '--feedback', 'Go on.']);
    assert.equal(refine.code, 0, refine.stderr);
    assert.match(
      refine.stderr,
      /Decided by the votes: warm palette on "Warm or cool palette\?" \(warm palette 2, cool palette 1\); recorded in run\.json\./,
    );
    const after = await readRunRecord(t.review('ana'), runId);
    assert.deepEqual(
      after.iterations[0]!.decisions?.map((d) => [d.decision, d.by, d.via, [...(d.voters ?? [])].sort(), d.counts]),
      [['warm palette', 'team', 'human', ['d1', 'd2', 'd3'], { 'warm palette': 2, 'cool palette': 1 }]],
    );
    const [warm, cool] = after.iterations[0]!.remixes!;
    assert.deepEqual(
      after.iterations[2]!.setAside,
      [{ id: cool!.id, question: QUESTION, decidedIn: 1 }],
      'the refinement sets aside the side not chosen',
    );
    assert.ok(!(after.iterations[2]!.candidates ?? []).includes(cool!.id), 'the side set aside is no candidate');
    assert.ok(warm, 'the chosen side is there');
  });

  it('a lead who is not the driver closes on their machine: nothing is written to run.json, and the sentence says where to close', async () => {
    const seed = await makeReview({ options: 4, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), `lead: d2\nremixesPerIteration: 2\n${MAPPING}`);
    const { runId } = await forkedRun(rig.mock, await makeTempDir('tf-cache-'), { root: seed });
    const t = await makeGitTeam(await makeTempDir('tf-driver-close-'), seed, ['ana', 'ben', 'chen'] as const);
    const runJson = `review/runs/${runId}/run.json`;
    const before = git(t.remote, 'rev-parse', `main:${runJson}`).trim();
    const ana = await rig.run(['vote', t.review('ana'), runId, '--as', 'd1', '--sync', '1', 'a']);
    assert.equal(ana.code, 0, ana.stderr);
    const close = await rig.run(['vote', t.review('ben'), runId, '--as', 'd2', '--close', '--sync', '1']);
    assert.equal(close.code, 0, close.stderr);
    assert.match(
      close.stderr,
      /The close is not recorded on this machine: only the run's driver writes run\.json; close the vote on the driver's machine\./,
    );
    assert.equal(git(t.remote, 'rev-parse', `main:${runJson}`).trim(), before);
    assert.equal(git(t.clone.ben, 'status', '--porcelain', '--', runJson).trim(), '');
  });
});
