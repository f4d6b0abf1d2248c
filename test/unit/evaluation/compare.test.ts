import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { compareRun, makeRerankSet } from '../../../src/core/evaluation';
import { makeReviewWithRun, readKeyFile, RUN_ID, snapshot, writeRerankBySource } from './fixtures';

/** Spearman's rho without ties: 1 − 6 Σd² / (n (n² − 1)). */
function rho(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  return 1 - (6 * a.reduce((s, x, i) => s + (x - b[i]!) ** 2, 0)) / (n * (n * n - 1));
}
function meanRho(rows: number[][]): number {
  const out: number[] = [];
  for (let i = 0; i < rows.length; i++) for (let j = i + 1; j < rows.length; j++) out.push(rho(rows[i]!, rows[j]!));
  return out.reduce((s, x) => s + x, 0) / out.length;
}
/** The fixture's designer d (1-based) ranks option k at ((k − 1 − (d − 1)) mod 6) + 1. */
const fixtureRow = (d: number): number[] => [1, 2, 3, 4, 5, 6].map((k) => ((k - d + 6) % 6) + 1);

describe('evaluation: compareRun (independent computations of every definition)', function () {
  this.timeout(30_000);
  let root = '';
  before(async () => {
    root = await makeReviewWithRun();
  });
  after(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('before any re-rank set: W before, and what is missing', async () => {
    const c = await compareRun(root, RUN_ID);
    // Rank sums 16, 14, 12, 10, 14, 18: S = 40, W = 12·40 / (4²·(6³ − 6)) = 1/7.
    assert.ok(Math.abs(c.before.w - 1 / 7) < 1e-12);
    assert.ok(Math.abs(c.before.meanSpearman! - meanRho([1, 2, 3, 4].map(fixtureRow))) < 1e-12);
    assert.deepEqual(c.before.designers, ['d1', 'd2', 'd3', 'd4']);
    assert.equal(c.before.options, 6);
    assert.equal(c.after, null);
    assert.equal(c.paired, null);
    assert.match(c.missing!, /no re-rank set yet/);
    assert.equal(c.remixes, 2);
    assert.deepEqual(c.ratings.n, 0);
    assert.equal(c.ratings.mean, null);
    assert.deepEqual(c.survey, {
      n: 0,
      representative: null,
      clarity: null,
      satisfied: null,
      answered: { representative: 0, clarity: 0, satisfied: 0 },
    });
  });

  it('after three blind re-rankings: after, paired change, acceptance agree with hand computations; nothing written', async () => {
    await makeRerankSet(root, RUN_ID);
    const one = await compareRun(root, RUN_ID);
    assert.match(one.missing!, /0 of the 2 re-rankings/);
    const orders: Record<string, string[]> = {
      d1: ['r2', '4', '3', 'r1', '2'],
      d2: ['r2', '3', '4', '2', 'r1'],
      d3: ['4', 'r2', 'r1', '3', '2'],
    };
    for (const [d, order] of Object.entries(orders)) await writeRerankBySource(root, d, order);
    const was = await snapshot(root);
    const c = await compareRun(root, RUN_ID);
    assert.deepEqual(await snapshot(root), was, 'compare never writes');
    assert.deepEqual(c.problems, []);
    assert.equal(c.rerankings, 3);
    const key = await readKeyFile(root);
    const letters = Object.keys(key).sort();
    const afterRows = Object.values(orders).map((order) => letters.map((l) => order.indexOf(key[l]!.id) + 1));
    assert.ok(Math.abs(c.after!.meanSpearman! - meanRho(afterRows)) < 1e-12);
    assert.ok(Math.abs(c.after!.w - ((3 - 1) * meanRho(afterRows) + 1) / 3) < 1e-12, 'W = ((m − 1) ρ̄ + 1) / m');
    assert.deepEqual(c.paired!.designers, ['d1', 'd2', 'd3']);
    const change = meanRho(afterRows) - meanRho([1, 2, 3].map(fixtureRow));
    assert.ok(Math.abs(c.paired!.change - change) < 1e-12);
    assert.ok(c.paired!.interval[0] <= change && change <= c.paired!.interval[1]);
    assert.equal((await compareRun(root, RUN_ID)).paired!.interval.join(), c.paired!.interval.join(), 'same input, same interval');
    // Borda points: r2 = 4+4+3 = 11, 4 = 3+2+4 = 9, 3 = 2+3+1 = 6, r1 = 1+0+2 = 3, 2 = 0+1+0 = 1.
    const byId = (l: string): string => key[l]!.id;
    assert.deepEqual(c.acceptance!.ranking.map(byId), ['r2', '4', '3', 'r1', '2']);
    assert.deepEqual(c.acceptance!.generated.map(byId), ['r2', 'r1']);
    assert.equal(c.acceptance!.top1, true);
    assert.equal(c.acceptance!.top2, true);
    assert.deepEqual(c.acceptance!.bestGenerated, { letter: c.acceptance!.ranking[0], id: 'r2', position: 1 });
    assert.equal(c.timing.rerankedFrom, 'file times');
    assert.ok(c.timing.hoursToRerank !== null && c.timing.hoursToCommit === null);
    assert.match(c.timing.note!, /not been committed/);
  });

  it('a re-ranking that misses a letter is an error at its line; the valid ones still count', async () => {
    const dir = path.join(root, 'runs', RUN_ID, 'rerank');
    await fs.writeFile(
      path.join(dir, 'rankings', 'd4.yaml'),
      'designer: D4\nranking:\n  - option: "A"\n    rank: 1\n    justification: yes\n  - option: "Q"\n    rank: 2\n    justification: no\n',
    );
    const c = await compareRun(root, RUN_ID);
    assert.ok(
      c.problems.some((p) => new RegExp(`^runs/${RUN_ID}/rerank/rankings/d4\\.yaml:6:\\d+: error: .*"Q"`).test(p)),
      c.problems.join('\n'),
    );
    assert.ok(
      c.problems.some((p) => /d4\.yaml:\d+:\d+: error: .*(missing|not ranked|has no entry)/i.test(p)),
      c.problems.join('\n'),
    );
    assert.equal(c.rerankings, 3);
    await fs.rm(path.join(dir, 'rankings', 'd4.yaml'));
  });
});
