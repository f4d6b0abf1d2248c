/**
 * The lead reopens a decision (issue 38): `teamfusion vote <review> <run-id> --as <lead> --reopen <decision-point>` (the
 * built CLI) records `reopened: { by, at }` on it — the decision stays, as history — keeps every vote as it was, lets the team
 * decide again, and a reopened decision binds no later round. A decision naming a side already set aside is said and kept
 * as history. Real engine and CLI against the spec-checking scripted server.
 */
import { runSummary } from '../../../src/core/questions/runSummary';
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readRunRecord } from '../../../src/core/record/store';
import { refineRun } from '../../../src/core/run/session';
import { castVote, VoteError } from '../../../src/core/evaluation/votes/cast';
import { reopenDecision } from '../../../src/core/evaluation/votes/reopen';
import { mockSuite, runJson, startCli, type CliResult } from '../run/helpers';
import { QUESTION, forkedRun } from './forkedRun';

describe('votes: the lead reopens a decision', function () {
  this.timeout(180_000);
  const suite = mockSuite();
  const cli = (args: string[]): Promise<CliResult> => startCli(args, suite.env).done;

  async function decided(): Promise<{ root: string; runId: string }> {
    const run = await forkedRun(suite.mock, suite.cacheDir);
    for (const [as, choice] of [
      ['d1', 'a'],
      ['d2', 'a'],
      ['d3', 'b'],
    ] as const)
      await castVote({ reviewRoot: run.root, runId: run.runId, as, decisionPoint: 1, choice });
    return run;
  }

  const votesOf = async (root: string, runId: string): Promise<string[]> => {
    const dir = path.join(root, 'runs', runId, 'votes');
    return Promise.all((await fs.readdir(dir)).sort().map((f) => fs.readFile(path.join(dir, f), 'utf8')));
  };

  it('teamfusion vote --reopen: recorded on the decision, kept as history, the votes kept; the team decides again', async () => {
    const { root, runId } = await decided();
    const votes = await votesOf(root, runId);
    await assert.rejects(
      reopenDecision({ reviewRoot: root, runId, as: 'd2', decisionPoint: 1 }),
      (e: unknown) => e instanceof VoteError && /^Only the lead \(d1\) reopens a decision\.$/.test(e.message),
    );
    const usage = await cli(['vote', root, runId, '--as', 'd1', '--reopen', '--close', '1']);
    assert.equal(usage.code, 2, usage.stderr);

    const r = await cli(['vote', root, runId, '--as', 'd1', '--reopen', '1']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /Reopened "Warm or cool palette\?" \(decided: warm palette; kept as history\)\. The 3 votes cast are kept \(warm palette 2, cool palette 1\); a vote or the lead's close decides it again\./,
    );
    const rec = await runJson(root, runId);
    const [d] = rec.iterations[0]!.decisions!;
    assert.equal(d!.decision, 'warm palette', 'the decision stays');
    assert.equal(d!.reopened?.by, 'd1');
    assert.ok(!Number.isNaN(Date.parse(d!.reopened!.at)));
    assert.deepEqual(await votesOf(root, runId), votes, 'every vote kept as it was');
    assert.match(
      await fs.readFile(path.join(root, 'runs', runId, 'result.md'), 'utf8'),
      /→ \*\*warm palette\*\* \(the team's vote, 2 to 1\) — reopened by \S+, kept as history/,
    );
    const twice = await cli(['vote', root, runId, '--as', 'd1', '--reopen', '1']);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /"Warm or cool palette\?" is not decided, so there is nothing to reopen\./);

    // The votes kept do not decide the reopened point by themselves (issue 39: only a vote recorded anew, or the lead's close).
    assert.deepEqual(
      (await runSummary(root, runId)).openForks.map((f) => f.decisionPoint),
      [1],
      'open again, whatever the old votes say',
    );

    // d3 changes their vote: everyone has voted, so it decides again; the reopened decision stays before it.
    const again = await castVote({ reviewRoot: root, runId, as: 'd3', decisionPoint: 1, choice: 'a' });
    assert.equal(again.decision?.decision, 'warm palette');
    const after = await readRunRecord(root, runId);
    assert.deepEqual(
      after.iterations[0]!.decisions!.map((x) => [x.decision, x.reopened?.by, x.counts]),
      [
        ['warm palette', 'd1', { 'warm palette': 2, 'cool palette': 1 }],
        ['warm palette', undefined, { 'warm palette': 3, 'cool palette': 0 }],
      ],
    );
  });

  it('a decision reopened before the refinement binds nothing: no side set aside, none carried into the prompts', async () => {
    const { root, runId } = await decided();
    await reopenDecision({ reviewRoot: root, runId, as: 'd1', decisionPoint: 1 });
    const seen = suite.mock.requests.length;
    const refined = await refineRun({ reviewRoot: root, ...suite.engine, runId, feedback: 'Go on.' });
    assert.equal(refined.status, 'completed', refined.error);
    const rec = await runJson(root, runId);
    assert.equal(rec.iterations[2]!.setAside, undefined);
    const bodies = suite.mock.requests
      .slice(seen)
      .filter((q) => q.body !== undefined)
      .map((q) => JSON.stringify(q.body));
    assert.ok(bodies.length > 0 && bodies.every((b) => !b.includes('Decided by the team')), 'no request carries the reopened decision');
  });

  it('reopened after the refinement set a side aside: that side stays aside, and a new decision for it is said and kept as history', async () => {
    const { root, runId } = await decided();
    const refined = await refineRun({ reviewRoot: root, ...suite.engine, runId, feedback: 'Go on.' });
    assert.equal(refined.status, 'completed', refined.error);
    assert.deepEqual((await runJson(root, runId)).iterations[2]!.setAside, [{ id: 'r1b', question: QUESTION, decidedIn: 1 }]);
    const reopened = await reopenDecision({ reviewRoot: root, runId, as: 'd1', decisionPoint: 1, iteration: 1 });
    assert.match(reopened.note, /What it set aside \(r1b\) stays aside\.$/);
    // Everyone's vote is still there: d1 changing theirs decides again.
    const last = await castVote({ reviewRoot: root, runId, as: 'd1', iteration: 1, decisionPoint: 1, choice: 'b' });
    assert.equal(last.decision?.decision, 'cool palette');
    assert.match(
      last.note,
      /^Decided: cool palette \(warm palette 1, cool palette 2\); its remix r1b was set aside in round 3, so the side is no longer in the running: the decision is kept as history and binds nothing\./,
    );
  });
});
