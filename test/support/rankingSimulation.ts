/**
 * Seeded random rankings for the simulations that check the convergence verdict (its unit tests and `npm run bench`):
 * the same seed always gives the same cases, so a table or a failing case can be reproduced.
 */
import { pairedChange } from '../../src/core/stats/agreement/convergence';
import type { SeededRandom } from '../../src/core/stats/prng';

/** A uniformly random ranking of n options (ranks 1..n, Fisher–Yates). */
export function randomRanking(rng: SeededRandom, n: number): number[] {
  const a = Array.from({ length: n }, (_, i) => i + 1);
  for (let i = n - 1; i > 0; i--) {
    const k = rng.nextBelow(i + 1);
    [a[i], a[k]] = [a[k]!, a[i]!];
  }
  return a;
}

/** m independent random rankings of n options. */
export function randomRankings(rng: SeededRandom, m: number, n: number): number[][] {
  return Array.from({ length: m }, () => randomRanking(rng, n));
}

/** A standard normal draw (Box–Muller). */
export function gauss(rng: SeededRandom): number {
  let u = 0;
  while (u === 0) u = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/** Ranks (1 = highest utility) of a utility vector. */
export function ranksOf(u: readonly number[]): number[] {
  const order = u.map((x, i) => [x, i] as const).sort((a, b) => b[0] - a[0]);
  const r = new Array<number>(u.length);
  order.forEach(([, i], k) => (r[i] = k + 1));
  return r;
}

/** One case of before- and after-rankings of a team. */
export type Case = [before: number[][], after: number[][]];

/** The power case: m random before-rankings of n options, and after them every designer gives one same random ranking. */
export function identicalAfter(rng: SeededRandom, m: number, n: number): Case {
  const before = randomRankings(rng, m, n);
  const one = randomRanking(rng, n);
  return [before, before.map(() => [...one])];
}

/** The share of `reps` cases (each from `draw`) that pairedChange calls "converged". */
export function convergedShare(reps: number, draw: () => Case): number {
  let hits = 0;
  for (let r = 0; r < reps; r++) {
    const [before, after] = draw();
    if (pairedChange(before, after).verdict === 'converged') hits++;
  }
  return hits / reps;
}
