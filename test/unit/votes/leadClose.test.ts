/**
 * A lead's close is not the team's vote (issue 39, item 7): when the lead closes a vote only they have cast, every place
 * that shows the decision says the lead closed it and with how many of the team's votes — result.md, compare's sentences
 * and --json, run_summary, the panel's fork and decision lines, and later prompts — never "the team's vote".
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { castVote } from '../../../src/core/evaluation/votes/cast';
import { compareRun } from '../../../src/core/evaluation/compare/compare';
import { comparisonSentences } from '../../../src/core/evaluation/format';
import { readRunRecord } from '../../../src/core/record/store';
import { closeWords, decisionSentence } from '../../../src/core/discussion/decisionWords';
import { runSummary } from '../../../src/core/questions/runSummary';
import { decidedText } from '../../../webview/panel/views/run/forks';
import { decisionLine } from '../../../webview/panel/views/run/decisions';
import { mockSuite } from '../run/helpers';
import { QUESTION, forkedRun } from './forkedRun';

describe("a lead's close with one vote is said as the lead's close, never as the team's vote", function () {
  this.timeout(120_000);
  const suite = mockSuite();

  it('result.md, compare, run_summary, the panel and later prompts say "the lead closed it with 1 of 3 votes"', async () => {
    const { root, runId } = await forkedRun(suite.mock, suite.cacheDir);
    await castVote({ reviewRoot: root, runId, as: 'd1', decisionPoint: 1, choice: 'a' });
    const closed = await castVote({ reviewRoot: root, runId, as: 'd1', decisionPoint: 1, close: true });
    assert.equal(closed.decision?.by, 'd1');
    assert.deepEqual(closed.decision?.counts, { 'warm palette': 1, 'cool palette': 0 });
    const d = (await readRunRecord(root, runId)).iterations[0]!.decisions![0]!;

    const result = await fs.readFile(path.join(root, 'runs', runId, 'result.md'), 'utf8');
    assert.doesNotMatch(result, /the team's vote/);
    assert.doesNotMatch(result, /Decided by the team/);
    assert.match(result, /- Warm or cool palette\? → \*\*warm palette\*\* \(the lead, [^,]+, closed it with 1 of 3 votes\)/);

    const c = await compareRun(root, runId, { permutations: 20 });
    assert.equal(c.votes[0]!.closed, 'the lead closed it with 1 of 3 votes');
    // The vote lines follow the agreement after the run (no re-rank set here: the sentences are asked as if it were there).
    const words = comparisonSentences({ ...c, after: c.before });
    assert.ok(
      words.some((l) => l.includes('— decided: warm palette (the lead closed it with 1 of 3 votes).')),
      words.join('\n'),
    );

    const summary = await runSummary(root, runId);
    assert.equal(summary.decisions[0]!.how, 'the lead closed it with 1 of 3 votes');

    const nameOf = (id: string): string => (id === 'd1' ? 'Ana Ruiz' : id);
    assert.equal(
      decidedText({ decision: d.decision, by: d.by, via: d.via, counts: d.counts! }, nameOf, 3),
      'Decided: warm palette (the lead, Ana Ruiz, closed it with 1 of 3 votes).',
    );
    assert.equal(
      decisionLine(d, nameOf, 3),
      `Decided by the lead closing the vote with 1 of 3 votes: ${QUESTION} → warm palette, 1 to 0. (Ana Ruiz)`,
    );
    assert.equal(decisionSentence(d), `Decided by the lead closing the vote with 1 vote: ${QUESTION} → warm palette, 1 to 0.`);
  });

  it("the team's vote (every member voted) is still the team's; a close with more votes counts them", () => {
    const team = {
      question: QUESTION,
      decision: 'warm palette',
      by: 'team',
      via: 'human' as const,
      voters: ['d1', 'd2', 'd3'],
      counts: { 'warm palette': 2, 'cool palette': 1 },
    };
    assert.equal(decisionSentence(team), `Decided by the team: ${QUESTION} → warm palette, 2 to 1.`);
    assert.equal(closeWords({ voters: ['d1', 'd3'], counts: { a: 2, b: 0 } }, 4), 'the lead closed it with 2 of 4 votes');
    assert.equal(closeWords({ counts: { a: 1, b: 0 } }), 'the lead closed it with 1 vote');
  });
});
