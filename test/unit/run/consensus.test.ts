/**
 * `consensus: borda | schulze` in a run (issue 33): the run records the team's own Borda and Schulze orders, its result says
 * where they differ, and under `schulze` the remix agent is given the Schulze order as its tie-break.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { RecordedRequest } from '../../support/openaiMock';
import { startRun, type RunnerOptions } from '../../../src/core/run/session';
import { teamOrder } from '../../../src/core/remix/teamOrder';
import { parseReviewConfig } from '../../../src/core/review/reviewConfig';
import { makeReview } from './fixtures';
import { chatRequests, mockSuite } from './helpers';

type ApiMessage = { role: string; content: string | { type: string; text?: string }[] };
const remixInstructions = (r: RecordedRequest): string => {
  const last = (r.body as { messages: ApiMessage[] }).messages.at(-1)!;
  return typeof last.content === 'string' ? last.content : last.content.map((p) => p.text ?? '').join('\n');
};

/** Five options; three designers rank 1 > 2 > 3 > 4 > 5 and two rank 2 > 3 > 4 > 5 > 1: Borda puts 2 first, a majority prefers 1. */
async function splitTeam(reviewYaml: string): Promise<string> {
  const root = await makeReview({ options: 5, designers: 0 });
  const orders = [
    [1, 2, 3, 4, 5],
    [1, 2, 3, 4, 5],
    [1, 2, 3, 4, 5],
    [2, 3, 4, 5, 1],
    [2, 3, 4, 5, 1],
  ];
  for (const [d, order] of orders.entries()) {
    const lines = [`designer: Member ${d + 1}`, 'ranking:'];
    order.forEach((opt, i) => lines.push(`  - option: "${opt}"`, `    rank: ${i + 1}`, `    justification: Place ${i + 1}.`));
    await fs.writeFile(path.join(root, 'rankings', `m${d + 1}.yaml`), `${lines.join('\n')}\n`);
  }
  await fs.writeFile(path.join(root, 'review.yaml'), reviewYaml);
  return root;
}

describe('run: the team consensus, Borda beside Schulze (against the spec-checking mock)', function () {
  this.timeout(90_000);
  const suite = mockSuite();
  const opts = (root: string): RunnerOptions => ({ reviewRoot: root, ...suite.engine, settings: { iterations: 1, turnsPerAgent: 1 } });

  it('consensus: schulze — run.json keeps both orders, result.md says where they differ, the remix agent breaks ties by Schulze', async () => {
    const root = await splitTeam('consensus: schulze\n');
    const r = await startRun(opts(root));
    assert.equal(r.status, 'completed', r.error);
    assert.equal(r.settings.consensus, 'schulze');
    assert.deepEqual(r.consensus, {
      method: 'schulze',
      borda: ['2', '1', '3', '4', '5'],
      schulze: [['1'], ['2'], ['3'], ['4'], ['5']],
      differsFromBorda: true,
      sentence: 'Borda puts 2 first; a majority prefers 1 to every other option.',
    });
    const remix = chatRequests(suite.mock).find((c) => (c.body as { response_format?: unknown }).response_format)!;
    assert.match(
      remixInstructions(remix),
      /break the tie by the Schulze order \(pairwise majorities, weights counted\) of the team's own rankings: Image 1, Image 2, Image 3, Image 4, Image 5\./,
    );
    const result = await fs.readFile(path.join(root, 'runs', r.id, 'result.md'), 'utf8');
    assert.match(
      result,
      /^- Team consensus before the run \(their own rankings, weights counted\): Borda Image 2, Image 1, Image 3, Image 4, Image 5; Schulze Image 1, Image 2, Image 3, Image 4, Image 5\. The remix agent breaks ties by the Schulze order \(consensus: schulze\)\.$/m,
    );
    assert.match(result, /^- Borda puts 2 first; a majority prefers 1 to every other option\.$/m);
  });

  it('the default (borda) under a flat team: both orders are recorded, the remix agent is given no team order', async () => {
    const root = await splitTeam('title: Split\n');
    const r = await startRun(opts(root));
    assert.equal(r.status, 'completed', r.error);
    assert.equal(r.consensus?.method, 'borda');
    assert.deepEqual(r.consensus?.schulze, [['1'], ['2'], ['3'], ['4'], ['5']]);
    const remix = chatRequests(suite.mock).find((c) => (c.body as { response_format?: unknown }).response_format)!;
    assert.doesNotMatch(remixInstructions(remix), /break the tie/);
  });

  it('review.yaml consensus: borda or schulze; anything else is refused at its value', () => {
    assert.equal(parseReviewConfig('consensus: schulze\n').config.consensus, 'schulze');
    const bad = parseReviewConfig('title: T\nconsensus: condorcet\n');
    assert.equal(bad.config.consensus, undefined);
    assert.deepEqual(
      bad.diagnostics.map((d) => [d.line, d.column, d.severity, d.message]),
      [[2, 12, 'error', 'consensus must be borda or schulze (found "condorcet").']],
    );
  });

  it('teamOrder: ranked candidates in the chosen order, weights counted, remixes after them', () => {
    const team = [
      {
        weight: 3,
        entries: [
          { option: 'a', rank: 1 },
          { option: 'b', rank: 2 },
          { option: 'c', rank: 3 },
        ],
      },
      {
        weight: 1,
        entries: [
          { option: 'a', rank: 3 },
          { option: 'b', rank: 1 },
          { option: 'c', rank: 2 },
        ],
      },
      {
        weight: 1,
        entries: [
          { option: 'a', rank: 3 },
          { option: 'b', rank: 1 },
          { option: 'c', rank: 2 },
        ],
      },
    ];
    // Weighted Borda: a 6, b 7, c 2; a weighted majority (3 to 2) prefers a to b and to c.
    assert.deepEqual(teamOrder(team, ['a', 'b', 'c', 'r1'], 'borda'), ['b', 'a', 'c', 'r1']);
    assert.deepEqual(teamOrder(team, ['a', 'b', 'c', 'r1'], 'schulze'), ['a', 'b', 'c', 'r1']);
  });
});
