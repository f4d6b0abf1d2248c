/**
 * Kendall's coefficient of concordance W for m raters ranking n items.
 *
 *   R_i  = Σ_j r_ji (average ranks), S = Σ_i (R_i − R̄)²
 *   W    = 12 S / (m²(n³ − n) − m Σ_j T_j),  T_j = Σ (t³ − t) over rater j's tie groups   (tie-corrected)
 *   W_u  = 12 S / (m²(n³ − n))                                                          (uncorrected)
 *   χ²   = m (n − 1) W  with n − 1 degrees of freedom (equal to Friedman's tie-corrected statistic)
 *
 * Arithmetic is done on doubled ranks (average ranks are multiples of ½, so doubled ranks are integers):
 * numerator and denominator are exact integers and W is one correctly rounded division (perfect agreement
 * gives exactly 1).
 *
 * Degenerate case: when every rater ties every item, the corrected denominator is 0 and so is S; W is then
 * undefined, and we report W = 0 (no evidence of agreement) with p = 1.
 */
import { chiSquareUpperTail } from './chiSquare';
import { averageRanks, matrixShape, tieCorrectionTerm } from '../ranks';

export interface KendallWResult {
  /** Raters. */
  m: number;
  /** Items. */
  n: number;
  /** Tie-corrected W. */
  w: number;
  wUncorrected: number;
  /** Σ_i (R_i − R̄)² on average ranks. */
  s: number;
  /** Σ_j T_j. */
  tieTotal: number;
  /** m (n − 1) W (corrected W). */
  chiSquare: number;
  df: number;
  /** Upper tail of chi-square(df) at chiSquare. */
  pValue: number;
}

/** Rank sums R_i of the average-rank matrix, doubled (integers). */
export function doubledRankSums(avgRanks: readonly (readonly number[])[], n: number): number[] {
  const sums = new Array<number>(n).fill(0);
  for (const row of avgRanks) {
    for (let i = 0; i < n; i++) sums[i]! += Math.round(row[i]! * 2);
  }
  return sums;
}

/**
 * Kendall's W of `ranks` (m raters × n items). Each row is converted to average ranks first, so rows may hold
 * ranks as written (1, 2, 2, 4), average ranks, or raw scores.
 */
export function kendallW(ranks: readonly (readonly number[])[]): KendallWResult {
  const [m, n] = matrixShape(ranks);
  const avg = ranks.map((row) => averageRanks(row));
  let tieTotal = 0;
  for (const row of ranks) tieTotal += tieCorrectionTerm(row);
  const d = doubledRankSums(avg, n);
  let sum = 0;
  let sumSq = 0;
  for (const v of d) {
    sum += v;
    sumSq += v * v;
  }
  // S = Σ (D_i/2 − mean)² = (n ΣD² − (ΣD)²) / (4n)
  const sNumerator = n * sumSq - sum * sum;
  const s = sNumerator / (4 * n);
  const full = m * m * (n * n * n - n);
  const corrected = full - m * tieTotal;
  // W = 12 S / den = 3 sNumerator / (n · den)
  const w = corrected > 0 ? (3 * sNumerator) / (n * corrected) : 0;
  const wUncorrected = (3 * sNumerator) / (n * full);
  const df = n - 1;
  const chiSquare = m * df * w;
  const pValue = corrected > 0 ? chiSquareUpperTail(chiSquare, df) : 1;
  return { m, n, w, wUncorrected, s, tieTotal, chiSquare, df, pValue };
}

/**
 * THE agreement bands of Kendall's W (analyze's `band`, evaluate's `wBands` histogram, the paper's Fig. 3), lowest first:
 * a band holds `from` ≤ W < the next band's `from`. slight < 0.2 ≤ fair < 0.4 ≤ moderate < 0.6 ≤ substantial < 0.8 ≤
 * almost-perfect.
 */
export const AGREEMENT_BANDS = [
  { band: 'slight', from: 0 },
  { band: 'fair', from: 0.2 },
  { band: 'moderate', from: 0.4 },
  { band: 'substantial', from: 0.6 },
  { band: 'almost-perfect', from: 0.8 },
] as const;

export type AgreementBand = (typeof AGREEMENT_BANDS)[number]['band'];

/** The band W falls in (AGREEMENT_BANDS). */
export function agreementBand(w: number): AgreementBand {
  let out: AgreementBand = AGREEMENT_BANDS[0].band;
  for (const b of AGREEMENT_BANDS) if (w >= b.from) out = b.band;
  return out;
}
