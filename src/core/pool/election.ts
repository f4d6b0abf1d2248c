/**
 * The pool's election (issue 41): Schulze over the proxies' rankings of the pool's letters, each member counted with their
 * weight; a tie inside a Schulze tier goes to the higher weighted Borda points, then to the earlier letter (the agent's
 * own order), as stats/election/schulze.ts documents. The first `elect` letters of that order are elected.
 */
import type { Pool } from '../record/record';
import { consensusOrder } from '../stats/election/consensus';

/** The pool's letters in Schulze order of `rankings` (members without a weight weigh 1); the agent's order without any. */
export function poolOrder(pool: Pick<Pool, 'candidates' | 'rankings'>, weights: ReadonlyMap<string, number>): string[] {
  const letters = pool.candidates.map((c) => c.letter);
  const members = Object.keys(pool.rankings).filter((m) => isPermutation(pool.rankings[m]!, letters));
  if (members.length === 0 || letters.length < 2) return letters;
  const rows = members.map((m) => letters.map((l) => pool.rankings[m]!.indexOf(l) + 1));
  return consensusOrder(
    'schulze',
    rows,
    letters,
    members.map((m) => weights.get(m) ?? 1),
  );
}

/** The letters elected: the first `elect` of the Schulze order (at most the pool). */
export function electPool(pool: Pick<Pool, 'candidates' | 'rankings'>, weights: ReadonlyMap<string, number>, elect: number): string[] {
  return poolOrder(pool, weights).slice(0, Math.max(1, elect));
}

/** Every letter exactly once. */
export function isPermutation(ranking: readonly string[], letters: readonly string[]): boolean {
  return ranking.length === letters.length && new Set(ranking).size === letters.length && ranking.every((l) => letters.includes(l));
}
