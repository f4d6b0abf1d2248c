/**
 * A pooled round side by side (issue 41), as the panel shows it: each candidate's directions with who ranked it first,
 * whether it was elected and the remix it became. Pure (types only), so the webview bundle can use it (protocol/shared.ts).
 */
import type { Iteration } from '../record/record';
import { remixesOf } from '../record/remixes';

export interface PoolColumn {
  letter: string;
  editingDirections: string;
  differs: string;
  from: string[];
  /** Members whose ranking put this candidate first, in the record's order. */
  rankedFirstBy: string[];
  elected: boolean;
  /** The remix the elected candidate became (its letter), when it is made. */
  remix?: string;
}

export interface PoolTable {
  iteration: number;
  diversity: number;
  reasked: boolean;
  columns: PoolColumn[];
  /** Members left out of the election, with why. */
  leftOut: { member: string; reason: string }[];
}

/** The round's pool as columns in letter order; undefined when the round has no pool. */
export function poolTableOf(it: Pick<Iteration, 'index' | 'pool' | 'remix' | 'remixes'>): PoolTable | undefined {
  const p = it.pool;
  if (!p) return undefined;
  const made = remixesOf(it);
  const single = made.length === 1 && p.elected.length === 1 ? made[0] : undefined;
  return {
    iteration: it.index,
    diversity: p.diversity,
    reasked: p.reasked,
    leftOut: p.leftOut ?? [],
    columns: p.candidates.map((c) => {
      const elected = p.elected.includes(c.letter);
      const remix = elected ? (made.find((m) => m.letter === c.letter) ?? single)?.id : undefined;
      return {
        letter: c.letter,
        editingDirections: c.editingDirections,
        differs: c.differs,
        from: [...c.from],
        rankedFirstBy: Object.entries(p.rankings)
          .filter(([, r]) => r[0] === c.letter)
          .map(([m]) => m),
        elected,
        ...(remix ? { remix } : {}),
      };
    }),
  };
}
