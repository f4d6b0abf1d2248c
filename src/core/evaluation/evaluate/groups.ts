/**
 * `evaluate --by` (issue 32, item 6; issue 33): the runs split by one of GROUP_BY, each group with every overall measure
 * over its runs (the same function as the whole evaluation's, so a measure added there is grouped too) and n, the runs in
 * it. A group of fewer than FEW_RUNS runs says so: its means are shown with their intervals, never as a difference.
 */
import { naturalCompare } from '../../kernel/naturalOrder';
import type { GroupBy } from './groupBy';

/** Below this many runs a group's numbers describe those runs, not a difference between groups. */
export const FEW_RUNS = 5;

export interface GroupHead {
  by: GroupBy;
  value: string;
  /** Runs in the group. */
  n: number;
  /** Fewer than FEW_RUNS runs. */
  tooFew: boolean;
  /** Why the group's numbers cannot say "yes", in words; null when it has enough runs. */
  note: string | null;
}

type Reviewed = { runs: readonly { groupValues: Record<GroupBy, string> }[] };

/** The sentence of a small group. */
export function tooFewNote(n: number): string {
  return `Too few runs (${n} < ${FEW_RUNS}) to tell this group from the others: its numbers describe these runs only.`;
}

/** The reviews' runs grouped by `by` (values in natural order); `measure` gives the measures of the reviews with a group's runs. */
export function groupsOf<R extends Reviewed, O>(reviews: readonly R[], by: GroupBy, measure: (reviews: R[]) => O): (GroupHead & O)[] {
  const values = [...new Set(reviews.flatMap((r) => r.runs.map((run) => run.groupValues[by])))].sort(naturalCompare);
  return values.map((value) => {
    const within = reviews
      .map((r) => ({ ...r, runs: r.runs.filter((run) => run.groupValues[by] === value) }))
      .filter((r) => r.runs.length > 0);
    const n = within.reduce((s, r) => s + r.runs.length, 0);
    return { by, value, n, tooFew: n < FEW_RUNS, note: n < FEW_RUNS ? tooFewNote(n) : null, ...measure(within) };
  });
}
