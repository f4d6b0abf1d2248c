/**
 * Who wrote each member's file (issue 39) as the review panel shows it: the same report `validate --json` gives as
 * `authorship` (core authorshipOfLoad over the load's door), its list bounded and its text clipped to what the protocol
 * carries.
 */
import type { LoadResult } from '../../../core/review/model';
import { authorshipOfLoad } from '../../../core/questions/validate';
import type { AuthorshipReport } from '../../../core/authorship/door';
import { PANEL_NOT_COUNTED_MAX, type PanelAuthorship } from '../../../protocol/panelData';

const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** The panel's `authorship` for a load: what its door says once each run's votes have been asked too. */
export async function panelAuthorship(load: LoadResult): Promise<PanelAuthorship> {
  return panelAuthorshipOf((await authorshipOfLoad(load.review, load.authorship)).report);
}

/** A report as the panel's state carries it: at most PANEL_NOT_COUNTED_MAX files, the rest counted in `more`. */
export function panelAuthorshipOf(report: AuthorshipReport): PanelAuthorship {
  const shown = report.notCounted.slice(0, PANEL_NOT_COUNTED_MAX);
  return {
    checked: report.checked,
    ...(!report.checked && report.why ? { why: clip(report.why, 2000) } : {}),
    notCounted: shown.map((n) => ({
      file: clip(n.file, 1000),
      member: clip(n.member, 300),
      commit: clip(n.commit, 100),
      author: clip(n.author, 500),
      reason: clip(n.reason, 2000),
    })),
    more: report.notCounted.length - shown.length,
  };
}
