/** Plain-language wording of the agreement result. */
import type { AgreementBand } from '../agreement/kendallW';

export const SIGNIFICANCE_LEVEL = 0.05;

/** "almost-perfect" → "almost perfect". */
export function bandWords(band: AgreementBand): string {
  return band.replace('-', ' ');
}

/** W with two decimals. */
export function formatW(w: number): string {
  return w.toFixed(2);
}

/** p with two decimals, three below 0.1, and "< 0.001" for tiny values. */
export function formatP(p: number): string {
  if (p < 0.001) return '< 0.001';
  return `= ${p < 0.1 ? p.toFixed(3) : p.toFixed(2)}`;
}

/**
 * One sentence, e.g. "Agreement is fair and not significant (W = 0.31, p = 0.21)." Significance is judged at
 * 0.05 on `p` (the permutation p-value in analyzeReview).
 */
export function agreementSentence(o: { w: number; band: AgreementBand; p: number; raters: number }): string {
  if (o.raters < 2) {
    return `Only one designer has ranked the options, so agreement between designers cannot be measured yet.`;
  }
  const significant = o.p < SIGNIFICANCE_LEVEL ? 'significant' : 'not significant';
  return `Agreement is ${bandWords(o.band)} and ${significant} (W = ${formatW(o.w)}, p ${formatP(o.p)}).`;
}
