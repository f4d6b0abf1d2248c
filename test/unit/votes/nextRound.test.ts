/**
 * The decided side shapes the next round (issue 33): once the team's vote (or, under `lead-decides`, the lead in person)
 * settles a fork, the refinement's requests — every proxy turn and the remix agent of its discussion, and each image edit's
 * directions — carry it ("Decided by the team: Warm or cool palette? → warm palette, 2 to 1."), while the fork round is never
 * run again. Real engine against the spec-checking scripted server; the server's recorded request bodies are read.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readRunRecord, writeRunRecord } from '../../../src/core/record/store';
import { refineRun } from '../../../src/core/run/session';
import { castVote } from '../../../src/core/evaluation/votes/cast';
import { carryDecidedSides } from '../../../src/core/discussion/decisionWords';
import { mockSuite } from '../run/helpers';
import { QUESTION, forkedRun } from './forkedRun';

const TEAM_SAYS = 'Decided by the team: Warm or cool palette? → warm palette, 2 to 1.';
const LEAD_SAYS = 'Decided by the lead in person: Warm or cool palette? → cool palette.';

describe('votes: the decided side goes into the next round', function () {
  this.timeout(180_000);
  const suite = mockSuite();

  /** The refinement's requests: chat bodies as text, and each image edit's directions. */
  async function refine(root: string, runId: string): Promise<{ chats: string[]; edits: string[] }> {
    const seen = suite.mock.requests.length;
    const refined = await refineRun({ reviewRoot: root, ...suite.engine, runId, feedback: 'Go on.' });
    assert.equal(refined.status, 'completed', refined.error);
    const mine = suite.mock.requests.slice(seen);
    return {
      chats: mine.filter((r) => r.route === 'chat').map((r) => JSON.stringify(r.body)),
      edits: mine.filter((r) => r.route === 'edit').map((r) => String((r.body as { prompt?: unknown }).prompt)),
    };
  }

  it("the team's vote: every chat request of the refinement and every edit's directions carry the side and its margin; round 1 stays as it ran", async () => {
    const { root, runId } = await forkedRun(suite.mock, suite.cacheDir);
    for (const [as, choice] of [
      ['d1', 'a'],
      ['d3', 'b'],
      ['d2', 'r1a'],
    ] as const)
      await castVote({ reviewRoot: root, runId, as, decisionPoint: 1, choice });
    const decided = await readRunRecord(root, runId);
    assert.equal(decided.iterations[0]!.decisions?.[0]?.by, 'team');
    const round1 = JSON.stringify({ ...decided.iterations[0], decisions: undefined });

    const { chats, edits } = await refine(root, runId);
    assert.ok(chats.length >= 4, `the refinement talked (${chats.length} chat requests)`);
    // JSON.stringify escapes nothing in these words, so the sentence is found as written.
    const without = chats.filter((c) => !c.includes(TEAM_SAYS));
    assert.equal(without.length, 0, `every chat request carries the decision; without it: ${without.length} of ${chats.length}`);
    assert.equal(edits.length, 2, 'two remixes in the refinement round');
    for (const e of edits) assert.ok(e.split('\n').includes(TEAM_SAYS), `the edit's directions end with the decision:\n${e}`);

    const after = await readRunRecord(root, runId);
    assert.equal(after.iterations.length, 4, 'a refinement adds a remix round and a pick');
    assert.equal(JSON.stringify({ ...after.iterations[0], decisions: undefined }), round1, 'the fork round is never run again');
    assert.equal(
      after.prompts.filter((p) => p.iteration === 1).length,
      decided.prompts.filter((p) => p.iteration === 1).length,
      'no new request for round 1',
    );
    for (const p of after.iterations[2]!.proposals ?? [])
      assert.equal(p.editingDirections.split('\n').filter((l) => l === TEAM_SAYS).length, 1, 'said once');
  });

  it("lead-decides: the lead closes with a side in person — recorded as the lead's via human whatever the counts — and the next round carries it", async () => {
    const { root, runId } = await forkedRun(suite.mock, suite.cacheDir, {
      yaml: 'lead: d1\nhierarchy: lead-decides\nremixesPerIteration: 2\n',
    });
    await castVote({ reviewRoot: root, runId, as: 'd2', decisionPoint: 1, choice: 'a' });
    await castVote({ reviewRoot: root, runId, as: 'd3', decisionPoint: 1, choice: 'a' });
    const closed = await castVote({ reviewRoot: root, runId, as: 'd1', decisionPoint: 1, choice: 'b', close: true });
    assert.deepEqual(closed.decision && { ...closed.decision, at: undefined }, {
      question: QUESTION,
      decision: 'cool palette',
      by: 'd1',
      via: 'human',
      at: undefined,
      voters: ['d1', 'd2', 'd3'],
      counts: { 'warm palette': 2, 'cool palette': 1 },
    });
    assert.match(closed.note, /^Decided: cool palette \(the lead's decision in person; votes: warm palette 2, cool palette 1\)/);
    assert.match(
      await fs.readFile(path.join(root, 'runs', runId, 'result.md'), 'utf8'),
      /→ \*\*cool palette\*\* \(\S+ in person\)/,
      'result.md: the lead in person',
    );
    const { chats, edits } = await refine(root, runId);
    assert.equal(chats.filter((c) => !c.includes(LEAD_SAYS)).length, 0, "every chat request carries the lead's decision");
    assert.ok(
      chats.every((c) => !c.includes('Decided by the team')),
      "it is not called the team's",
    );
    for (const e of edits) assert.ok(e.split('\n').includes(LEAD_SAYS), e);
  });

  it("without lead-decides the lead's close goes by the count; a tie is refused in words", async () => {
    const { root, runId } = await forkedRun(suite.mock, suite.cacheDir);
    await castVote({ reviewRoot: root, runId, as: 'd2', decisionPoint: 1, choice: 'a' });
    await assert.rejects(
      castVote({ reviewRoot: root, runId, as: 'd1', decisionPoint: 1, choice: 'b', close: true }),
      /The vote on "Warm or cool palette\?" is tied \(warm palette 1, cool palette 1\); another vote must break the tie\./,
    );
    await castVote({ reviewRoot: root, runId, as: 'd3', decisionPoint: 1, choice: 'a' });
    const closed = await castVote({ reviewRoot: root, runId, as: 'd1', decisionPoint: 1, close: true });
    assert.equal(closed.decision, undefined, 'everyone has voted: the vote decided already');
    const record = await readRunRecord(root, runId);
    assert.deepEqual(
      record.iterations[0]!.decisions?.map((d) => [d.decision, d.by]),
      [['warm palette', 'team']],
    );
  });

  it('a round whose remix is already made keeps its directions when a decision comes later', async () => {
    const { root, runId } = await forkedRun(suite.mock, suite.cacheDir);
    const record = await readRunRecord(root, runId);
    record.iterations[0]!.decisions = [
      {
        question: QUESTION,
        decision: 'warm palette',
        by: 'team',
        via: 'human',
        voters: ['d1'],
        counts: { 'warm palette': 1, 'cool palette': 0 },
      },
    ];
    await writeRunRecord(root, record, { validate: true });
    const it2 = { ...record.iterations[1]!, final: false, editingDirections: 'Make it brighter.' };
    assert.equal(
      carryDecidedSides(record.iterations, { ...it2, remix: { id: 'r2', file: 'runs/x/iteration-2/remix.png', from: [] } } as never),
      false,
      'made: unchanged',
    );
    const open = { ...it2 };
    delete (open as { remix?: unknown }).remix;
    delete (open as { remixes?: unknown }).remixes;
    assert.equal(carryDecidedSides(record.iterations, open), true);
    assert.equal(open.editingDirections, 'Make it brighter.\nDecided by the team: Warm or cool palette? → warm palette, 1 to 0.');
    assert.equal(carryDecidedSides(record.iterations, open), false, 'a resume never adds it twice');
  });
});
