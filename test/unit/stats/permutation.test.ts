import * as assert from 'node:assert/strict';
import { DEFAULT_SEED, kendallW, permutationPValue, SeededRandom } from '../../../src/core/stats';
import { ANXIETY, SIEGEL_CASTELLAN } from './referenceData';

/** Exact permutation p of W by enumerating every arrangement of raters 2..m (rater 1 fixed). */
function exactPermutationP(ranks: number[][]): number {
  const n = ranks[0]!.length;
  const perms: number[][] = [];
  const build = (prefix: number[], rest: number[]): void => {
    if (!rest.length) perms.push(prefix);
    rest.forEach((v, i) => build([...prefix, v], [...rest.slice(0, i), ...rest.slice(i + 1)]));
  };
  build([], [...Array(n).keys()]);
  const observed = kendallW(ranks).s;
  let hits = 0;
  let total = 0;
  const rec = (j: number, rows: number[][]): void => {
    if (j === ranks.length) {
      total++;
      if (kendallW(rows).s >= observed - 1e-9) hits++;
      return;
    }
    for (const p of perms) rec(j + 1, [...rows, p.map((i) => ranks[j]![i]!)]);
  };
  rec(1, [ranks[0]!]);
  return hits / total;
}

/**
 * The permutation test written plainly, from its description: rater 1 fixed, the other raters' Fisher–Yates steps
 * interleaved by position (i = n−1 down to 1), one SeededRandom draw r per two raters at bound b = i + 1 — the first
 * index floor(r·b / 2^32), the second floor(((r·b) mod 2^32)·b / 2^32) — and one draw for an odd rater left over.
 */
function plainCount(ranks: number[][], permutations: number, seed: number): number {
  const rows = ranks.map((r) => r.map((v) => v * 2));
  const m = rows.length;
  const n = rows[0]!.length;
  const sumOfSquares = (): number => {
    let sq = 0;
    for (let i = 0; i < n; i++) {
      const c = rows.reduce((s, r) => s + r[i]!, 0);
      sq += c * c;
    }
    return sq;
  };
  const observed = sumOfSquares();
  const rng = new SeededRandom(seed);
  const swap = (row: number[], i: number, k: number): void => {
    [row[i], row[k]] = [row[k]!, row[i]!];
  };
  let count = 0;
  for (let p = 0; p < permutations; p++) {
    for (let i = n - 1; i > 0; i--) {
      const b = i + 1;
      let j = 1;
      for (; j + 1 < m; j += 2) {
        const x = rng.nextUint32() * b;
        const hi = Math.floor(x / 2 ** 32);
        swap(rows[j]!, i, hi);
        swap(rows[j + 1]!, i, Math.floor(((x - hi * 2 ** 32) * b) / 2 ** 32));
      }
      if (j < m) swap(rows[j]!, i, Math.floor((rng.nextUint32() * b) / 2 ** 32));
    }
    if (sumOfSquares() >= observed) count++;
  }
  return count;
}

