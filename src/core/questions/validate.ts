/**
 * The problems of a review folder (`teamfusion validate`, the `validate` question): one function for the CLI, the MCP server
 * and VS Code. A usual-way review (review.yaml `condition: usual`) may have no rankings, and its decision file is checked too.
 */
import type { Diagnostic } from '../diagnostics/diagnostics';
import { loadReview } from '../review/loadReview';
import type { Review } from '../review/model';
import { usualWayDiagnostics } from '../evaluation/baseline';
import type { AuthorshipReport } from '../authorship/door';
import { criteriaWarnings } from '../criteria/summary';

export interface ValidateResult {
  review?: Review;
  diagnostics: Diagnostic[];
  /** Who wrote each member's file (issue 39): checked or why not, and the files not counted. */
  authorship: AuthorshipReport;
}

export async function validateFolder(target: string): Promise<ValidateResult> {
  let { review, diagnostics, authorship } = await loadReview(target, { requireRankings: true });
  if (!review) {
    // A usual-way review (condition: usual) may have no rankings: the team decided without ranking first.
    const loose = await loadReview(target, { requireRankings: false });
    if (loose.review?.config.condition === 'usual') ({ review, diagnostics, authorship } = loose);
  }
  if (review?.config.condition === 'usual') diagnostics = [...diagnostics, ...(await usualWayDiagnostics(review.root, review.options.map((o) => o.id)))];
  // criteria.json as checked again at this read: what it says that is not borne out is ignored, and said on the file.
  if (review) diagnostics = [...diagnostics, ...(await criteriaWarnings(review))];
  const report = authorship?.report() ?? { checked: false, why: 'Who wrote each member\'s file could not be asked: the review could not be read.', notCounted: [] };
  return review ? { review, diagnostics, authorship: report } : { diagnostics, authorship: report };
}

/** "6 options, 4 designers" / "3 comments on the brief": what a valid review holds, in words. */
export function validSummary(review: Review): string {
  const parts = review.options.length > 0 || review.comments.length === 0
    ? [`${review.options.length} options`, `${review.designers.length} designer${review.designers.length === 1 ? '' : 's'}`]
    : [];
  if (review.comments.length > 0) parts.push(`${review.comments.length} comment${review.comments.length === 1 ? '' : 's'} on the brief`);
  return parts.join(', ');
}
