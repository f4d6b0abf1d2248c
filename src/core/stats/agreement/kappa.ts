/**
 * Cohen's kappa between two raters who put the same items into categories:
 *
 *   κ = (pₒ − pₑ) / (1 − pₑ),  pₒ the share of items both put in the same category,
 *                              pₑ = Σ_c (share of rater 1 in c)(share of rater 2 in c), the agreement chance alone gives.
 *
 * null when there are no items, or when pₑ = 1 (both raters put every item in one and the same category): then the data
 * cannot tell agreement from chance, and we say so rather than report a number.
 */
export function cohensKappa(pairs: readonly (readonly [string, string])[]): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  const first = new Map<string, number>();
  const second = new Map<string, number>();
  let same = 0;
  for (const [a, b] of pairs) {
    if (a === b) same++;
    first.set(a, (first.get(a) ?? 0) + 1);
    second.set(b, (second.get(b) ?? 0) + 1);
  }
  const po = same / n;
  let pe = 0;
  for (const [c, k] of first) pe += (k / n) * ((second.get(c) ?? 0) / n);
  if (pe >= 1 - 1e-12) return null;
  return (po - pe) / (1 - pe);
}
