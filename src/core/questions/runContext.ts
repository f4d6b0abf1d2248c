/**
 * What the run questions read once: the review (never its images), one run record (the named one, else the newest), the
 * members who vote on its forks, their votes as the CLI's vote and compare count them. Any file that cannot be used is one
 * sentence (its diagnostic), never a partial answer.
 */
import { driversRecordRefusal } from '../record/recordAuthor';
import { formatDiagnostic } from '../diagnostics/diagnostics';
import { listInReview } from '../files/reviewFiles';
import { loadReview } from '../review/loadReview';
import type { Review } from '../review/model';
import { RUN_ID_PATTERN, RUNS_DIR } from '../record/paths';
import type { RunRecord } from '../record/record';
import { loadRunRecord } from '../record/store';
import { voteTeam } from '../evaluation/votes/forks';
import { tallyAll, type ForkTally } from '../evaluation/votes/tally';
import { loadVotes } from '../evaluation/votes/voteFile';
import { voteAuthorCheck } from '../evaluation/votes/authorship';
import { QuestionError } from './question';

export interface RunContext {
  review: Review;
  record: RunRecord;
  /** Who votes on the run's forks (voteTeam). */
  team: string[];
  tallies: ForkTally[];
}

/** The review, loaded without its rankings being required (a brief review has none) and without decoding images. */
export async function reviewOf(root: string): Promise<Review> {
  const { review, diagnostics } = await loadReview(root, { requireRankings: false, decodeImages: false });
  if (review) return review;
  const first = diagnostics.find((d) => d.severity === 'error');
  throw new QuestionError(`The review cannot be read${first ? `: ${formatDiagnostic(first)}` : '.'}`);
}

/** The newest run id of a review (by its time-stamped id), or undefined when it has none. */
export async function newestRunId(root: string): Promise<string | undefined> {
  const names = (await listInReview(root, RUNS_DIR).catch(() => undefined)) ?? [];
  const ids = names
    .filter((n) => RUN_ID_PATTERN.test(n))
    .sort()
    .reverse();
  for (const id of ids) {
    const loaded = await loadRunRecord(root, id);
    if (!loaded.missing) return id;
  }
  return undefined;
}

export async function runContext(root: string, runId: string | undefined): Promise<RunContext | { review: Review; record?: undefined }> {
  const review = await reviewOf(root);
  const id = runId ?? (await newestRunId(root));
  if (id === undefined) return { review };
  const loaded = await loadRunRecord(root, id);
  if (!loaded.record) throw new QuestionError(loaded.diagnostics.map(formatDiagnostic)[0] ?? `Run ${id} cannot be read.`);
  // A record someone other than its driver committed is not believed (issue 39): the question is refused, saying why.
  const refused = await driversRecordRefusal(root, id);
  if (refused) throw new QuestionError(refused.sentence);
  const record = loaded.record;
  const team = voteTeam(record, review);
  const votes = await loadVotes(root, record, team, await voteAuthorCheck(root, review.config));
  return { review, record, team, tallies: tallyAll(record, votes.members, team) };
}
