/**
 * `vote`: one member's vote on a fork, and the lead's close (issue 33). The vote goes into the member's own votes file
 * (a later vote on the same question replaces theirs); when every member has voted (or the lead closes), the decision is
 * written into that fork round's `decisions` in run.json under the run's lock — also on a completed run. A run another
 * process is driving keeps its record: the vote is saved and the decision waits for the next vote or close.
 */
import { loadReview } from '../../review/loadReview';
import { readRunRecord, writeRunRecord } from '../../record/store';
import { acquireRunLock, RunDrivenError } from '../../record/lock';
import { forkOf, lastForkedIteration, sideOf, type Fork } from './forks';
import { loadVotes, writeVotes, type Vote } from './voteFile';
import { countsText, recordDecision, tallyFork, type Decision, type ForkTally } from './tally';

export class VoteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VoteError';
  }
}

export interface VoteRequest {
  reviewRoot: string;
  runId: string;
  as: string;
  /** Default: the last round that forked. */
  iteration?: number;
  decisionPoint: number;
  /** The fork's remix id or letter; may be left out when closing. */
  choice?: string;
  close?: boolean;
}

export interface VoteOutcome {
  file?: string;
  tally: ForkTally;
  decision?: Decision;
  /** One sentence on where the vote stands. */
  note: string;
}

export async function castVote(q: VoteRequest): Promise<VoteOutcome> {
  const loaded = await loadReview(q.reviewRoot, { requireRankings: false, decodeImages: false });
  if (!loaded.review) throw new VoteError(`${q.reviewRoot} is not a review folder that can be read (teamfusion validate says why).`);
  const record = await readRunRecord(q.reviewRoot, q.runId);
  const team = record.settings.designers ?? loaded.review.designers.map((d) => d.id);
  if (!team.includes(q.as)) throw new VoteError(`"${q.as}" is not on the team of run ${record.id} (${team.join(', ')}); each member votes only as themselves.`);
  const lead = record.settings.lead ?? loaded.review.config.lead;
  if (q.close && q.as !== lead) throw new VoteError(lead ? `Only the lead (${lead}) closes a vote.` : 'This review has no lead (review.yaml lead:), so nobody can close a vote; it closes when every member has voted.');
  const iteration = q.iteration ?? lastForkedIteration(record);
  if (iteration === undefined) throw new VoteError(`Run ${record.id} has no fork to vote on.`);
  const fork = forkOf(record, iteration, q.decisionPoint);
  if (!fork) throw new VoteError(`Round ${iteration} of run ${record.id} has no fork at decision point ${q.decisionPoint}.`);
  let file: string | undefined;
  if (q.choice !== undefined) file = await saveVote(q, record, fork);
  else if (!q.close) throw new VoteError('Give your choice: the fork\'s remix id or letter.');
  const { members } = await loadVotes(q.reviewRoot, record, team);
  const tally = tallyFork(record, fork, members, team);
  const due = q.close || tally.missing.length === 0;
  if (!due || tally.decided) return { ...(file ? { file } : {}), tally, note: tally.decided ? `"${fork.question}" was already decided; the vote is kept.` : `${tally.voters.length} of ${team.length} have voted (${countsText(tally.counts)}); waiting for ${tally.missing.join(', ')}.` };
  let lock;
  try {
    lock = await acquireRunLock(q.reviewRoot, record.id);
  } catch (err) {
    if (!(err instanceof RunDrivenError)) throw err;
    return { ...(file ? { file } : {}), tally, note: `Run ${record.id} is being driven by another process, so the decision is not written now; vote again or close the vote once it stops.` };
  }
  try {
    const fresh = await readRunRecord(q.reviewRoot, record.id);
    const t = tallyFork(fresh, fork, members, team);
    const made = recordDecision(fresh, t, q.close ? q.as : undefined);
    if (typeof made === 'string') {
      if (q.close) throw new VoteError(made);
      return { ...(file ? { file } : {}), tally: t, note: made };
    }
    fresh.updatedAt = new Date().toISOString();
    await writeRunRecord(q.reviewRoot, fresh, { validate: true });
    return { ...(file ? { file } : {}), tally: t, decision: made, note: `Decided: ${made.decision} (${countsText(t.counts)}); the next refinement carries it.` };
  } finally {
    await lock.release();
  }
}

async function saveVote(q: VoteRequest, record: Awaited<ReturnType<typeof readRunRecord>>, fork: Fork): Promise<string> {
  const side = sideOf(fork, q.choice!);
  if (!side) throw new VoteError(`"${q.choice}" is not a side of this fork; choose ${fork.sides.map((s) => `${s.id}${s.letter ? ` (${s.letter})` : ''} = ${s.position}`).join(', ')}.`);
  const { members, diagnostics } = await loadVotes(q.reviewRoot, record, [q.as]);
  const mine = members.find((m) => m.designer === q.as);
  const own = diagnostics.find((d) => d.severity === 'error' && d.file.endsWith(`/${q.as}.yaml`));
  if (own) throw new VoteError(`Your votes file has a problem; fix it first: ${own.file}:${own.line}:${own.column}: ${own.message}`);
  const votes: Vote[] = (mine?.votes ?? []).filter((v) => !(v.iteration === fork.iteration && v.decisionPoint === fork.decisionPoint));
  votes.push({ iteration: fork.iteration, decisionPoint: fork.decisionPoint, choice: side.id });
  return writeVotes(q.reviewRoot, record, q.as, votes);
}
