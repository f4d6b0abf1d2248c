/** The mean of a list of numbers, and its 95% t interval: one place for both (evaluation, baselines, forecasts use them). */
import { tQuantile975 } from './agreement/convergence';

/** The mean of `xs`; null when there are none. */
export function meanOrNull(xs: readonly number[]): number | null {
  return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null;
}

/** The mean of `xs` with its two-sided 95% t interval (sample SD, n − 1 degrees of freedom); null bounds below two values. */
export interface MeanInterval {
  n: number;
  mean: number | null;
  low: number | null;
  high: number | null;
}

export function tInterval95(xs: readonly number[]): MeanInterval {
  const n = xs.length;
  const m = meanOrNull(xs);
  if (m === null || n < 2) return { n, mean: m, low: null, high: null };
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (n - 1));
  const h = (tQuantile975(n - 1) * sd) / Math.sqrt(n);
  return { n, mean: m, low: m - h, high: m + h };
}
