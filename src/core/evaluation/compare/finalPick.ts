/**
 * The final pick in the blind re-rank (issue 33): the rank the run's final pick got from its lowest-ranking member — how
 * far down the least convinced member put the option the run chose. Ties count as average ranks (2.5 for a tie for second
 * and third), as everywhere in the statistics. Null when the run has no final pick or the re-rank set does not hold it.
 */
import { letterHolds, type RerankKey } from '../../rerank/key';

export interface FinalPickRank {
  /** The final pick's id ("r2") and its letter in the re-rank set. */
  id: string;
  letter: string;
  /** The largest rank any re-ranker gave it (1 = everyone put it first). */
  lowestRank: number;
  /** Options in the re-rank set (the rank's scale). */
  options: number;
  /** Re-rankers counted. */
  members: number;
}

/** `ranks`: one row per re-ranker, one column per letter in `letters` order (average ranks). */
export function finalPickRank(
  finalPick: string | undefined,
  ranks: readonly (readonly number[])[],
  letters: readonly string[],
  key: RerankKey,
): FinalPickRank | null {
  if (finalPick === undefined || ranks.length === 0) return null;
  const letter = letters.find((l) => letterHolds(key[l], finalPick));
  if (letter === undefined) return null;
  const column = letters.indexOf(letter);
  const lowestRank = ranks.reduce((worst, row) => Math.max(worst, row[column] ?? 0), 0);
  return { id: finalPick, letter, lowestRank, options: letters.length, members: ranks.length };
}
