/**
 * The team's own consensus order of a round's candidates, from the designers' rankings (weights count): the order a remix
 * agent breaks ties by and fills a short ranking with. `consensus: borda` (default) or `schulze` (review.yaml) chooses it.
 */
import type { ConsensusMethod } from '../settings/discussionSettings';
import { consensusOrder } from '../stats/election/consensus';

export interface TeamRanking {
  weight: number;
  entries: readonly { option: string; rank: number }[];
}

/**
 * Candidates every designer ranked come first, in the chosen consensus order (Borda: equal points keep the given order;
 * Schulze: a tie inside a tier goes to the higher weighted Borda points, then the given order); candidates no designer
 * ranked (remixes) keep their place after them, in the given order.
 */
export function teamOrder(designers: readonly TeamRanking[], candidateIds: readonly string[], method: ConsensusMethod): string[] {
  const ranked = candidateIds.filter((id) => designers.length > 0 && designers.every((d) => d.entries.some((e) => e.option === id)));
  if (ranked.length < 2) return [...candidateIds];
  const matrix = designers.map((d) => ranked.map((id) => d.entries.find((e) => e.option === id)!.rank));
  const order = consensusOrder(
    method,
    matrix,
    ranked,
    designers.map((d) => d.weight),
  );
  return [...order, ...candidateIds.filter((id) => !ranked.includes(id))];
}
