/**
 * Borda beside Schulze: the two consensus orders of one set of rankings (same weights), whether they differ, the one
 * sentence that says how, and the strict order a run uses under `consensus: borda | schulze`.
 */
import type { ConsensusMethod } from '../../settings/discussionSettings';
import { bordaCount, type BordaEntry } from './borda';
import { averageRankMatrix } from '../ranks';
import { schulzeRanking, strictOrder, type SchulzeResult } from './schulze';

export interface SchulzeSummary {
  /** Tiers best first; options in one tier are tied. */
  ranking: string[][];
  winners: string[];
  /** The tiers differ from the (weighted) Borda order's positions. */
  differsFromBorda: boolean;
  /** The option a majority prefers to every other option, or null. */
  condorcetWinner: string | null;
  /** Where the orders differ, one sentence saying how; null where they agree. */
  sentence: string | null;
}

/** Borda entries as tiers (equal positions are one tier). */
export function bordaTiers(borda: readonly BordaEntry[]): string[][] {
  const tiers: string[][] = [];
  let last = -1;
  for (const e of borda) {
    if (e.position !== last) tiers.push([]);
    tiers[tiers.length - 1]!.push(e.option);
    last = e.position;
  }
  return tiers;
}

function sameTiers(a: readonly (readonly string[])[], b: readonly (readonly string[])[]): boolean {
  return a.length === b.length && a.every((t, i) => t.length === b[i]!.length && t.every((o) => b[i]!.includes(o)));
}

function names(ids: readonly string[]): string {
  if (ids.length <= 1) return ids.join('');
  return `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`;
}

/** "4, 1 = 2, 3": tiers in order, tied options joined by " = ". */
export function tiersText(tiers: readonly (readonly string[])[]): string {
  return tiers.map((t) => t.join(' = ')).join(', ');
}

/** The one sentence where Schulze and Borda differ, e.g. "Borda puts 4 first; a majority prefers 1 to every other option." */
export function differenceSentence(
  borda: readonly (readonly string[])[],
  s: Pick<SchulzeResult, 'ranking' | 'winners' | 'condorcetWinner'>,
  weighted: boolean,
): string | null {
  if (sameTiers(borda, s.ranking)) return null;
  const bordaFirst = borda[0] ?? [];
  const sameFirst = sameTiers([bordaFirst], [s.winners]);
  if (sameFirst) {
    return `${weighted ? 'Weighted Borda' : 'Borda'} and Schulze both put ${names(s.winners)} first but differ further down (Borda: ${tiersText(borda)}; Schulze: ${tiersText(s.ranking)}).`;
  }
  const bordaPart = `${weighted ? 'Weighted Borda' : 'Borda'} puts ${names(bordaFirst)} first${bordaFirst.length > 1 ? ' (tied)' : ''}`;
  const majority = weighted ? 'a weighted majority' : 'a majority';
  if (s.condorcetWinner !== null) return `${bordaPart}; ${majority} prefers ${s.condorcetWinner} to every other option.`;
  const schulzePart = s.winners.length > 1 ? `${names(s.winners)} tie for first` : `${s.winners[0]} comes first`;
  return `${bordaPart}; by the strongest chains of pairwise majorities (Schulze), ${schulzePart}.`;
}

/** Schulze of a rank matrix, compared with the Borda order of the same weights. */
export function schulzeSummary(
  ranks: readonly (readonly number[])[],
  options: readonly string[],
  weights?: readonly number[],
): SchulzeSummary {
  const avg = averageRankMatrix(ranks);
  const s = schulzeRanking(avg, options, weights);
  const borda = bordaTiers(bordaCount(avg, options, weights));
  const weighted = (weights ?? []).some((w) => w !== 1);
  const sentence = differenceSentence(borda, s, weighted);
  return { ranking: s.ranking, winners: s.winners, differsFromBorda: sentence !== null, condorcetWinner: s.condorcetWinner, sentence };
}

/**
 * A strict consensus order of `options` under `method`: Borda (equal points keep the given order) or Schulze (ties inside a
 * tier broken by the higher Borda points, then the given order). Weights count in both.
 */
export function consensusOrder(
  method: ConsensusMethod,
  ranks: readonly (readonly number[])[],
  options: readonly string[],
  weights?: readonly number[],
): string[] {
  const avg = averageRankMatrix(ranks);
  const borda = bordaCount(avg, options, weights);
  if (method === 'borda') return borda.map((b) => b.option);
  const points = new Map(borda.map((b) => [b.option, b.points] as const));
  return strictOrder(schulzeRanking(avg, options, weights).ranking, options, points);
}
