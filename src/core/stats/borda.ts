/**
 * Borda consensus: each rater gives an item n − (average rank) points; points are summed over raters
 * (optionally multiplied by the rater's weight). Sorted best first; equal points share a position
 * (competition ranking 1, 2, 2, 4). Equal points keep the items' input order.
 */
import { averageRanks, matrixShape } from './ranks';

export interface BordaEntry {
  option: string;
  points: number;
  /** 1-based; ties share the position. */
  position: number;
}

/** Relative tolerance used to call two point totals equal (weighted totals are sums of floats). */
const EQUAL_POINTS = 1e-9;

export function bordaCount(
  ranks: readonly (readonly number[])[],
  options: readonly string[],
  weights?: readonly number[],
): BordaEntry[] {
  const [m, n] = matrixShape(ranks);
  if (options.length !== n) throw new RangeError('There must be one option id per ranked item.');
  if (weights && weights.length !== m) throw new RangeError('There must be one weight per rater.');
  const points = new Array<number>(n).fill(0);
  for (let j = 0; j < m; j++) {
    const avg = averageRanks(ranks[j]!);
    const w = weights ? weights[j]! : 1;
    for (let i = 0; i < n; i++) points[i]! += w * (n - avg[i]!);
  }
  const order = points.map((_, i) => i).sort((a, b) => {
    if (samePoints(points[a]!, points[b]!)) return a - b;
    return points[b]! - points[a]!;
  });
  const out: BordaEntry[] = [];
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    const prev = out[k - 1];
    const position = prev && samePoints(prev.points, points[i]!) ? prev.position : k + 1;
    out.push({ option: options[i]!, points: points[i]!, position });
  }
  return out;
}

function samePoints(a: number, b: number): boolean {
  return Math.abs(a - b) <= EQUAL_POINTS * Math.max(1, Math.abs(a), Math.abs(b));
}
