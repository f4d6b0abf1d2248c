/**
 * The authorship report in words (issue 39), for the plain output of validate and compare and for the panel: why nothing
 * is checked, or each file not counted with its member, commit, author and reason.
 */
import type { AuthorshipReport } from './door';
import { NO_EMAILS } from './door';

export function authorshipSentences(r: AuthorshipReport, o: { quietWithoutEmails?: boolean } = {}): string[] {
  if (!r.checked) return r.why && !(o.quietWithoutEmails && r.why === NO_EMAILS) ? [r.why] : [];
  return r.notCounted.map((n) => `Not counted for ${n.member}: ${n.file} (${n.reason}).`);
}
