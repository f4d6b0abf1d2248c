/**
 * Borda consensus: each rater gives an item n − (average rank) points; points are summed over raters
 * (optionally multiplied by the rater's weight). Sorted best first; equal points share a position
 * (competition ranking 1, 2, 2, 4). Equal points keep the items' input order.
 */
import { at, num } from '../../kernel/arrays';
import { averageRanks, matrixShape } from '../ranks';

export interface BordaEntry {
  option: string;
  points: number;
  /** 1-based; ties share the position. */
  position: number;
}

/** Relative tolerance used to call two point totals equal (weighted totals are sums of floats). */
const EQUAL_POINTS = 1e-9;

export function bordaCount(ranks: readonly (readonly number[])[], options: readonly string[], weights?: readonly number[]): BordaEntry[] {
  const [m, n] = matrixShape(ranks);
  if (options.length !== n) throw new RangeError('There must be one option id per ranked item.');
  if (weights && weights.length !== m) throw new RangeError('There must be one weight per rater.');
  const points = new Array<number>(n).fill(0);
  for (const [j, row] of ranks.entries()) {
    const avg = averageRanks(row);
    const w = weights ? num(weights, j) : 1;
    for (let i = 0; i < n; i++) points[i] = num(points, i) + w * (n - num(avg, i));
  }
  const order = points
    .map((_, i) => i)
    .sort((a, b) => {
      const pa = num(points, a);
      const pb = num(points, b);
      if (samePoints(pa, pb)) return a - b;
      return pb - pa;
    });
  const out: BordaEntry[] = [];
  for (const [k, i] of order.entries()) {
    const prev = out[k - 1];
    const p = num(points, i);
    const position = prev && samePoints(prev.points, p) ? prev.position : k + 1;
    out.push({ option: at(options, i), points: p, position });
  }
  return out;
}

function samePoints(a: number, b: number): boolean {
  return Math.abs(a - b) <= EQUAL_POINTS * Math.max(1, Math.abs(a), Math.abs(b));
}
