/**
 * Did the team converge? The paired change in chance-corrected agreement between two rankings of the same designers
 * (before a run: the review's options; after it: the blind re-rank set), with a 90% interval whose two ends are each
 * a one-sided 95% bound, so "converged" and "diverged" each come out of purely random rankings in at most 5% of cases
 * (METHODS.md, "Convergence").
 *
 *   meanSpearman = (m·W − 1)/(m − 1)     the average pairwise Spearman correlation (0 under chance for any m, n)
 *   change       = meanSpearman(after) − meanSpearman(before), on the designers who ranked both times
 *   interval     = the wider, on each side, of
 *                  (a) chance: [change − hi, change − lo], hi / lo the one-sided 5% critical values of the change when
 *                      every designer's ranking is a uniformly random order on both sides (ties kept): exact by complete
 *                      enumeration when both sides have at most EXACT_LIMIT arrangements, else seeded Monte Carlo, and
 *                  (b) designers: change ± t(0.95, m − 1) · jackknife SE over designers, from DESIGNER_PART_FROM (5)
 *                      designers on (below that no test that treats designers as the sampled units can reach 5%)
 *   verdict      = "converged" when the interval lies above 0, "diverged" below, else "no evidence".
 */
import { IndexOutOfRangeError, at, num } from '../../kernel/arrays';
import { kendallW } from './kendallW';
import { SeededRandom } from '../prng';
import { averageRanks, tieCorrectionTerm } from '../ranks';

export const DEFAULT_INTERVAL_DRAWS = 4000;
export const DEFAULT_INTERVAL_SEED = 20261123;
/** Each end of the interval is a one-sided test at this level. */
export const ALPHA = 0.05;
/** The chance part is exact when each side has at most this many joint arrangements (rows 2..m; row 1 held). */
export const EXACT_LIMIT = 1_000_000;
/** The designer part (jackknife) joins from this many designers: 2^−m ≤ 5% needs m ≥ 5. */
export const DESIGNER_PART_FROM = 5;

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
  /** Null below DESIGNER_PART_FROM designers. */
  designerInterval: [number, number] | null;
  /** Whether the chance part came from complete enumeration (else seeded Monte Carlo with `draws` and `seed`). */
  chanceExact: boolean;
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
  2.144787, 2.13145, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831,
  2.048407, 2.04523, 2.042272,
];

/** One-sided 95% quantiles of Student's t for df 1..30. */
const T95 = [
  6.313752, 2.919986, 2.353363, 2.131847, 2.015048, 1.94318, 1.894579, 1.859548, 1.833113, 1.812461, 1.795885, 1.782288, 1.770933, 1.76131,
  1.75305, 1.745884, 1.739607, 1.734064, 1.729133, 1.724718, 1.720743, 1.717144, 1.713872, 1.710882, 1.708141, 1.705618, 1.703288, 1.701131,
  1.699127, 1.697261,
];

function tQuantile(df: number, table: readonly number[], z: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError('degrees of freedom must be a whole number ≥ 1');
  if (df <= table.length) return at(table, df - 1);
  const z3 = z * z * z;
  const z5 = z3 * z * z;
  return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df);
}

export function tQuantile975(df: number): number {
  return tQuantile(df, T975, 1.959963984540054);
}

export function tQuantile95(df: number): number {
  return tQuantile(df, T95, 1.6448536269514722);
}

/** Rows of doubled average ranks (integers), each sorted ascending, rows sorted: the canonical start of the shuffles. */
function canonicalRows(ranks: readonly (readonly number[])[]): number[][] {
  return ranks
    .map((row) =>
      averageRanks(row)
        .map((r) => Math.round(r * 2))
        .sort((a, b) => a - b),
    )
    .sort((a, b) => {
      for (const [i, x] of a.entries()) {
        const y = at(b, i);
        if (x !== y) return x - y;
      }
      return 0;
    });
}

/** Kendall's W denominator for m rows of n ranks, ties corrected: m²(n³ − n) − m Σ (t³ − t). */
function wDenominator(ranks: readonly (readonly number[])[], m: number, n: number): number {
  let tieTotal = 0;
  for (const row of ranks) tieTotal += tieCorrectionTerm(row);
  return m * m * (n * n * n - n) - m * tieTotal;
}

