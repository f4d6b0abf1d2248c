/**
 * The lead reopens a decision (issue 38): `teamfusion vote <review> <run-id> --as <lead> --reopen [--iteration <k>]
 * <decision-point>`. The decision stays in its round as history with `reopened: { by, at }` (never silently dropped); it no
 * longer binds a later round nor goes into prompts, and the team may decide the point again. The members' votes are kept as
 * they are: the next vote, or the lead's close, decides from them. What the decision set aside in a round already planned
 * stays aside. Written under the run's lock, like a decision.
 */
import { sameDesigner } from '../../rankings/designerId';
import { typedWords, typingFor } from '../../authorship/typist';
import { loadReview } from '../../review/loadReview';
import { rewriteDeliverables } from '../../run/deliverables/rewriteDeliverables';
import { errorMessage } from '../../kernel/errors';
import { readRunRecord, writeRunRecord } from '../../record/store';
import { acquireRunLock, RunDrivenError } from '../../record/lock';
import { recordFile } from '../../record/paths';
import { standingDecision } from '../../record/decisions';
import { forkOf, lastForkedIteration, voteTeam } from './forks';
import { loadVotes } from './voteFile';
import { voteAuthorCheck } from './authorship';
import { countsText, tallyFork, type Decision } from './tally';
import { VoteError } from './cast';

export interface ReopenRequest {
  reviewRoot: string;
  runId: string;
  /** Who asks: only the lead reopens. */
  as: string;
  /** Default: the last round that forked. */
  iteration?: number;
  decisionPoint: number;
  /** `--sync`: a record that says running or waiting is left to its driver (maybe on another machine). */
  shared?: boolean;
}

export interface ReopenOutcome {
  /** run.json, review-relative. */
  recordFile: string;
  /** The decision as now recorded, with `reopened`. */
  decision: Decision;
  /** One or two sentences: what was reopened, and where the votes stand. */
  note: string;
}

export async function reopenDecision(q: ReopenRequest): Promise<ReopenOutcome> {
  const loaded = await loadReview(q.reviewRoot, { requireRankings: false, decodeImages: false });
  const review = loaded.review;
  if (!review) throw new VoteError(`${q.reviewRoot} is not a review folder that can be read (teamfusion validate says why).`);
  const record = await readRunRecord(q.reviewRoot, q.runId);
  const lead = record.settings.lead ?? review.config.lead;
  // The lead matched in any case, as every --as is (sameDesigner); a reopen is the lead's alone, never typed for them (issue 39).
  if (lead === undefined || !sameDesigner(q.as, lead))
    throw new VoteError(
      lead
        ? `Only the lead (${lead}) reopens a decision.`
        : 'This review has no lead (review.yaml lead:), so nobody can reopen a decision.',
    );
  q = { ...q, as: lead };
  const typing = typingFor(loaded.authorship?.typist, lead, { what: 'a reopen', how: 'reopens it' });
  if ('refused' in typing) throw new VoteError(typing.refused);
  if (!typing.own)
    throw new VoteError(
      `A reopen ${typedWords(typing.typedBy, lead)} is not taken: only the lead reopens a decision, on their own machine.`,
    );
  const iteration = q.iteration ?? lastForkedIteration(record);
  if (iteration === undefined) throw new VoteError(`Run ${record.id} has no fork, so no decision to reopen.`);
  const fork = forkOf(record, iteration, q.decisionPoint);
  if (!fork) throw new VoteError(`Round ${iteration} of run ${record.id} has no fork at decision point ${q.decisionPoint}.`);
  if (q.shared && (record.status === 'running' || record.status === 'waiting')) {
    throw new VoteError(`Run ${record.id} is ${record.status} (its driver may be on another machine); reopen the decision once it stops.`);
  }
  let lock;
  try {
    lock = await acquireRunLock(q.reviewRoot, record.id);
  } catch (err) {
    if (err instanceof RunDrivenError)
      throw new VoteError(`Run ${record.id} is being driven by another process; reopen the decision once it stops.`);
    throw err;
  }
  try {
    const fresh = await readRunRecord(q.reviewRoot, record.id);
    const it = fresh.iterations.find((x) => x.index === iteration);
    const decision = standingDecision(it, fork.question);
    if (!decision) throw new VoteError(`"${fork.question}" is not decided, so there is nothing to reopen.`);
    decision.reopened = { by: q.as, at: new Date().toISOString() };
    fresh.updatedAt = decision.reopened.at;
    await writeRunRecord(q.reviewRoot, fresh, { validate: true });
    const rewritten = await rewriteDeliverables(review, fresh).then(
      () => '',
      (e: unknown) => ` (result.md was not rewritten: ${errorMessage(e)})`,
    );
    const team = voteTeam(fresh, review);
    const { members } = await loadVotes(q.reviewRoot, fresh, team, await voteAuthorCheck(q.reviewRoot, review.config));
    const t = tallyFork(fresh, fork, members, team);
    const aside = fresh.iterations.flatMap((x) =>
      (x.setAside ?? []).filter((s) => s.decidedIn === iteration && s.question === fork.question).map((s) => s.id),
    );
    const votes = t.voters.length
      ? `The ${t.voters.length} vote${t.voters.length === 1 ? '' : 's'} cast are kept (${countsText(t.counts)}); a vote or the lead's close decides it again.`
      : 'Nobody has voted on it; a vote decides it again.';
    return {
      recordFile: recordFile(fresh.id),
      decision,
      note: `Reopened "${fork.question}" (decided: ${decision.decision}; kept as history). ${votes}${aside.length ? ` What it set aside (${aside.join(', ')}) stays aside.` : ''}${rewritten}`,
    };
  } finally {
    await lock.release();
  }
}
