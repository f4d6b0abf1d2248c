/**
 * The panel's forks (issue 33): the state of a run's forks is counted by the CLI's own core (forks, votes files, tally);
 * the webview's vote is blind — who holds which side, who voted and the tally stay hidden from a member until they have
 * voted (or it is decided); the toggle flips through the sides at full size and back; a vote from the panel goes through
 * the same castVote as the CLI into the member's own votes file. A real run against the spec-checking mock.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readRunRecord } from '../../../src/core/record/store';
import { castVote } from '../../../src/core/evaluation/votes/cast';
import { PanelForksSchema, PanelStateSchema, parseWebviewMessage, type PeopleReply } from '../../../src/protocol/panel';
import { panelForks } from '../../../src/extension/panel/state/votesState';
import { voteHandlers } from '../../../src/extension/panel/handlers/votes';
import type { PanelActions } from '../../../src/extension/panel/handlers/context';
import { flipped, forkSight } from '../../../webview/panel/views/run/forks';
import { mockSuite } from '../run/helpers';
import { QUESTION, forkedRun } from '../votes/forkedRun';

const TEAM = ['d1', 'd2', 'd3'];

describe('panel: a fork side by side and its blind vote', function () {
  this.timeout(120_000);
  const suite = mockSuite();

  it('the state carries each side with its holders, the valid votes and the tally; a run without forks has none', async () => {
    const { root, runId } = await forkedRun(suite.mock, suite.cacheDir);
    await castVote({ reviewRoot: root, runId, as: 'd3', decisionPoint: 1, choice: 'b' });
    // A votes file in someone else's name does not count, and is said.
    await fs.writeFile(path.join(root, 'runs', runId, 'votes', 'zoe.yaml'), 'designer: zoe\nvotes: []\n');
    const record = await readRunRecord(root, runId);
    const forks = PanelForksSchema.parse(await panelForks(root, record, {}, TEAM));
    assert.equal(forks.runId, runId);
    assert.deepEqual(forks.forks, [
      {
        iteration: 1,
        decisionPoint: 1,
        question: QUESTION,
        sides: [
          { id: 'r1a', letter: 'a', position: 'warm palette', holders: ['d1', 'd2'] },
          { id: 'r1b', letter: 'b', position: 'cool palette', holders: ['d3'] },
        ],
        votes: { d3: 'r1b' },
        counts: { 'warm palette': 0, 'cool palette': 1 },
        missing: ['d1', 'd2'],
      },
    ]);
    assert.match(forks.problems.join('\n'), /zoe\.yaml:1:1: error: This file is named after "zoe", who is not on the team/);
    assert.ok(PanelStateSchema.shape.forks.safeParse(forks).success, 'the panel state takes it');
    delete record.iterations[0]!.remixes![0]!.fork;
    assert.equal(await panelForks(root, record, {}, TEAM), undefined, 'one side is no fork');
  });

  it('blind: a member who has not voted sees no holders, voters or tally; once they vote (or it is decided) they do', async () => {
    const { root, runId } = await forkedRun(suite.mock, suite.cacheDir);
    await castVote({ reviewRoot: root, runId, as: 'd3', decisionPoint: 1, choice: 'b' });
    const fork = (await panelForks(root, await readRunRecord(root, runId), {}, TEAM))!.forks[0]!;
    assert.deepEqual(
      forkSight(fork, 'd1'),
      { revealed: false, holders: [[], []], voters: [[], []] },
      'd1 has not voted: nothing of who holds or chose what',
    );
    assert.deepEqual(forkSight(fork, 'd3'), {
      mine: 'r1b',
      revealed: true,
      holders: [['d1', 'd2'], ['d3']],
      voters: [[], ['d3']],
      tally: 'warm palette 0 · cool palette 1',
    });
    await castVote({ reviewRoot: root, runId, as: 'd1', decisionPoint: 1, choice: 'a' });
    await castVote({ reviewRoot: root, runId, as: 'd2', decisionPoint: 1, choice: 'a' });
    const decided = (await panelForks(root, await readRunRecord(root, runId), {}, TEAM))!.forks[0]!;
    assert.deepEqual(decided.decision, {
      decision: 'warm palette',
      by: 'team',
      via: 'human',
      counts: { 'warm palette': 2, 'cool palette': 1 },
      recorded: true,
    });
    assert.equal(forkSight(decided, 'nobody').revealed, true, 'decided: the outcome is no secret');
    assert.equal(forkSight(decided, 'nobody').tally, 'warm palette 2 · cool palette 1');
  });

  it('the toggle: side by side → each side at full size in turn → side by side', () => {
    const seen: (number | undefined)[] = [undefined];
    for (let i = 0; i < 4; i++) seen.push(flipped(seen.at(-1), 3));
    assert.deepEqual(seen, [undefined, 0, 1, 2, undefined]);
  });

  it("a vote from the panel is the member's own votes file, written by castVote; a side of no fork is refused in words", async () => {
    const { root, runId } = await forkedRun(suite.mock, suite.cacheDir);
    const replies: PeopleReply[] = [];
    let reloads = 0;
    const panel = {
      services: { sync: { enabled: () => false }, log: { info: () => undefined } },
      root: { fsPath: root },
      reload: () => void reloads++,
    } as unknown as PanelActions;
    const message = parseWebviewMessage({ type: 'vote', requestId: 7, runId, as: 'd2', iteration: 1, decisionPoint: 1, choice: 'r1b' });
    assert.ok(message.ok && message.value.type === 'vote', "the host parses the webview's vote");
    await voteHandlers.vote(message.value, panel, (r) => replies.push(r));
    assert.deepEqual(replies[0], { type: 'peopleResult', requestId: 7, ok: true, message: 'Your vote is saved; the tally is in Forks.' });
    assert.equal(
      await fs.readFile(path.join(root, 'runs', runId, 'votes', 'd2.yaml'), 'utf8'),
      'designer: d2\nvotes:\n  - iteration: 1\n    decisionPoint: 1\n    choice: r1b\n',
    );
    assert.equal(reloads, 1);
    await voteHandlers.vote({ type: 'vote', requestId: 8, runId, as: 'd2', iteration: 1, decisionPoint: 1, choice: 'r2' }, panel, (r) =>
      replies.push(r),
    );
    assert.deepEqual(replies[1], {
      type: 'peopleResult',
      requestId: 8,
      ok: false,
      message: '"r2" is not a side of this fork; choose r1a (a) = warm palette, r1b (b) = cool palette.',
    });
  });
});
