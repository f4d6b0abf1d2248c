/** A ranking file in memory (contract §1: `rankings/<designer-id>.yaml|json`): one designer's order of the options. */

export interface RankingEntry {
  option: string;
  /** As written in the file (integer >= 1; equal numbers are ties). */
  rank: number;
  justification: string;
}

export interface DesignerRanking {
  /** Ranking file name without extension. */
  id: string;
  /** Display name (`designer:` field). */
  name: string;
  role?: string;
  /** > 0, default 1. */
  weight: number;
  /** Relative to the review root: "rankings/alice.yaml". */
  file: string;
  /** In file order. */
  entries: RankingEntry[];
}
