import * as assert from 'node:assert/strict';
import { kendallTauB, lowestMeanTau, SeededRandom, tauBMatrix } from '../../../src/core/stats';
import { SCIPY_KENDALLTAU } from './referenceData';

describe("stats: Kendall's tau-b", () => {
  it('scipy.stats.kendalltau documentation example with ties: -0.47140452079103173', () => {
    const t = kendallTauB(SCIPY_KENDALLTAU.x, SCIPY_KENDALLTAU.y);
    assert.ok(Math.abs(t - SCIPY_KENDALLTAU.tau) < 1e-15, `got ${t}`);
    assert.equal(kendallTauB(SCIPY_KENDALLTAU.y, SCIPY_KENDALLTAU.x), t, 'symmetric');
  });

  it('identical rankings give 1, reversed give -1, ranks as written = average ranks', () => {
    assert.equal(kendallTauB([1, 2, 3, 4], [1, 2, 3, 4]), 1);
    assert.equal(kendallTauB([1, 2, 3, 4], [4, 3, 2, 1]), -1);
    assert.equal(kendallTauB([1, 2, 2, 4], [1, 2, 2, 4]), 1, 'ties on both sides still perfect');
    assert.equal(kendallTauB([1, 2, 2, 4], [3, 1, 2, 4]), kendallTauB([1, 2.5, 2.5, 4], [3, 1, 2, 4]));
  });

  it('hand-computed value with a tie: x = 1,2,2,4, y = 1,3,2,4 → 5 / √(5·6)', () => {
    // pairs: (1,2) C, (1,3) C, (1,4) C, (2,3) tied in x, (2,4) C, (3,4) C → C = 5, D = 0, X = 1, Y = 0
    assert.ok(Math.abs(kendallTauB([1, 2, 2, 4], [1, 3, 2, 4]) - 5 / Math.sqrt(30)) < 1e-15);
  });

  it('a rater who ties everything makes tau-b undefined: reported as 0', () => {
    assert.equal(kendallTauB([1, 1, 1, 1], [1, 2, 3, 4]), 0);
    assert.equal(kendallTauB([1, 1, 1], [2, 2, 2]), 0);
  });

  it('matrix is symmetric with 1 on the diagonal', () => {
    const ranks = [
      [1, 2, 3, 4, 5],
      [2, 1, 3, 5, 4],
      [5, 4, 3, 2, 1],
    ];
    const m = tauBMatrix(ranks);
    for (let a = 0; a < 3; a++) {
      assert.equal(m[a]![a], 1);
      for (let b = 0; b < 3; b++) assert.equal(m[a]![b], m[b]![a]);
    }
    assert.equal(m[0]![2], -1);
    assert.ok(Math.abs(m[0]![1]! - 0.6) < 1e-15); // 8 concordant, 2 discordant of 10
  });

  it('every matrix entry is exactly kendallTauB of its two rows (200 seeded profiles, many with ties, one rater tying all)', () => {
    const rng = new SeededRandom(5);
    let compared = 0;
    for (let trial = 0; trial < 200; trial++) {
      const m = 2 + rng.nextBelow(8);
      const n = 2 + rng.nextBelow(12);
      // Odd trials draw from n values (few ties), even ones from 3 (many ties).
      const spread = trial % 2 ? n : 3;
      const ranks = Array.from({ length: m }, () => Array.from({ length: n }, () => 1 + rng.nextBelow(spread)));
      if (trial === 10) ranks[0] = new Array<number>(n).fill(2);
      const matrix = tauBMatrix(ranks);
      for (let a = 0; a < m; a++) {
        for (let b = 0; b < m; b++) {
          assert.equal(matrix[a]![b], a === b ? 1 : kendallTauB(ranks[a]!, ranks[b]!), `trial ${trial}, raters ${a} and ${b}`);
          compared++;
        }
      }
    }
    assert.ok(compared > 2000);
  });

  it('outlier: lowest mean tau-b; null with fewer than three raters or when nobody stands out', () => {
    const ranks = [
      [1, 2, 3, 4, 5],
      [1, 2, 3, 5, 4],
      [2, 1, 3, 4, 5],
      [5, 4, 3, 2, 1],
    ];
    const low = lowestMeanTau(tauBMatrix(ranks));
    assert.equal(low?.index, 3);
    assert.ok(low!.meanTau < -0.5);
    assert.equal(lowestMeanTau(tauBMatrix(ranks.slice(0, 2))), null);
    const same = [
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ];
    assert.equal(lowestMeanTau(tauBMatrix(same)), null);
  });
});
