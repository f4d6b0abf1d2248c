/**
 * Did the team converge? The paired change in chance-corrected agreement between two rankings of the same designers
 * (before a run: the review's options; after it: the blind re-rank set), with a seeded 95% interval whose verdict is
 * calibrated (METHODS.md, "Convergence").
 *
 *   meanSpearman = (m·W − 1)/(m − 1)     the average pairwise Spearman correlation (0 under chance for any m, n)
 *   change       = meanSpearman(after) − meanSpearman(before), on the designers who ranked both times
 *   interval     = the wider, on each side, of
 *                  (a) chance: [change − q97.5, change − q2.5], q the quantiles of the change when every designer's
 *                      ranking is shuffled at random on both sides (seeded Monte Carlo, ties kept), and
 *                  (b) designers: change ± t(0.975, m − 1) · jackknife SE over designers (m ≥ 3 only)
 *   verdict      = "converged" when the interval lies above 0, "diverged" below, else "no evidence".
 */
import { kendallW } from './kendallW';
import { SeededRandom } from './prng';
import { averageRanks, tieCorrectionTerm } from './ranks';

export const DEFAULT_INTERVAL_DRAWS = 4000;
export const DEFAULT_INTERVAL_SEED = 20261123;

export type Verdict = 'converged' | 'diverged' | 'no evidence';

/** (m·W − 1)/(m − 1): the average Spearman correlation over all pairs of designers; needs m ≥ 2. */
export function meanSpearmanFromW(w: number, m: number): number {
  if (!(m >= 2)) throw new RangeError('The mean Spearman correlation needs two or more designers.');
  return (m * w - 1) / (m - 1);
}

/** Chance-corrected agreement of a rank matrix (m ≥ 2 rows). */
export function meanSpearman(ranks: readonly (readonly number[])[]): number {
  return meanSpearmanFromW(kendallW(ranks).w, ranks.length);
}

export interface PairedChange {
  /** W of the paired designers before and after. */
  wBefore: number;
  wAfter: number;
  /** meanSpearman after − before, on the paired designers. */
  change: number;
  interval: [number, number];
  verdict: Verdict;
  /** The two parts of the interval, for the record (METHODS.md). */
  chanceInterval: [number, number];
  /** Null with two designers (a jackknife needs three). */
  designerInterval: [number, number] | null;
  draws: number;
  seed: number;
}

export interface IntervalOptions {
  draws?: number;
  seed?: number;
}

/** Two-sided 97.5% quantiles of Student's t for df 1..30; larger df use a Cornish–Fisher expansion. */
const T975 = [
  12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139, 2.200985, 2.178813, 2.160369,
  2.144787, 2.13145, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529,
  2.051831, 2.048407, 2.04523, 2.042272,
];

export function tQuantile975(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError('degrees of freedom must be a whole number ≥ 1');
  if (df <= T975.length) return T975[df - 1]!;
  const z = 1.959963984540054;
  const z3 = z * z * z;
  const z5 = z3 * z * z;
  return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df);
}

/** Rows of doubled average ranks (integers), each sorted ascending, rows sorted: the canonical start of the shuffles. */
function canonicalRows(ranks: readonly (readonly number[])[]): number[][] {
  return ranks
    .map((row) => averageRanks(row).map((r) => Math.round(r * 2)).sort((a, b) => a - b))
    .sort((a, b) => {
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
      return 0;
    });
}

/**
 * `draws` values of meanSpearman when each designer's (tie-kept) ranking is a uniformly random permutation. The rows
 * are put in a canonical order first, so the same tie structure, draws and seed always give the same values.
 */
function chanceDraws(ranks: readonly (readonly number[])[], draws: number, seed: number): Float64Array {
  const rows = canonicalRows(ranks);
  const key = `${seed}|${draws}|${rows.map((r) => r.join(',')).join(';')}`;
  const cached = chanceCache.get(key);
  if (cached) return cached;
  const rng = new SeededRandom(seed);
  const m = rows.length;
  const n = rows[0]!.length;
  let tieTotal = 0;
  for (const row of ranks) tieTotal += tieCorrectionTerm(row);
  const den = m * m * (n * n * n - n) - m * tieTotal;
  const flat = new Int32Array(m * n);
  rows.forEach((row, j) => flat.set(row, j * n));
  const col = new Float64Array(n);
  const out = new Float64Array(draws);
  for (let d = 0; d < draws; d++) {
    col.fill(0);
    for (let j = 0; j < m; j++) {
      const off = j * n;
      for (let i = n - 1; i > 0; i--) {
        const k = off + rng.nextBelow(i + 1);
        const a = flat[k]!;
        flat[k] = flat[off + i]!;
        flat[off + i] = a;
      }
      for (let i = 0; i < n; i++) col[i]! += flat[off + i]!;
    }
    let sum = 0;
    let sumSq = 0;
    for (let i = 0; i < n; i++) {
      sum += col[i]!;
      sumSq += col[i]! * col[i]!;
    }
    const w = den > 0 ? (3 * (n * sumSq - sum * sum)) / (n * den) : 0;
    out[d] = (m * w - 1) / (m - 1);
  }
  if (chanceCache.size >= CHANCE_CACHE_SIZE) chanceCache.delete(chanceCache.keys().next().value as string);
  chanceCache.set(key, out);
  keyOf.set(out, key);
  return out;
}