describe('stats: permutation p-value', () => {
  it('is reproducible: same input and seed give the same p; the default seed is fixed', () => {
    const a = permutationPValue(ANXIETY.ratings, { permutations: 2000, seed: 42 });
    const b = permutationPValue(ANXIETY.ratings, { permutations: 2000, seed: 42 });
    assert.deepEqual(a, b);
    const d1 = permutationPValue(ANXIETY.ratings, { permutations: 2000 });
    const d2 = permutationPValue(ANXIETY.ratings, { permutations: 2000, seed: DEFAULT_SEED });
    assert.deepEqual(d1, d2);
    assert.equal(d1.seed, 20261121);
  });

  it('draws exactly as its plain description: the same count as a plain implementation (odd and even numbers of raters)', () => {
    const rng = new SeededRandom(17);
    for (const [m, n, seed] of [
      [5, 9, 3],
      [6, 12, 20261121],
      [2, 40, 8],
    ] as const) {
      const ranks = Array.from({ length: m }, () => {
        const row = Array.from({ length: n }, (_, i) => i + 1);
        for (let i = n - 1; i > 0; i--) {
          const k = rng.nextBelow(i + 1);
          [row[i], row[k]] = [row[k]!, row[i]!];
        }
        return row;
      });
      const count = plainCount(ranks, 300, seed);
      assert.equal(permutationPValue(ranks, { permutations: 300, seed }).atLeastAsExtreme, count, `${m} × ${n}`);
      assert.ok(count > 0 && count < 300, `${m} × ${n}: ${count} of 300 (a count that tells the draws apart)`);
    }
  });

  it('a different seed gives a different Monte Carlo sample', () => {
    const a = permutationPValue(ANXIETY.ratings, { permutations: 5000, seed: 1 });
    const b = permutationPValue(ANXIETY.ratings, { permutations: 5000, seed: 2 });
    assert.notEqual(a.atLeastAsExtreme, b.atLeastAsExtreme);
  });

  it('perfect agreement on 8 items: p = 1 / (N + 1)', () => {
    const row = [1, 2, 3, 4, 5, 6, 7, 8];
    const r = permutationPValue([row, row, row, row], { permutations: 10_000 });
    assert.equal(r.pValue, 1 / 10_001);
    assert.equal(r.atLeastAsExtreme, 0);
  });

  it('no information (everything tied, or opposed pair) gives p = 1', () => {
    assert.equal(
      permutationPValue(
        [
          [1, 1, 1],
          [1, 1, 1],
        ],
        { permutations: 500 },
      ).pValue,
      1,
    );
    assert.equal(
      permutationPValue(
        [
          [1, 2, 3, 4],
          [4, 3, 2, 1],
        ],
        { permutations: 500 },
      ).pValue,
      1,
    );
  });

  it('random rankings do not look significant; the p-values of many random datasets are spread out', () => {
    const rng = new SeededRandom(99);
    const ps: number[] = [];
    for (let d = 0; d < 40; d++) {
      const ranks: number[][] = [];
      for (let j = 0; j < 4; j++) {
        const row = [1, 2, 3, 4, 5, 6];
        for (let i = 5; i > 0; i--) {
          const k = rng.nextBelow(i + 1);
          [row[i], row[k]] = [row[k]!, row[i]!];
        }
        ranks.push(row);
      }
      ps.push(permutationPValue(ranks, { permutations: 400, seed: d }).pValue);
    }
    const small = ps.filter((p) => p < 0.05).length;
    assert.ok(small <= 8, `${small} of 40 null datasets had p < 0.05`);
    assert.ok(
      ps.some((p) => p > 0.5),
      'some large p-values',
    );
    assert.ok(Math.min(...ps) > 1 / 401, 'never as small as perfect agreement');
  });

  it('agrees with the exact permutation distribution (3 raters × 4 items with a tie, all 576 arrangements)', () => {
    const ranks = [
      [1, 2, 3, 4],
      [1, 3, 2, 4],
      [2, 1, 3, 3],
    ];
    const exact = exactPermutationP(ranks);
    const mc = permutationPValue(ranks, { permutations: 40_000, seed: 7 }).pValue;
    // Monte Carlo standard error at N = 40,000 is at most 0.0025
    assert.ok(Math.abs(mc - exact) < 0.01, `Monte Carlo ${mc} vs exact ${exact}`);
  });

  it('shuffles are uniform: for 2 identical raters, P(S_perm ≥ S_obs) is exactly 1/n! (n = 3, 4, 5)', () => {
    for (const [n, fact] of [
      [3, 6],
      [4, 24],
      [5, 120],
    ] as const) {
      const row = Array.from({ length: n }, (_, i) => i + 1);
      const N = 60_000;
      const r = permutationPValue([row, row], { permutations: N, seed: n });
      const expected = 1 / fact;
      const se = Math.sqrt((expected * (1 - expected)) / N);
      const observed = r.atLeastAsExtreme / N;
      assert.ok(Math.abs(observed - expected) < 4 * se, `n = ${n}: ${observed} vs ${expected} (4 SE = ${4 * se})`);
    }
  });

  it('each permutation is uniform on its own, not just in the long run: first shuffle over many seeds', () => {
    // With N = 1 every call shuffles the original arrangement once; for 2 identical raters only the identity
    // arrangement reaches S_obs, so over many seeds it must turn up 1/n! of the time.
    for (const [n, fact, seeds] of [
      [3, 6, 3000],
      [4, 24, 4800],
    ] as const) {
      const row = Array.from({ length: n }, (_, i) => i + 1);
      let hits = 0;
      for (let seed = 1; seed <= seeds; seed++) hits += permutationPValue([row, row], { permutations: 1, seed }).atLeastAsExtreme;
      const expected = seeds / fact;
      const se = Math.sqrt(expected * (1 - 1 / fact));
      assert.ok(Math.abs(hits - expected) < 4 * se, `n = ${n}: ${hits} identities in ${seeds}, expected ${expected}`);
    }
  });

  it('Siegel & Castellan: permutation p is in the same region as the chi-square p (0.055)', () => {
    const r = permutationPValue(SIEGEL_CASTELLAN.ranks, { permutations: 10_000 });
    assert.ok(r.pValue > 0.02 && r.pValue < 0.1, `p = ${r.pValue}`);
  });

  it('rejects unusable options with a plain sentence', () => {
    assert.throws(() => permutationPValue(ANXIETY.ratings, { permutations: 0 }), /whole number from 1/);
    assert.throws(() => permutationPValue(ANXIETY.ratings, { permutations: 1.5 }), /whole number from 1/);
    assert.throws(() => permutationPValue(ANXIETY.ratings, { seed: 0.5 }), /seed must be a whole number/);
  });

  it('handles the largest review (50 × 50, 10,000 permutations): random rankings give a p that is not small (speed: npm run bench)', () => {
    const rng = new SeededRandom(3);
    const ranks = Array.from({ length: 50 }, () => {
      const row = Array.from({ length: 50 }, (_, i) => i + 1);
      for (let i = 49; i > 0; i--) {
        const k = rng.nextBelow(i + 1);
        [row[i], row[k]] = [row[k]!, row[i]!];
      }
      return row;
    });
    const { pValue, permutations } = permutationPValue(ranks);
    assert.equal(permutations, 10_000);
    assert.ok(pValue > 0.001 && pValue <= 1, `p = ${pValue}`);
  });
});

describe('stats: seeded generator', () => {
  it('same seed same stream; values in range', () => {
    const a = new SeededRandom(5);
    const b = new SeededRandom(5);
    for (let i = 0; i < 100; i++) {
      const x = a.next();
      assert.equal(x, b.next());
      assert.ok(x >= 0 && x < 1);
      const k = a.nextBelow(7);
      assert.equal(k, b.nextBelow(7));
      assert.ok(Number.isInteger(k) && k >= 0 && k < 7);
    }
  });

  it('nextBelow is roughly uniform (chi-square of 60,000 draws into 6 bins)', () => {
    const rng = new SeededRandom(11);
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 60_000; i++) counts[rng.nextBelow(6)]!++;
    const chi = counts.reduce((s, c) => s + (c - 10_000) ** 2 / 10_000, 0);
    assert.ok(chi < 20.5, `chi-square ${chi} (df 5, 0.001 critical value 20.5)`);
  });
});