/** The mean Spearman (m·W − 1)/(m − 1) of m rows whose rank sums per option are `col`, with W's denominator `den`. */
function meanSpearmanOfColumns(col: Float64Array, m: number, n: number, den: number): number {
  let sum = 0;
  let sumSq = 0;
  for (let i = 0; i < n; i++) {
    const c = col[i];
    if (c === undefined) throw new IndexOutOfRangeError(i, col.length);
    sum += c;
    sumSq += c * c;
  }
  const w = den > 0 ? (3 * (n * sumSq - sum * sum)) / (n * den) : 0;
  return (m * w - 1) / (m - 1);
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
  const n = at(rows, 0).length;
  const den = wDenominator(ranks, m, n);
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
        const a = flat[k];
        const b = flat[off + i];
        if (a === undefined || b === undefined) throw new IndexOutOfRangeError(k, flat.length);
        flat[k] = b;
        flat[off + i] = a;
      }
      for (let i = 0; i < n; i++) {
        const c = col[i];
        const v = flat[off + i];
        if (c === undefined || v === undefined) throw new IndexOutOfRangeError(off + i, flat.length);
        col[i] = c + v;
      }
    }
    out[d] = meanSpearmanOfColumns(col, m, n, den);
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
 * The exact chance distribution of one side's mean Spearman, when it is small enough to enumerate: row 1 is held in
 * its canonical order (applying one permutation to every row leaves the statistic and the null unchanged, so this
 * loses nothing) and every distinct arrangement of every other row (ties kept) is visited once; each is equally
 * likely under a uniformly random order. Null when there are more than EXACT_LIMIT arrangements.
 */
function exactDistribution(ranks: readonly (readonly number[])[]): Atoms | null {
  const rows = canonicalRows(ranks);
  const key = rows.map((r) => r.join(',')).join(';');
  const known = exactCache.get(key);
  if (known !== undefined) return known;
  const [first, ...others] = rows;
  if (first === undefined) throw new IndexOutOfRangeError(0, 0);
  const m = rows.length;
  const n = first.length;
  const arrangements: Int32Array[][] = [];
  let total = 1;
  for (const row of others) {
    total *= distinctArrangements(row);
    if (total > EXACT_LIMIT) {
      remember(exactCache, key, null);
      return null;
    }
  }
  for (const row of others) arrangements.push(allArrangements(row));
  const den = wDenominator(ranks, m, n);
  const col = Float64Array.from(first);
  const index = new Array<number>(m - 1).fill(0);
  for (const list of arrangements) {
    const start = at(list, 0);
    for (let i = 0; i < n; i++) col[i] = num(col, i) + num(start, i);
  }
  const counts = new Map<number, number>();
  for (;;) {
    const k = Math.round(meanSpearmanOfColumns(col, m, n, den) * 1e9);
    counts.set(k, (counts.get(k) ?? 0) + 1);
    // Odometer over the rows' arrangements, updating the column sums by the one row that changed.
    let j = 0;
    for (; j < m - 1; j++) {
      const list = at(arrangements, j);
      const was = num(index, j);
      const from = at(list, was);
      const next = (was + 1) % list.length;
      index[j] = next;
      const to = at(list, next);
      for (let i = 0; i < n; i++) {
        const c = col[i];
        const t = to[i];
        const f = from[i];
        if (c === undefined || t === undefined || f === undefined) throw new IndexOutOfRangeError(i, n);
        col[i] = c + (t - f);
      }
      if (next !== 0) break;
    }
    if (j === m - 1) break;
  }
  const out = atomsOf(counts);
  remember(exactCache, key, out);
  return out;
}

/** Sorted values with their probabilities. */
interface Atoms {
  values: Float64Array;
  probs: Float64Array;
}

function atomsOf(counts: Map<number, number>): Atoms {
  const keys = [...counts.keys()].sort((a, b) => a - b);
  let total = 0;
  for (const c of counts.values()) total += c;
  return { values: Float64Array.from(keys, (k) => k / 1e9), probs: Float64Array.from(keys, (k) => (counts.get(k) ?? 0) / total) };
}

/** n! / Π t! for the tie groups of a row. */
function distinctArrangements(row: readonly number[]): number {
  let out = 1;
  const seen = new Map<number, number>();
  row.forEach((v, i) => {
    const t = (seen.get(v) ?? 0) + 1;
    seen.set(v, t);
    out = (out * (i + 1)) / t;
  });
  return Math.round(out);
}

/** Every distinct arrangement of a sorted row, in lexicographic order (the classic next-permutation step). */
function allArrangements(sorted: readonly number[]): Int32Array[] {
  const a = Int32Array.from(sorted);
  const out: Int32Array[] = [];
  for (;;) {
    out.push(a.slice());
    let i = a.length - 2;
    while (i >= 0 && num(a, i) >= num(a, i + 1)) i--;
    if (i < 0) return out;
    const ai = num(a, i);
    let k = a.length - 1;
    while (num(a, k) <= ai) k--;
    a[i] = num(a, k);
    a[k] = ai;
    a.subarray(i + 1).reverse();
  }
}

const exactCache = new Map<string, Atoms | null>();

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= CHANCE_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}

