/**
 * Seeded Monte Carlo permutation test for Kendall's W.
 *
 * Under the null hypothesis (no agreement) every rater's ranking is an independent uniformly random
 * permutation of that rater's own average ranks (ties kept). We shuffle each rater's vector with
 * Fisher–Yates and recompute S; since the tie structure is fixed, S orders permutations exactly as W does.
 *
 *   p = (1 + #{S_perm ≥ S_obs}) / (1 + N)
 *
 * Work is done on doubled ranks (integers), so S is compared exactly: with C_i the doubled column sums,
 * Σ C_i² = 4S + (Σ C_i)² / n and Σ C_i never changes, so comparing Σ C_i² is comparing S. No tolerance
 * (such as S_perm ≥ S_obs − 1e-9) is needed because nothing is rounded.
 *
 * Speed: the first rater is never shuffled (fixing one rater does not change the distribution of S: apply
 * the inverse of its permutation to every rater), shuffles continue from the previous permutation (still
 * uniform), column sums are accumulated inside the shuffle loop, and the generator is inlined. No
 * allocation inside the loop.
 */
import { IndexOutOfRangeError, num } from '../../kernel/arrays';
import { WEYL_INCREMENT } from '../prng';
import { averageRanks, matrixShape } from '../ranks';

export const DEFAULT_PERMUTATIONS = 10_000;
export const DEFAULT_SEED = 20261121;

export interface PermutationOptions {
  /** Number of random permutations N (integer ≥ 1). Default 10,000. */
  permutations?: number;
  /** Seed of the generator (any integer; taken modulo 2^32). Default 20261121. */
  seed?: number;
}

export interface PermutationResult {
  pValue: number;
  permutations: number;
  seed: number;
  /** How many permutations reached the observed statistic. */
  atLeastAsExtreme: number;
}

const TWO_POW_MINUS_32 = 2.3283064365386963e-10;
const TWO_POW_32 = 4294967296;

/** Checks and fills in the options; throws a RangeError with a plain sentence when they are unusable. */
export function resolvePermutationOptions(opts: PermutationOptions = {}): { permutations: number; seed: number } {
  const permutations = opts.permutations ?? DEFAULT_PERMUTATIONS;
  const seed = opts.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(permutations) || permutations < 1 || permutations > 100_000_000) {
    throw new RangeError('The number of permutations must be a whole number from 1 to 100,000,000.');
  }
  if (!Number.isInteger(seed)) throw new RangeError('The permutation seed must be a whole number.');
  return { permutations, seed };
}

/** Monte Carlo permutation p-value of Kendall's W for `ranks` (m raters × n items; converted to average ranks). */
export function permutationPValue(ranks: readonly (readonly number[])[], opts: PermutationOptions = {}): PermutationResult {
  const { permutations, seed } = resolvePermutationOptions(opts);
  const [m, n] = matrixShape(ranks);

  // Doubled average ranks, one row per rater, in one flat buffer.
  const doubled = new Int32Array(m * n);
  for (const [j, row] of ranks.entries()) {
    const avg = averageRanks(row);
    for (let i = 0; i < n; i++) doubled[j * n + i] = Math.round(num(avg, i) * 2);
  }
  // First rater's contribution is fixed: start every permutation's column sums from it.
  const base = doubled.slice(0, n);
  let observed = 0;
  for (let i = 0; i < n; i++) {
    let c = 0;
    for (let j = 0; j < m; j++) c += num(doubled, j * n + i);
    observed += c * c;
  }

  const count = countAtLeastObserved(doubled, base, m, n, permutations, seed, observed);
  return { pValue: (1 + count) / (1 + permutations), permutations, seed, atLeastAsExtreme: count };
}

/**
 * Counts the permutations with Σ C_i² ≥ observed. `doubled` (m × n, row-major) is shuffled in place; the
 * generator state lives in a one-element Int32Array so the per-permutation function can carry it on.
 */
function countAtLeastObserved(
  doubled: Int32Array,
  base: Int32Array,
  m: number,
  n: number,
  permutations: number,
  seed: number,
  observed: number,
): number {
  const col = new Int32Array(n);
  const rng = new Int32Array(1);
  rng[0] = seed | 0;
  let count = 0;
  for (let p = 0; p < permutations; p++) {
    if (shuffledSumOfSquares(doubled, base, col, m, n, rng) >= observed) count++;
  }
  return count;
}

/** Kept out of the shuffle so the loop stays small (built only on a defect: an index the loop computed is past the end). */
function outOfRange(index: number, length: number): IndexOutOfRangeError {
  return new IndexOutOfRangeError(index, length);
}

/**
 * One permutation: shuffles raters 2..m in place and returns Σ_i C_i² of the new column sums. Small and
 * called once per permutation, so V8 optimizes it as a whole function rather than only on-stack.
 */
function shuffledSumOfSquares(doubled: Int32Array, base: Int32Array, col: Int32Array, m: number, n: number, rng: Int32Array): number {
  const weyl = WEYL_INCREMENT;
  const inv32 = TWO_POW_MINUS_32;
  const pow32 = TWO_POW_32;
  let state = rng[0];
  if (state === undefined) throw outOfRange(0, 0);
  col.set(base);
  for (let j = 1; j < m; j++) {
    const off = j * n;
    // Fisher–Yates from the end; position i is final once swapped, so add it to its column at once.
    // One 32-bit draw serves two steps (batched multiply-shift: x = r·(i+1) gives the index for bound i+1
    // in its high part and a fresh uniform remainder for bound i in its low part; bias below n² / 2^32).
    let i = n - 1;
    while (i > 0) {
      state = (state + weyl) | 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const x = ((t ^ (t >>> 14)) >>> 0) * (i + 1);
      const hi = Math.floor(x * inv32);
      let k = off + hi;
      let a = doubled[k];
      let b = doubled[off + i];
      let c = col[i];
      if (a === undefined || b === undefined || c === undefined) throw outOfRange(k, doubled.length);
      doubled[k] = b;
      doubled[off + i] = a;
      col[i] = (c + a) | 0;
      i--;
      if (i === 0) break;
      k = off + Math.floor((x - hi * pow32) * (i + 1) * inv32);
      a = doubled[k];
      b = doubled[off + i];
      c = col[i];
      if (a === undefined || b === undefined || c === undefined) throw outOfRange(k, doubled.length);
      doubled[k] = b;
      doubled[off + i] = a;
      col[i] = (c + a) | 0;
      i--;
    }
    const first = doubled[off];
    const c0 = col[0];
    if (first === undefined || c0 === undefined) throw outOfRange(off, doubled.length);
    col[0] = (c0 + first) | 0;
  }
  rng[0] = state;
  let sq = 0;
  for (let i = 0; i < n; i++) {
    const c = col[i];
    if (c === undefined) throw outOfRange(i, col.length);
    sq += c * c;
  }
  return sq;
}
