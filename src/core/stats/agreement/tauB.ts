/**
 * Kendall's tau-b between two raters, and the pairwise matrix over all raters.
 *
 *   tau_b = (C − D) / sqrt((P − X)(P − Y)),  P = n(n − 1)/2 pairs, X / Y = pairs tied in x / in y
 *
 * A pair tied in both counts in X and in Y, and neither as concordant nor discordant (Kendall 1945).
 * When a rater ties every item, tau-b is 0/0 (undefined); we report 0 ("no measurable association"),
 * which keeps the matrix numeric and JSON-safe. The matrix diagonal is 1 by definition.
 * O(n²) per pair; the matrix reads each rater once (see tauBMatrix).
 */
import { at, num } from '../../kernel/arrays';

export function kendallTauB(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  if (y.length !== n) throw new RangeError('Both rankings must cover the same items.');
  let concordant = 0;
  let discordant = 0;
  let tiedX = 0;
  let tiedY = 0;
  for (let i = 0; i < n; i++) {
    for (let k = i + 1; k < n; k++) {
      const dx = num(x, i) - num(x, k);
      const dy = num(y, i) - num(y, k);
      if (dx === 0) tiedX++;
      if (dy === 0) tiedY++;
      if (dx !== 0 && dy !== 0) {
        if (dx > 0 === dy > 0) concordant++;
        else discordant++;
      }
    }
  }
  const pairs = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((pairs - tiedX) * (pairs - tiedY));
  if (denominator === 0) return 0;
  return (concordant - discordant) / denominator;
}

/**
 * Symmetric m × m matrix of tau-b between raters (rows of `ranks`), 1 on the diagonal; each entry equal to
 * `kendallTauB` of the two rows (finite values, as average ranks are).
 *
 * Each rater's item pairs are read once, into a vector of signs sgn(x_i − x_k) (i < k; 0 for a tie) and its count of
 * ties; for two raters, C − D is then the dot product of their sign vectors (a pair tied in either gives 0, concordant
 * +1, discordant −1). The same integers as the pair loop, so the same values, with m vectors built instead of
 * m(m − 1)/2 pair loops.
 */
export function tauBMatrix(ranks: readonly (readonly number[])[]): number[][] {
  const m = ranks.length;
  const n = ranks[0]?.length ?? 0;
  const pairs = (n * (n - 1)) / 2;
  const signs = new Int8Array(m * pairs);
  const untied = new Float64Array(m);
  for (const [a, row] of ranks.entries()) {
    if (row.length !== n) throw new RangeError('Both rankings must cover the same items.');
    let p = a * pairs;
    let ties = 0;
    for (let i = 0; i < n; i++) {
      const xi = num(row, i);
      for (let k = i + 1; k < n; k++, p++) {
        const dx = xi - num(row, k);
        if (dx === 0) ties++;
        else signs[p] = dx > 0 ? 1 : -1;
      }
    }
    untied[a] = pairs - ties;
  }
  const out = ranks.map(() => new Array<number>(m).fill(1));
  for (let a = 0; a < m; a++) {
    const offA = a * pairs;
    for (let b = a + 1; b < m; b++) {
      const offB = b * pairs;
      let score = 0;
      for (let p = 0; p < pairs; p++) score += signs[offA + p]! * signs[offB + p]!;
      const denominator = Math.sqrt(num(untied, a) * num(untied, b));
      const t = denominator === 0 ? 0 : score / denominator;
      at(out, a)[b] = t;
      at(out, b)[a] = t;
    }
  }
  return out;
}

/**
 * The rater with the lowest mean tau-b to the others. Null when there are fewer than 3 raters (with two,
 * both are equally far from each other) or when every rater has the same mean tau-b (nobody stands out).
 * Equal lowest means: the first rater in order wins.
 */
export function lowestMeanTau(tau: readonly (readonly number[])[]): { index: number; meanTau: number } | null {
  const m = tau.length;
  if (m < 3) return null;
  const means = tau.map((row, a) => {
    let sum = 0;
    for (let b = 0; b < m; b++) if (b !== a) sum += num(row, b);
    return sum / (m - 1);
  });
  let best = 0;
  let lowest = num(means, 0);
  for (const [a, mean] of means.entries()) {
    if (mean < lowest - 1e-12) {
      best = a;
      lowest = mean;
    }
  }
  const highest = means.reduce((hi, x) => Math.max(hi, x), -Infinity);
  if (highest - lowest <= 1e-12) return null;
  return { index: best, meanTau: lowest };
}
