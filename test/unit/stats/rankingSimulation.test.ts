// The seeded ranking simulation the convergence tests and the bench share (test/support/rankingSimulation.ts).
import * as assert from 'node:assert/strict';
import { SeededRandom } from '../../../src/core/stats/prng';
import { convergedShare, gauss, identicalAfter, randomRanking, randomRankings, ranksOf } from '../../support/rankingSimulation';

describe('stats: the seeded ranking simulation shared by the convergence tests and the bench', () => {
  it('randomRanking is a permutation of 1..n, the same for the same seed', () => {
    const a = randomRanking(new SeededRandom(3), 9);
    assert.deepEqual(
      [...a].sort((x, y) => x - y),
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.deepEqual(randomRanking(new SeededRandom(3), 9), a);
    const rows = randomRankings(new SeededRandom(3), 4, 9);
    assert.equal(rows.length, 4);
    assert.deepEqual(rows[0], a, 'the rows are drawn one after another from the same stream');
  });

  it('ranksOf gives rank 1 to the highest utility; gauss draws look standard normal', () => {
    assert.deepEqual(ranksOf([0.2, 3, -1, 1]), [3, 1, 4, 2]);
    const rng = new SeededRandom(9);
    const xs = Array.from({ length: 4000 }, () => gauss(rng));
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length);
    assert.ok(Math.abs(mean) < 0.1 && Math.abs(sd - 1) < 0.1, `mean ${mean}, sd ${sd}`);
  });

  it('identicalAfter: random before-rankings, one same ranking after; convergedShare counts the "converged" verdicts', () => {
    const rng = new SeededRandom(1);
    const [before, after] = identicalAfter(rng, 4, 5);
    assert.equal(before.length, 4);
    assert.ok(after.every((r) => JSON.stringify(r) === JSON.stringify(after[0])));
    assert.notEqual(after[0], after[1], 'each designer has a copy');
    const one = [
      [1, 2, 3, 4, 5],
      [1, 2, 3, 4, 5],
      [1, 2, 3, 4, 5],
      [1, 2, 3, 4, 5],
    ];
    const split = [
      [1, 2, 3, 4, 5],
      [5, 4, 3, 2, 1],
      [1, 2, 3, 4, 5],
      [5, 4, 3, 2, 1],
    ];
    assert.equal(
      convergedShare(3, () => [split, one]),
      1,
    );
    assert.equal(
      convergedShare(3, () => [one, split]),
      0,
    );
  });
});
