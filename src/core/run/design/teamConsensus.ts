/**
 * The team's own consensus before a design run (issue 33): the weighted Borda order and the Schulze order of the taking-part
 * designers' rankings, whether they differ, and which one the run falls back on (`consensus`). Kept in run.json so the run
 * reports it and a reader sees what the remix agent was given.
 */
import type { RunRecord } from '../../record/record';
import type { ConsensusMethod } from '../../settings/discussionSettings';
import { bordaCount } from '../../stats/election/borda';
import { schulzeSummary } from '../../stats/election/consensus';
import { averageRankMatrix } from '../../stats/ranks';

type Designer = { weight: number; entries: readonly { option: string; rank: number }[] };

/** Undefined with fewer than two designers or two options, or when someone left an option unranked. */
export function teamConsensus(
  designers: readonly Designer[],
  options: readonly { id: string }[],
  method: ConsensusMethod | undefined,
): RunRecord['consensus'] {
  const ids = options.map((o) => o.id);
  if (designers.length < 2 || ids.length < 2) return undefined;
  const rows = designers.map((d) => ids.map((id) => d.entries.find((e) => e.option === id)?.rank));
  if (rows.some((r) => r.some((x) => x === undefined))) return undefined;
  const ranks = averageRankMatrix(rows as number[][]);
  const weights = designers.map((d) => d.weight);
  const s = schulzeSummary(ranks, ids, weights);
  return {
    method: method ?? 'borda',
    borda: bordaCount(ranks, ids, weights).map((b) => b.option),
    schulze: s.ranking,
    differsFromBorda: s.differsFromBorda,
    ...(s.sentence ? { sentence: s.sentence } : {}),
  };
}
