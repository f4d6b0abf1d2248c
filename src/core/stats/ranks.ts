/**
 * Rank helpers shared by every statistic in this folder.
 *
 * Ranks are scored as average ranks (contract §1): the values 1, 2, 2, 4 and 1, 2, 2, 3 both become 1, 2.5, 2.5, 4.
 * Only the order of the numbers counts, so raw scores (e.g. ratings on a 1–6 scale) are accepted too; ascending
 * values get ascending ranks.
 */
import { IndexOutOfRangeError, at } from '../kernel/arrays';

/** Average ranks (1-based) of `values`; equal values share the mean of the positions they occupy. */
export function averageRanks(values: readonly number[]): number[] {
  const n = values.length;
  for (const v of values) {
    if (!Number.isFinite(v)) throw new RangeError('Every rank must be a finite number.');
  }
  const order = values
    .map((_, i) => i)
    .sort((a, b) => {
      const x = values[a];
      const y = values[b];
      if (x === undefined || y === undefined) throw new IndexOutOfRangeError(x === undefined ? a : b, n);
      return x - y || a - b;
    });
  /** The value at position `pos` of the sorted order. */
  const valueAt = (pos: number): number => {
    const i = order[pos];
    const v = i === undefined ? undefined : values[i];
    if (v === undefined) throw new IndexOutOfRangeError(pos, n);
    return v;
  };
  const out = new Array<number>(n);
  let start = 0;
  while (start < n) {
    const first = valueAt(start);
    let end = start + 1;
    while (end < n && valueAt(end) === first) end++;
    // positions start..end-1 (0-based) hold one tie group → ranks start+1..end, mean (start+1+end)/2
    const avg = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) {
      const i = order[k];
      if (i === undefined) throw new IndexOutOfRangeError(k, n);
      out[i] = avg;
    }
    start = end;
  }
  return out;
}

/** Sizes of the tie groups (groups of size ≥ 2) in one rater's values. */
export function tieGroupSizes(values: readonly number[]): number[] {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.values()].filter((t) => t > 1);
}

/** Σ (t³ − t) over the tie groups of one rater: the T_j of the tie-corrected Kendall's W. */
export function tieCorrectionTerm(values: readonly number[]): number {
  let sum = 0;
  for (const t of tieGroupSizes(values)) sum += t * t * t - t;
  return sum;
}

/** Checks that `ranks` is an m × n matrix with m ≥ 1 and n ≥ 2, every row the same length. Returns [m, n]. */
export function matrixShape(ranks: readonly (readonly number[])[]): [number, number] {
  const m = ranks.length;
  if (m < 1) throw new RangeError('At least one rater is needed.');
  const n = at(ranks, 0).length;
  if (n < 2) throw new RangeError('At least two items are needed to measure agreement.');
  for (const row of ranks) {
    if (row.length !== n) throw new RangeError('Every rater must rank the same number of items.');
  }
  return [m, n];
}

/** Average ranks of every rater's row. */
export function averageRankMatrix(ranks: readonly (readonly number[])[]): number[][] {
  return ranks.map((row) => averageRanks(row));
}