/**
 * The critical values of the chance change, one-sided at ALPHA each: a change from purely random rankings is above
 * `hi` (or below `lo`) with probability ≤ ALPHA. Exact when both sides can be enumerated (the change's distribution is
 * the convolution of the two sides', which are independent); otherwise seeded Monte Carlo with conservative order
 * statistics: with k = ⌈(1 − ALPHA)(N + 1)⌉, a chance change exceeds the k-th smallest of N draws with probability
 * ≤ ALPHA (exchangeability). Each side has its own stream (seed, seed + 1).
 */
function chanceCritical(
  before: readonly (readonly number[])[],
  after: readonly (readonly number[])[],
  draws: number,
  seed: number,
): { lo: number; hi: number; exact: boolean } {
  const eb = exactDistribution(before);
  const ea = eb && exactDistribution(after);
  if (eb && ea) {
    const key = `exact#${keyOfAtoms(eb)}#${keyOfAtoms(ea)}`;
    const cached = criticalCache.get(key);
    if (cached) return cached;
    const counts = new Map<number, number>();
    for (let i = 0; i < ea.values.length; i++) {
      const va = ea.values[i];
      const pa = ea.probs[i];
      if (va === undefined || pa === undefined) throw new IndexOutOfRangeError(i, ea.probs.length);
      for (let j = 0; j < eb.values.length; j++) {
        const vb = eb.values[j];
        const pb = eb.probs[j];
        if (vb === undefined || pb === undefined) throw new IndexOutOfRangeError(j, eb.probs.length);
        const k = Math.round((va - vb) * 1e9);
        counts.set(k, (counts.get(k) ?? 0) + pa * pb);
      }
    }
    const d = atomsOf(counts);
    // hi: the smallest value with P(change > hi) ≤ ALPHA; lo: the largest with P(change < lo) ≤ ALPHA.
    let above = 1;
    let hi = num(d.values, d.values.length - 1);
    for (let i = 0; i < d.values.length; i++) {
      above -= num(d.probs, i);
      if (above <= ALPHA + 1e-12) {
        hi = num(d.values, i);
        break;
      }
    }
    let below = 1;
    let lo = num(d.values, 0);
    for (let i = d.values.length - 1; i >= 0; i--) {
      below -= num(d.probs, i);
      if (below <= ALPHA + 1e-12) {
        lo = num(d.values, i);
        break;
      }
    }
    const out = { lo, hi, exact: true };
    remember(criticalCache, key, out);
    return out;
  }
  const nb = chanceDraws(before, draws, seed);
  const na = chanceDraws(after, draws, (seed + 1) | 0);
  const key = `${keyOf.get(nb)}#${keyOf.get(na)}`;
  const cached = criticalCache.get(key);
  if (cached) return cached;
  const diffs = new Float64Array(draws);
  for (let d = 0; d < draws; d++) {
    const a = na[d];
    const b = nb[d];
    if (a === undefined || b === undefined) throw new IndexOutOfRangeError(d, draws);
    diffs[d] = a - b;
  }
  diffs.sort();
  const k = Math.ceil((1 - ALPHA) * (draws + 1));
  const out = { lo: orderStat(diffs, draws + 1 - k), hi: orderStat(diffs, k), exact: false };
  remember(criticalCache, key, out);
  return out;
}

const criticalCache = new Map<string, { lo: number; hi: number; exact: boolean }>();
const keyOf = new WeakMap<Float64Array, string>();
const atomKeys = new WeakMap<Atoms, string>();
let atomCounter = 0;

function keyOfAtoms(a: Atoms): string {
  let k = atomKeys.get(a);
  if (!k) atomKeys.set(a, (k = `a${atomCounter++}`));
  return k;
}

/** Order statistic k (1-based) of a sorted copy. */
function orderStat(sorted: Float64Array, k: number): number {
  return num(sorted, Math.min(Math.max(k, 1), sorted.length) - 1);
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
  const crit = chanceCritical(before, after, draws, seed);
  // An observed change equal to a critical value (both are atoms of the same lattice) is not beyond it.
  const snap = (x: number): number => (Math.abs(x) < 1e-9 ? 0 : x);
  const chanceInterval: [number, number] = [snap(change - crit.hi), snap(change - crit.lo)];

  // (b) designers: who happened to be on the team (from DESIGNER_PART_FROM designers on).
  let designerInterval: [number, number] | null = null;
  if (m >= DESIGNER_PART_FROM) {
    const h = tQuantile95(m - 1) * jackknifeSe(before, after);
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
  return { wBefore: wb, wAfter: wa, change, interval, verdict, chanceInterval, designerInterval, chanceExact: crit.exact, draws, seed };
}
