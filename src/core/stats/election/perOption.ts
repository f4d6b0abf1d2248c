/**
 * Per-option summary of the raters' average ranks.
 *
 * - meanRank: mean of the average ranks.
 * - sd: POPULATION standard deviation (divide by m): the designers are the whole team, not a sample of one.
 *   0 when there is a single designer.
 * - min / max: best and worst average rank given.
 * - contested: the option is polarising: at least one designer put it in the top third of the ranking and at
 *   least one in the bottom third. With k = max(1, floor(n / 3)): min ≤ k and max ≥ n − k + 1 (average ranks).
 *   For 6 options: someone ranks it 1st or 2nd and someone 5th or 6th. For 2 options: any disagreement.
 *   Never true with a single designer.
 */
import { at, cell } from '../../kernel/arrays';
import { averageRanks, matrixShape } from '../ranks';

export interface OptionSummary {
  option: string;
  meanRank: number;
  sd: number;
  min: number;
  max: number;
  contested: boolean;
}

/** Size of the "top third" / "bottom third" used by the contested rule: max(1, floor(n / 3)). */
export function contestedBand(n: number): number {
  return Math.max(1, Math.floor(n / 3));
}

export function isContested(min: number, max: number, n: number): boolean {
  const k = contestedBand(n);
  return min <= k && max >= n - k + 1;
}

export function summarizeOptions(ranks: readonly (readonly number[])[], options: readonly string[]): OptionSummary[] {
  const [m, n] = matrixShape(ranks);
  if (options.length !== n) throw new RangeError('There must be one option id per ranked item.');
  const avg = ranks.map((row) => averageRanks(row));
  const out: OptionSummary[] = [];
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let min = Infinity;
    let max = -Infinity;
    for (let j = 0; j < m; j++) {
      const r = cell(avg, j, i);
      sum += r;
      if (r < min) min = r;
      if (r > max) max = r;
    }
    const mean = sum / m;
    let sq = 0;
    for (let j = 0; j < m; j++) sq += (cell(avg, j, i) - mean) ** 2;
    out.push({ option: at(options, i), meanRank: mean, sd: Math.sqrt(sq / m), min, max, contested: isContested(min, max, n) });
  }
  return out;
}
