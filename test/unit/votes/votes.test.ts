/**
 * Votes on a fork (issue 33): a real run with two remixes a round (against the spec-checking mock) whose round-1 remixes are
 * marked as the two sides of a decision point; members vote through castVote (the CLI's core) and by file; the tally, the
 * refusals at their lines, and the `via: human` decision with voters and counts, carried into later rounds' prompts.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readRunRecord } from '../../../src/core/record/store';
import { castVote, VoteError } from '../../../src/core/evaluation/votes/cast';
import { loadVotes } from '../../../src/core/evaluation/votes/voteFile';
import { tallyAll } from '../../../src/core/evaluation/votes/tally';
import { sharedPrefix } from '../../../src/core/discussion/prompts';
import { compareRun } from '../../../src/core/evaluation/compare/compare';
import { mockSuite } from '../run/helpers';
import { QUESTION, forkedRun } from './forkedRun';

describe('votes on a fork: files, tally and the team decision', function () {
  this.timeout(120_000);
  const suite = mockSuite();

  const forked = () => forkedRun(suite.mock, suite.cacheDir);

  it('every member votes (id or letter): the tally, then one via-human decision with voters and counts, carried into later prompts', async () => {
    const { root, runId } = await forked();
    const first = await castVote({ reviewRoot: root, runId, as: 'd1', decisionPoint: 1, choice: 'r1a' });
    assert.equal(first.file, `runs/${runId}/votes/d1.yaml`);
    assert.match(first.note, /^1 of 3 have voted \(warm palette 1, cool palette 0\); waiting for Ben \(d2\), Chloé \(d3\)\.$/);
    assert.equal(
      await fs.readFile(path.join(root, first.file!), 'utf8'),
      'designer: d1\nvotes:\n  - iteration: 1\n    decisionPoint: 1\n    choice: r1a\n',
    );
    await castVote({ reviewRoot: root, runId, as: 'd3', decisionPoint: 1, choice: 'B' });
    const last = await castVote({ reviewRoot: root, runId, as: 'd2', iteration: 1, decisionPoint: 1, choice: 'a' });
    assert.deepEqual(last.decision && { ...last.decision, at: undefined }, {
      question: QUESTION,
      decision: 'warm palette',
      by: 'team',
      via: 'human',
      at: undefined,
      voters: ['d1', 'd2', 'd3'],
      counts: { 'warm palette': 2, 'cool palette': 1 },
    });
    const record = await readRunRecord(root, runId);
    assert.equal(record.status, 'completed', 'the run stays completed; round 1 is not run again');
    assert.equal(record.iterations[0]!.decisions?.length, 1);
    const result = await fs.readFile(path.join(root, 'runs', runId, 'result.md'), 'utf8');
    assert.ok(
      result.includes("Decided by the team:\n\n- Warm or cool palette? → **warm palette** (the team's vote, 2 to 1)"),
      'result.md says the team decided, not the lead',
    );
    // A later vote changes nothing already decided.
    const again = await castVote({ reviewRoot: root, runId, as: 'd3', decisionPoint: 1, choice: 'r1a' });
    assert.equal(again.decision, undefined);
    assert.equal((await readRunRecord(root, runId)).iterations[0]!.decisions?.length, 1);
    // Every later prompt's history carries the decided side and its margin.
    const prefix = sharedPrefix({ system: 's', brief: 'b', candidates: [], previous: [record.iterations[0]!], labelOf: (id) => id });
    const text = JSON.stringify(prefix);
    assert.match(text, /Decided by the team: Warm or cool palette\? → warm palette, 2 to 1\./);
    // compare gives the tally.
    const c = await compareRun(root, runId, { permutations: 50 });
    assert.deepEqual(
      c.votes.map((v) => [v.question, v.counts, v.decided]),
      [[QUESTION, { 'warm palette': 3, 'cool palette': 0 }, true]],
    );
  });

  it('refused: someone not on the team, a side of no fork, a point without a fork; the lead closes a split vote', async () => {
    const { root, runId } = await forked();
    await assert.rejects(
      castVote({ reviewRoot: root, runId, as: 'zoe', decisionPoint: 1, choice: 'r1a' }),
      (e: Error) => e instanceof VoteError && /"zoe" is not on the team/.test(e.message),
    );
    await assert.rejects(
      castVote({ reviewRoot: root, runId, as: 'd2', decisionPoint: 1, choice: 'r2' }),
      /"r2" is not a side of this fork; choose r1a \(a\) = warm palette, r1b \(b\) = cool palette\./,
    );
    await assert.rejects(
      castVote({ reviewRoot: root, runId, as: 'd2', decisionPoint: 2, choice: 'a' }),
      /Round 1 of run .* has no fork at decision point 2\./,
    );
    await assert.rejects(
      castVote({ reviewRoot: root, runId, as: 'd2', decisionPoint: 1, close: true }),
      /Only the lead \(d1\) closes a vote\./,
    );
    await castVote({ reviewRoot: root, runId, as: 'd3', decisionPoint: 1, choice: 'b' });
    const closed = await castVote({ reviewRoot: root, runId, as: 'd1', decisionPoint: 1, choice: 'b', close: true });
    assert.equal(closed.decision?.by, 'd1');
    assert.equal(closed.decision?.decision, 'cool palette');
    assert.deepEqual(closed.decision?.voters, ['d1', 'd3']);
  });

  it("vote files are checked at their lines: another fork's letter, two votes for one question, a point without a fork, someone not on the team", async () => {
    const { root, runId } = await forked();
    const dir = path.join(root, 'runs', runId, 'votes');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(
      path.join(dir, 'd2.yaml'),
      'designer: d2\nvotes:\n  - iteration: 1\n    decisionPoint: 1\n    choice: r2\n  - iteration: 1\n    decisionPoint: 3\n    choice: r1a\n',
    );
    await fs.writeFile(
      path.join(dir, 'd3.yaml'),
      'designer: d3\nvotes:\n  - {iteration: 1, decisionPoint: 1, choice: r1b}\n  - {iteration: 1, decisionPoint: 1, choice: r1a}\n',
    );
    await fs.writeFile(path.join(dir, 'zoe.yaml'), 'designer: zoe\nvotes: []\n');
    const record = await readRunRecord(root, runId);
    const { members, diagnostics } = await loadVotes(root, record, ['d1', 'd2', 'd3']);
    const lines = diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`);
    const rel = `runs/${runId}/votes`;
    assert.ok(lines.includes(`${rel}/d2.yaml:5:13: choice must be one of this fork's remixes (r1a, r1b), found "r2".`), lines.join('\n'));
    assert.ok(
      lines.includes(`${rel}/d2.yaml:7:20: Round 1 has no fork at decision point 3, so there is nothing to vote on there.`),
      lines.join('\n'),
    );
    assert.ok(
      lines.includes(`${rel}/d3.yaml:4:35: A second vote on decision point 1 of round 1; keep one vote per question.`),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => l.startsWith(`${rel}/zoe.yaml:1:1: This file is named after "zoe", who is not on the team`)),
      lines.join('\n'),
    );
    // The valid rest counts: d3's first vote.
    assert.deepEqual(
      tallyAll(record, members, ['d1', 'd2', 'd3']).map((t) => [t.counts, t.voters]),
      [[{ 'warm palette': 0, 'cool palette': 1 }, ['d3']]],
    );
  });
});
