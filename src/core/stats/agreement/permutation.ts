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
 * uniform), the raters' shuffles are interleaved by position so each column sum is complete once its position
 * is drawn in every row, and the generator is inlined. No allocation inside the loop.
 */
import { num } from '../../kernel/arrays';
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
/**
 * The generator's Weyl increment (prng.ts's WEYL_INCREMENT), written here as a literal so the compiler folds it into the
 * loop (an imported binding is a property read it cannot fold); the test against SeededRandom's own draws holds them equal.
 */
const WEYL = 0x6d2b79f5;

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
  const rng = new Int32Array(1);
  rng[0] = seed | 0;
  let count = 0;
  for (let p = 0; p < permutations; p++) {
    if (shuffledSumOfSquares(doubled, base, m, n, rng) >= observed) count++;
  }
  return count;
}

/**
 * One permutation: shuffles raters 2..m in place and returns Σ_i C_i² of the new column sums. Small and
 * called once per permutation, so V8 optimizes it as a whole function rather than only on-stack.
 *
 * The Fisher–Yates steps of all raters are interleaved by position: for i = n−1 down to 1, every rater j ≥ 2 swaps
 * its position i with a uniform position in 0..i (its own shuffle, independent of the others'). Position i is then
 * final in every row, so its column sum C_i is complete at once and is kept in a local variable (no array of column
 * sums to load and store on every step). One 32-bit draw r serves two raters at the same bound b = i + 1 (batched
 * multiply-shift: the 64-bit product r·b gives the first index in its high 32 bits and a fresh uniform remainder in
 * its low 32 bits, which gives the second index the same way; bias below n² / 2^32). The low 32 bits come from
 * Math.imul (exact, integer), and each high part is truncated with `| 0` (the values are below 2^31 and never negative,
 * so that is the floor, without Math.floor's float rounding): the indices are exactly floor(r·b / 2^32) and
 * floor(((r·b) mod 2^32)·b / 2^32), as a plain implementation in the unit tests draws them. Indices are in range by
 * construction (each is below i + 1 ≤ n), so the loop reads the typed array without checks.
 */
function shuffledSumOfSquares(doubled: Int32Array, base: Int32Array, m: number, n: number, rng: Int32Array): number {
  const inv32 = TWO_POW_MINUS_32;
  // Row offsets: raters 2..m in pairs, from row 1 up to `pairsEnd`; an odd rater left over starts at `pairsEnd`.
  const twoRows = 2 * n;
  const pairsEnd = n + ((m - 1) >> 1) * twoRows;
  const end = m * n;
  let state = rng[0]!;
  let sq = 0;
  for (let i = n - 1; i > 0; i--) {
    const bound = i + 1;
    let c = base[i]!;
    for (let row = n; row < pairsEnd; row += twoRows) {
      state = (state + WEYL) | 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const r = t ^ (t >>> 14);
      // The low 32 bits of r·b, as an unsigned number: the remainder the second index is drawn from.
      const low = Math.imul(r, bound) >>> 0;
      let here = row + i;
      let k = row + (((r >>> 0) * bound * inv32) | 0);
      let a = doubled[k]!;
      doubled[k] = doubled[here]!;
      doubled[here] = a;
      c += a;
      here += n;
      k = row + n + ((low * bound * inv32) | 0);
      a = doubled[k]!;
      doubled[k] = doubled[here]!;
      doubled[here] = a;
      c += a;
    }
    if (pairsEnd < end) {
      // An odd rater left over: one draw for it alone.
      state = (state + WEYL) | 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const here = pairsEnd + i;
      const k = pairsEnd + ((((t ^ (t >>> 14)) >>> 0) * bound * inv32) | 0);
      const a = doubled[k]!;
      doubled[k] = doubled[here]!;
      doubled[here] = a;
      c += a;
    }
    sq += c * c;
  }
  // Position 0 is what is left in every row.
  let c0 = base[0]!;
  for (let row = n; row < end; row += n) c0 += doubled[row]!;
  rng[0] = state;
  return sq + c0 * c0;
}
