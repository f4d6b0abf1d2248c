/**
 * A decision binds the next round (issue 38, item 1): once the team's vote settles a fork, the refinement's remix round carries
 * the chosen side's remix — even when the last ranking had dropped it — and sets aside the other sides' remixes, recorded as
 * `setAside: [{ id, question, decidedIn }]`; no later round holds them and the final pick is never one of them; result.md lists
 * them under "Set aside". Real engine against the spec-checking scripted server.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readRunRecord, writeRunRecord } from '../../../src/core/record/store';
import { refineRun } from '../../../src/core/run/session';
import { castVote } from '../../../src/core/evaluation/votes/cast';
import { checkRunRecord } from '../../../src/core/record/recordCheck';
import { bindNextRound, boundCandidates } from '../../../src/core/fork/binding';
import type { Iteration } from '../../../src/core/record/record';
import type { RunEvent } from '../../../src/core/step/events';
import { mockSuite, runJson } from '../run/helpers';
import { QUESTION, forkedRun } from './forkedRun';

describe('votes: a decision binds the next round (set aside)', function () {
  this.timeout(180_000);
  const suite = mockSuite();

  /** The forked run with round 2's ranking put so that its top 2 are the side to be set aside and an option, the chosen side last. */
  async function decidedRun(): Promise<{ root: string; runId: string }> {
    const run = await forkedRun(suite.mock, suite.cacheDir);
    const record = await readRunRecord(run.root, run.runId);
    const two = record.iterations[1]!;
    two.ranking = ['r1a', ...two.candidates.filter((c) => c !== 'r1a' && c !== 'r1b'), 'r1b'];
    await writeRunRecord(run.root, record, { validate: true });
    for (const [as, choice] of [
      ['d1', 'b'],
      ['d2', 'r1b'],
      ['d3', 'a'],
    ] as const)
      await castVote({ reviewRoot: run.root, runId: run.runId, as, decisionPoint: 1, choice });
    const decided = await readRunRecord(run.root, run.runId);
    assert.equal(decided.iterations[0]!.decisions?.[0]?.decision, 'cool palette', 'the team chose r1b, 2 to 1');
    return run;
  }

  it("the refinement carries the team's side and sets aside the other; no later round holds it and it is never the final pick", async () => {
    const { root, runId } = await decidedRun();
    const events: RunEvent[] = [];
    const refined = await refineRun({ reviewRoot: root, ...suite.engine, runId, feedback: 'Go on.', onEvent: (e) => events.push(e) });
    assert.equal(refined.status, 'completed', refined.error);
    const rec = await runJson(root, runId);
    const [, , three, four] = rec.iterations;
    assert.deepEqual(three!.setAside, [{ id: 'r1a', question: QUESTION, decidedIn: 1 }]);
    assert.ok(three!.candidates.includes('r1b'), `the chosen side is carried: ${three!.candidates.join(', ')}`);
    for (const it of [three!, four!])
      assert.ok(!it.candidates.includes('r1a'), `round ${it.index} leaves r1a out: ${it.candidates.join(', ')}`);
    assert.equal(four!.setAside, undefined, 'set aside once, on the round after the decision');
    assert.ok(rec.finalPick && rec.finalPick !== 'r1a', `final pick ${rec.finalPick}`);
    assert.ok(
      events.some(
        (e) =>
          e.type === 'notice' &&
          /Round 3 carries r1b, the side "cool palette" \(decided on "Warm or cool palette\?" in round 1\), and sets aside r1a\./.test(
            e.message,
          ),
      ),
    );
    const result = await fs.readFile(path.join(root, 'runs', runId, 'result.md'), 'utf8');
    assert.match(
      result,
      /## Iteration 3\n\nCandidates: [^\n]*\n\nSet aside:\n\n- [^\n]*r1a[^\n]* — "warm palette": not the side chosen on Warm or cool palette\? \(decided in round 1\)\n/,
    );
    const json = JSON.parse(await fs.readFile(path.join(root, 'runs', runId, 'run.json'), 'utf8')) as typeof rec;
    assert.ok(
      'record' in checkRunRecord(json, `runs/${runId}`, await fs.readdir(path.join(root, 'options'))),
      'the record passes the checks of a record read back',
    );
    json.iterations[3]!.candidates.push('r1a');
    const back = checkRunRecord(json, `runs/${runId}`, await fs.readdir(path.join(root, 'options')));
    assert.ok(
      'problem' in back && /The candidate "r1a" of iteration 4 was set aside by a decision/.test(back.problem.message),
      JSON.stringify(back),
    );
  });

  it('an undecided fork goes on as before: nothing set aside', async () => {
    const { root, runId } = await forkedRun(suite.mock, suite.cacheDir);
    const before = await readRunRecord(root, runId);
    const b = bindNextRound(before.iterations, 3);
    assert.deepEqual([b.setAside, b.carried, [...b.excluded], b.said], [[], [], [], []]);
    assert.deepEqual(boundCandidates(['r1a', 'o1'], b), ['r1a', 'o1']);
  });

  it('a decision whose side was set aside already is said and binds nothing; a reopened decision binds nothing more', () => {
    const sides: Iteration = {
      index: 1,
      candidates: ['o1', 'o2'],
      messages: [],
      ranking: ['o1', 'o2'],
      remixes: [
        {
          id: 'r1a',
          letter: 'a',
          file: 'iteration-1/remix-a.png',
          from: ['o1'],
          fork: { question: QUESTION, position: 'warm palette', decisionPoint: 1 },
        },
        {
          id: 'r1b',
          letter: 'b',
          file: 'iteration-1/remix-b.png',
          from: ['o1'],
          fork: { question: QUESTION, position: 'cool palette', decisionPoint: 1 },
        },
      ],
      decisions: [
        { question: QUESTION, decision: 'cool palette', by: 'team', via: 'human', reopened: { by: 'd1', at: '2026-01-01T00:00:00Z' } },
        { question: QUESTION, decision: 'warm palette', by: 'team', via: 'human' },
      ],
    } as Iteration;
    const later: Iteration = {
      index: 2,
      candidates: ['r1b', 'o1'],
      messages: [],
      setAside: [{ id: 'r1a', question: QUESTION, decidedIn: 1 }],
    };
    const b = bindNextRound([sides, later], 3);
    assert.deepEqual(b.setAside, [], 'nothing new set aside');
    assert.deepEqual(b.carried, []);
    assert.deepEqual([...b.excluded], ['r1a'], 'what was set aside stays aside');
    assert.deepEqual(b.said, [
      'The side "warm palette" (decided on "Warm or cool palette?" in round 1) is no longer in the running: its remix r1a was set aside by an earlier decision; the decision is kept as history and binds nothing.',
    ]);
    // Reopened before any round was planned: it binds nothing.
    const open = bindNextRound([{ ...sides, decisions: [sides.decisions![0]!] }], 2);
    assert.deepEqual([open.setAside, open.carried], [[], []]);
  });
});
