/**
 * The tally of a fork's votes and the decision it makes (issue 33). A fork is decided when every member has voted on it, or
 * when the lead closes it; the winner is the position with the most votes. A tie decides nothing: the lead's close on a tie is
 * refused in words (a vote must break it). A decision is recorded once on that fork round's `decisions` — also on a
 * completed run — as { question, decision, by, via: "human", voters, counts }; the round itself is never run again.
 */
import type { Iteration, RunRecord } from '../../record/record';
import { standingDecision } from '../../record/decisions';
import type { Fork } from './forks';
import { forksOf } from './forks';
import { closeWords, decidedBy } from '../../discussion/decisionWords';
import type { MemberVotes } from './voteFile';

export interface ForkTally {
  iteration: number;
  decisionPoint: number;
  question: string;
  /** Votes per position, every side listed (0 when nobody chose it). */
  counts: Record<string, number>;
  voters: string[];
  /** Members who have not voted on it yet. */
  missing: string[];
  /** The position with the most votes; null while none or tied. */
  leader: string | null;
  /**
   * Settled: recorded as a decision of its round, or decided by the votes themselves (every member voted, one side leads),
   * whether or not the driver's record has taken it in yet (issue 39: a member's vote never needs to write run.json).
   */
  decided: boolean;
  /** Already recorded as a standing decision of its round in run.json. */
  recorded: boolean;
  /** The side settled: the recorded decision's, else the votes' when they decide; null while open. */
  decision: string | null;
  /** A lead's close, in words with how many of the team had voted ("the lead closed it with 1 of 3 votes"); never "the team's vote". */
  closed?: string;
}

export type Decision = NonNullable<Iteration['decisions']>[number];

/** The decision on `question` that stands (a reopened one is history: the point can be decided again). */
function decisionOn(it: Iteration | undefined, question: string): Decision | undefined {
  return standingDecision(it, question);
}

export function tallyFork(
  record: Pick<RunRecord, 'iterations'>,
  fork: Fork,
  members: readonly MemberVotes[],
  team: readonly string[],
): ForkTally {
  const counts: Record<string, number> = Object.fromEntries(fork.sides.map((s) => [s.position, 0]));
  const voters: string[] = [];
  for (const m of members) {
    if (!team.includes(m.designer)) continue;
    // A vote typed for the member on someone else's machine is never theirs (issue 39).
    const v = m.votes.find((x) => x.iteration === fork.iteration && x.decisionPoint === fork.decisionPoint && x.typedBy === undefined);
    const side = v && fork.sides.find((s) => s.id === v.choice);
    if (!side) continue;
    counts[side.position] = (counts[side.position] ?? 0) + 1;
    voters.push(m.designer);
  }
  const top = Math.max(0, ...Object.values(counts));
  const leaders = Object.keys(counts).filter((p) => counts[p] === top);
  const it = record.iterations.find((x) => x.index === fork.iteration);
  const recorded = decisionOn(it, fork.question);
  const missing = team.filter((id) => !voters.includes(id));
  const leader = top > 0 && leaders.length === 1 ? leaders[0]! : null;
  // Votes decide by themselves only a point never decided before: after a reopen the old votes stay, so a new vote recorded
  // by the driver or the lead's close decides it again.
  const reopened = (it?.decisions ?? []).some((d) => d.question === fork.question);
  const byVotes = missing.length === 0 && !reopened ? leader : null;
  return {
    iteration: fork.iteration,
    decisionPoint: fork.decisionPoint,
    question: fork.question,
    counts,
    voters,
    missing,
    leader,
    decided: recorded !== undefined || byVotes !== null,
    recorded: recorded !== undefined,
    decision: recorded?.decision ?? byVotes,
    ...(recorded && decidedBy(recorded) === 'the lead closing the vote' ? { closed: closeWords(recorded, team.length) } : {}),
  };
}

export function tallyAll(record: Pick<RunRecord, 'iterations'>, members: readonly MemberVotes[], team: readonly string[]): ForkTally[] {
  return forksOf(record).map((f) => tallyFork(record, f, members, team));
}

/** Who ends a vote before everyone has voted: the lead, by closing it — or, under `hierarchy: lead-decides`, by choosing a side in person. */
export interface Close {
  /** The lead's designer id. */
  by: string;
  /** Under `lead-decides`: the position the lead chose in person (it wins whatever the counts). */
  inPerson?: string;
}

/**
 * Records the decision of a tally on its round when it is due: everyone voted (`by: "team"`), or the lead closes it (`by`:
 * the lead; the count's winner, or under `lead-decides` the side the lead chose in person). Returns the decision added, or a
 * sentence saying why nothing was recorded. Never records one question twice.
 */
export function recordDecision(record: RunRecord, t: ForkTally, close?: Close, at = new Date().toISOString()): Decision | string {
  const it = record.iterations.find((x) => x.index === t.iteration);
  if (!it) return `Round ${t.iteration} is not in this run.`;
  const already = decisionOn(it, t.question);
  if (already) return `"${t.question}" is already decided: ${already.decision}.`;
  if (t.missing.length && !close) return `Waiting for ${t.missing.join(', ')} to vote on "${t.question}".`;
  const side = close?.inPerson ?? t.leader;
  if (side === null || side === undefined) {
    return t.voters.length
      ? `The vote on "${t.question}" is tied (${countsText(t.counts)}); another vote must break the tie.`
      : `Nobody has voted on "${t.question}" yet.`;
  }
  if (!Object.hasOwn(t.counts, side)) return `"${side}" is not a side of "${t.question}".`;
  const decision: Decision = {
    question: t.question,
    decision: side,
    by: close?.by ?? 'team',
    via: 'human',
    at,
    voters: [...t.voters],
    counts: { ...t.counts },
  };
  it.decisions = [...(it.decisions ?? []), decision];
  return decision;
}

/**
 * The decisions the votes make that the record has not taken in yet (issue 39), recorded on their rounds of `record` by the
 * driver (who alone writes run.json) before the next round is planned, so the decision binds it. Returns those added.
 */
export function takeInVoteDecisions(
  record: RunRecord,
  members: readonly MemberVotes[],
  team: readonly string[],
  at = new Date().toISOString(),
): Decision[] {
  const added: Decision[] = [];
  for (const t of tallyAll(record, members, team)) {
    if (t.recorded || t.decision === null) continue;
    const made = recordDecision(record, t, undefined, at);
    if (typeof made !== 'string') added.push(made);
  }
  return added;
}

/** "warm palette 3, cool palette 1". */
export function countsText(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .map(([p, n]) => `${p} ${n}`)
    .join(', ');
}

export { marginText } from '../../discussion/decisionWords';