/** The chance draws depend only on the tie structure, draws and seed: a few are kept (simulations and panels repeat them). */
const CHANCE_CACHE_SIZE = 32;
const chanceCache = new Map<string, Float64Array>();

/**
 * The 2.5% and 97.5% points of the chance change. Conservative order statistics: with k = ⌈0.975 (N + 1)⌉, a chance
 * change exceeds the k-th smallest of N draws with probability ≤ 2.5%. Each side has its own stream (seed, seed + 1),
 * so either side's draws can be reused on their own.
 */
function chanceQuantiles(before: readonly (readonly number[])[], after: readonly (readonly number[])[], draws: number, seed: number): [number, number] {
  const nb = chanceDraws(before, draws, seed);
  const na = chanceDraws(after, draws, (seed + 1) | 0);
  const key = `${keyOf.get(nb)}#${keyOf.get(na)}`;
  const cached = quantileCache.get(key);
  if (cached) return cached;
  const diffs = new Float64Array(draws);
  for (let d = 0; d < draws; d++) diffs[d] = na[d]! - nb[d]!;
  diffs.sort();
  const k = Math.ceil(0.975 * (draws + 1));
  const out: [number, number] = [orderStat(diffs, draws + 1 - k), orderStat(diffs, k)];
  if (quantileCache.size >= CHANCE_CACHE_SIZE) quantileCache.delete(quantileCache.keys().next().value as string);
  quantileCache.set(key, out);
  return out;
}

const quantileCache = new Map<string, [number, number]>();
const keyOf = new WeakMap<Float64Array, string>();

/** Order statistic k (1-based) of a sorted copy. */
function orderStat(sorted: Float64Array, k: number): number {
  return sorted[Math.min(Math.max(k, 1), sorted.length) - 1]!;
}

/** Leave-one-designer-out jackknife SE of the change (rows paired: row j of before and after is the same designer). */
function jackknifeSe(before: readonly (readonly number[])[], after: readonly (readonly number[])[]): number {
  const m = before.length;
  const leaveOut = (j: number): number => {
    const b = before.filter((_, i) => i !== j);
    const a = after.filter((_, i) => i !== j);
    return meanSpearman(a) - meanSpearman(b);
  };
  const values = Array.from({ length: m }, (_, j) => leaveOut(j));
  const mean = values.reduce((s, v) => s + v, 0) / m;
  const ss = values.reduce((s, v) => s + (v - mean) * (v - mean), 0);
  return Math.sqrt(((m - 1) / m) * ss);
}

/**
 * The paired change of the same designers' agreement. `before` and `after` are rank matrices with the same number of
 * rows (row j = the same designer); their option counts may differ. Needs m ≥ 2.
 */
export function pairedChange(
  before: readonly (readonly number[])[],
  after: readonly (readonly number[])[],
  opts: IntervalOptions = {},
): PairedChange {
  const draws = opts.draws ?? DEFAULT_INTERVAL_DRAWS;
  const seed = opts.seed ?? DEFAULT_INTERVAL_SEED;
  if (!Number.isInteger(draws) || draws < 39) throw new RangeError('The interval needs at least 39 random draws.');
  const m = before.length;
  if (m !== after.length) throw new RangeError('Before and after must hold the same designers.');
  if (m < 2) throw new RangeError('A paired change needs two or more designers who ranked both times.');
  const wb = kendallW(before).w;
  const wa = kendallW(after).w;
  const change = meanSpearmanFromW(wa, m) - meanSpearmanFromW(wb, m);

  // (a) chance: the change between two independent, purely random sets of rankings with the same shapes and ties.
  const [lo, hi] = chanceQuantiles(before, after, draws, seed);
  const chanceInterval: [number, number] = [change - hi, change - lo];

  // (b) designers: who happened to be on the team.
  let designerInterval: [number, number] | null = null;
  if (m >= 3) {
    const h = tQuantile975(m - 1) * jackknifeSe(before, after);
    designerInterval = [change - h, change + h];
  }
  // Mean Spearman lies in [−1/(m − 1), 1], so the change lies within ±(1 + 1/(m − 1)): the interval is clipped to that.
  const bound = 1 + 1 / (m - 1);
  const clip = (x: number): number => Math.max(-bound, Math.min(bound, x));
  const wide: [number, number] = designerInterval
    ? [Math.min(chanceInterval[0], designerInterval[0]), Math.max(chanceInterval[1], designerInterval[1])]
    : chanceInterval;
  const interval: [number, number] = [clip(wide[0]), clip(wide[1])];
  const verdict: Verdict = interval[0] > 0 ? 'converged' : interval[1] < 0 ? 'diverged' : 'no evidence';
  return { wBefore: wb, wAfter: wa, change, interval, verdict, chanceInterval, designerInterval, draws, seed };
}
