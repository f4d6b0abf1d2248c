/**
 * Words for an agreement comparison, shared by the CLI and the review panel (pure: no Node or vscode import, so the
 * webview bundle can use it too).
 */
import type { AgreementBand } from '../stats/kendallW';
import { bandWords, formatW } from '../stats/sentence';

export interface SideForWords {
  w: number;
  band: AgreementBand;
}

export interface ComparisonForWords {
  before: SideForWords;
  after?: SideForWords;
  converged?: boolean;
  rerankings: number;
}

/** Re-rankings needed before W after can be computed. */
export const RERANKINGS_NEEDED = 2;

/** "0.39 (fair)". */
export function formatSide(s: SideForWords): string {
  return `${formatW(s.w)} (${bandWords(s.band)})`;
}

/** "converged" / "did not converge" / "waiting for re-rankings (1 of 2)". */
export function verdictWords(c: ComparisonForWords): string {
  if (!c.after) return `waiting for re-rankings (${Math.min(c.rerankings, RERANKINGS_NEEDED)} of ${RERANKINGS_NEEDED})`;
  return c.converged ? 'converged' : 'did not converge';
}

/** "Agreement before → after: W 0.39 (fair) → 0.62 (substantial) — converged". */
export function formatAgreementLine(c: ComparisonForWords): string {
  const after = c.after ? formatSide(c.after) : '…';
  return `Agreement before → after: W ${formatSide(c.before)} → ${after} — ${verdictWords(c)}`;
}
