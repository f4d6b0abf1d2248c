/**
 * The problems of a review folder (`teamfusion validate`, the `validate` question): one function for the CLI, the MCP server
 * and VS Code. A usual-way review (review.yaml `condition: usual`) may have no rankings, and its decision file is checked too.
 */
import { warning, type Diagnostic } from '../diagnostics/diagnostics';
import { loadReview } from '../review/loadReview';
import type { Review } from '../review/model';
import { usualWayDiagnostics } from '../evaluation/evaluate/baseline';
import type { AuthorshipDoor, AuthorshipReport } from '../authorship/door';
import { listRunEntries } from '../record/store';
import { loadVotes } from '../evaluation/votes/voteFile';
import { voteCheckOf } from '../evaluation/votes/authorship';
import { voteTeam } from '../evaluation/votes/forks';
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
  if (review?.config.condition === 'usual')
    diagnostics = [
      ...diagnostics,
      ...(await usualWayDiagnostics(
        review.root,
        review.options.map((o) => o.id),
      )),
    ];
  // criteria.json as checked again at this read: what it says that is not borne out is ignored, and said on the file.
  if (review) diagnostics = [...diagnostics, ...(await criteriaWarnings(review))];
  const { report, votes } = await authorshipOfLoad(review, authorship);
  diagnostics = [...diagnostics, ...votes];
  const rewritten = report.checked ? rewriteSentence(report) : undefined;
  if (rewritten) diagnostics = [...diagnostics, warning('.', rewritten)];
  return review ? { review, diagnostics, authorship: report } : { diagnostics, authorship: report };
}

/**
 * What the door of a load says about who wrote each member's file (issue 39), once each run's votes have been asked too:
 * validate's `authorship` and the review panel's. `votes`: the votes that no longer count, as warnings on their files.
 */
export async function authorshipOfLoad(
  review: Review | undefined,
  door: AuthorshipDoor | undefined,
): Promise<{ report: AuthorshipReport; votes: Diagnostic[] }> {
  const votes = review && door?.checked && review.config.condition !== 'usual' ? await runVotesNotCounted(review, door) : [];
  const report = door?.report() ?? {
    checked: false,
    why: "Who wrote each member's file could not be asked: the review could not be read.",
    notCounted: [],
  };
  return { report, votes };
}

/** "6 options, 4 designers" / "3 comments on the brief": what a valid review holds, in words. */
export function validSummary(review: Review): string {
  const parts =
    review.options.length > 0 || review.comments.length === 0
      ? [`${review.options.length} options`, `${review.designers.length} designer${review.designers.length === 1 ? '' : 's'}`]
      : [];
  if (review.comments.length > 0) parts.push(`${review.comments.length} comment${review.comments.length === 1 ? '' : 's'} on the brief`);
  return parts.join(', ');
}

/** The votes files of every run that are not counted (their member did not commit them as they are), as warnings. */
async function runVotesNotCounted(review: Review, door: AuthorshipDoor): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const check = voteCheckOf(door);
  for (const entry of await listRunEntries(review.root)) {
    if (!entry.record) continue;
    const { diagnostics, unauthored } = await loadVotes(review.root, entry.record, voteTeam(entry.record, review), check);
    for (const d of diagnostics) if (unauthored.has(d.file)) out.push({ ...d, severity: 'warning' });
  }
  return out;
}

/**
 * History rewritten (issue 39): one commit that wrote the files of two or more members is no member's own — a squash, a
 * rebase that re-authored them, or someone committing for others. Said once, in words, instead of only refusing each file.
 */
export function rewriteSentence(report: AuthorshipReport): string | undefined {
  const byCommit = new Map<string, { author: string; members: Set<string>; files: number }>();
  for (const n of report.notCounted) {
    if (n.commit === '(uncommitted)') continue;
    const g = byCommit.get(n.commit) ?? { author: n.author, members: new Set<string>(), files: 0 };
    g.members.add(n.member);
    g.files++;
    byCommit.set(n.commit, g);
  }
  const [commit, g] = [...byCommit.entries()].filter(([, x]) => x.members.size >= 2).sort((a, b) => b[1].files - a[1].files)[0] ?? [];
  if (!commit || !g) return undefined;
  return (
    `History rewritten? Commit ${commit.slice(0, 12)} by ${g.author} wrote the files of ${g.members.size} members (${[...g.members].sort().join(', ')}), so none of those files counts: ` +
    "each member's file counts only as that member committed it, and a squash or a rebase that re-authors commits voids their rankings and votes (docs/sync.md). " +
    'Undo the rewrite, or have each member commit their own file again (a vote of the same choice with --sync does).'
  );
}
