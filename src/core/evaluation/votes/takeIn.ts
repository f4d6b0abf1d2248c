/**
 * The driver takes the team's vote into its record (issue 39). A member's vote never writes run.json: when the members' own
 * attributed vote files decide a fork, the driver — holding the run's lock at its next refine or resume — records that
 * decision on the fork's round before the next round is planned, so it binds that round (fork/binding.ts). The run room
 * sits below this one, so the CLI and the extension hand `takeInVotesOf` to the engine (RunnerOptions.takeInDecisions).
 */
import type { Review } from '../../review/model';
import type { RunRecord } from '../../record/record';
import { printable } from '../../kernel/text';
import { voteAuthorCheck } from './authorship';
import { voteTeam } from './forks';
import { loadVotes } from './voteFile';
import { countsText, takeInVoteDecisions } from './tally';

/** Records on `record` (in memory) the decisions the attributed votes make that it lacks; one sentence per decision taken in. */
export async function takeInVotesOf(review: Review, record: RunRecord): Promise<string[]> {
  const team = voteTeam(record, review);
  const { members } = await loadVotes(review.root, record, team, await voteAuthorCheck(review.root, review.config));
  const added = takeInVoteDecisions(record, members, team);
  if (added.length) record.updatedAt = new Date().toISOString();
  return added.map(
    (d) =>
      `Decided by the votes: ${printable(d.decision)} on "${printable(d.question)}" (${printable(countsText(d.counts ?? {}))}); recorded in run.json.`,
  );
}
