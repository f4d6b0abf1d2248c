/**
 * `vote`: one member's vote on a fork, and the lead's close (issue 33). The vote goes into the member's own votes file
 * (a later vote on the same question replaces theirs); when every member has voted (or the lead closes), the decision is
 * written into that fork round's `decisions` in run.json under the run's lock — also on a completed run. A run another
 * process is driving keeps its record: the vote is saved and the decision waits for the next vote or close. Under
 * `hierarchy: lead-decides` the lead may decide in person: their close with a choice records that side (`by` the lead,
 * `via: human`), whatever the counts. Votes count only as their author (authorship.ts) wherever the team names git e-mails.
 * Only the run's driver writes run.json (issue 39): on a machine whose git e-mail is not the driver's (once run.json is
 * committed) the decision is computed from the votes and said, never written; the driver's next refine or resume takes it in
 * (takeIn.ts), and every reader recomputes it from the vote files meanwhile (tally.ts `decision`).
 * The CLI and the panel both vote through `castVote`.
 */
import * as path from 'node:path';
import { loadReview } from '../../review/loadReview';
import { rewriteDeliverables } from '../../run/deliverables/rewriteDeliverables';
import { errorMessage } from '../../kernel/errors';
import { readRunRecord, writeRunRecord } from '../../record/store';
import { acquireRunLock, RunDrivenError } from '../../record/lock';
import { recordFile } from '../../record/paths';
import type { RunRecord } from '../../record/record';
import { discussionOf } from '../../settings/discussionSettings';
import { formatDiagnostic } from '../../diagnostics/diagnostics';
import { forkOf, lastForkedIteration, sideOf, voteTeam, type Fork } from './forks';
import { checkVotesText, loadVotes, typedVoteSentence, votesRel, writeVotes, type Vote } from './voteFile';
import { sameDesigner } from '../../rankings/designerId';
import { readKindText } from '../../files/fileKinds';
import { typedWords, typingFor } from '../../authorship/typist';
import { personName, teamOf } from '../../people/team';
import { countsText, recordDecision, tallyFork, type Close, type Decision, type ForkTally } from './tally';
import { voteCheckOf, type AuthorCheck } from './authorship';
import { sideOutOfRunning } from '../../fork/binding';

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
  /**
   * The run may be driven on another machine (`vote --sync`): a record that says running or waiting is left to its
   * driver (the local lock cannot see a driver elsewhere); the vote is saved and the decision waits.
   */
  shared?: boolean;
}

export interface VoteOutcome {
  file?: string;
  /** run.json (review-relative) when the decision was written into it. */
  recordFile?: string;
  tally: ForkTally;
  decision?: Decision;
  /** One sentence on where the vote stands. */
  note: string;
  /** Said before the note when the member's votes file was last committed by someone else and is replaced. */
  replaced?: string;
  /** Votes files not counted because their last commit is not their member's (`file:line:col: error: …`). */
  refused?: string[];
  /** (issue 39) The vote was typed on this machine for another member: kept, not counted as theirs, in one sentence. */
  typed?: string;
}

/** Members as people read them on the command line: "Ana Ruiz (ana), dina" (the id alone when that is all there is). */
function whoAre(team: ReturnType<typeof teamOf>, ids: readonly string[]): string {
  return ids
    .map((id) => {
      const name = personName(team, id);
      return name !== id ? `${name} (${id})` : id;
    })
    .join(', ');
}

export async function castVote(q: VoteRequest): Promise<VoteOutcome> {
  const loaded = await loadReview(q.reviewRoot, { requireRankings: false, decodeImages: false });
  const review = loaded.review;
  if (!review) throw new VoteError(`${q.reviewRoot} is not a review folder that can be read (teamfusion validate says why).`);
  const record = await readRunRecord(q.reviewRoot, q.runId);
  const team = voteTeam(record, review);
  // The member as the team spells them: ids match in any case (sameDesigner), as they do for say and pin.
  const member = team.find((id) => sameDesigner(id, q.as));
  if (member === undefined)
    throw new VoteError(`"${q.as}" is not on the team of run ${record.id} (${team.join(', ')}); each member votes only as themselves.`);
  q = { ...q, as: member };
  const lead = record.settings.lead ?? review.config.lead;
  if (q.close && (lead === undefined || !sameDesigner(q.as, lead)))
    throw new VoteError(
      lead
        ? `Only the lead (${lead}) closes a vote.`
        : 'This review has no lead (review.yaml lead:), so nobody can close a vote; it closes when every member has voted.',
    );
  const iteration = q.iteration ?? lastForkedIteration(record);
  if (iteration === undefined) throw new VoteError(`Run ${record.id} has no fork to vote on.`);
  const fork = forkOf(record, iteration, q.decisionPoint);
  if (!fork) throw new VoteError(`Round ${iteration} of run ${record.id} has no fork at decision point ${q.decisionPoint}.`);
  const authored = loaded.authorship && voteCheckOf(loaded.authorship);
  // Who is at the keyboard (issue 39, authorship/typist.ts): a vote entered here for another member is typed for them —
  // kept, marked and never counted as theirs; refused whole where signatures are required. A close is the lead's alone.
  const names = teamOf(review, record);
  const typing = typingFor(loaded.authorship?.typist, q.as, {
    what: q.choice !== undefined && !q.close ? 'a vote' : 'a close',
    how: q.close ? 'closes it' : 'votes',
    ids: team,
    name: (id) => personName(names, id),
  });
  if ('refused' in typing) throw new VoteError(typing.refused);
  const typedBy = typing.own ? undefined : typing.typedBy;
  if (typedBy !== undefined && q.close) {
    throw new VoteError(
      `A close ${typedWords(typedBy, q.as, (id) => personName(names, id))} is not taken: only the lead closes a vote, on their own machine.`,
    );
  }
  let saved: { file: string; replaced?: string } | undefined;
  if (q.choice !== undefined) saved = await saveVote(q, record, fork, authored, typedBy);
  else if (!q.close) throw new VoteError("Give your choice: the fork's remix id or letter.");
  const mine: Pick<VoteOutcome, 'file' | 'replaced' | 'refused' | 'typed'> = saved
    ? { file: saved.file, ...(saved.replaced ? { replaced: saved.replaced } : {}) }
    : {};
  if (saved && typedBy !== undefined) {
    const side = sideOf(fork, q.choice ?? '')!;
    mine.typed = `${typedVoteSentence({ iteration: fork.iteration, decisionPoint: fork.decisionPoint, choice: side.id, typedBy }, q.as, (id) => personName(names, id))} It is kept in ${saved.file}; ${personName(names, q.as)} votes on their own machine (teamfusion vote … --as ${q.as}).`;
  }
  // The file this command just wrote for the voter is theirs, whoever committed it last (it is committed after, with --sync);
  // a vote typed here for another member is not (it goes through the door like anyone's).
  const counted: AuthorCheck | undefined =
    authored && (async (rel, designer) => (saved && typedBy === undefined && designer === q.as ? undefined : authored(rel, designer)));
  const { members, diagnostics, unauthored } = await loadVotes(q.reviewRoot, record, team, counted);
  // Whose votes are not counted because someone else committed them: said, file and commit, every time the votes are counted
  // (the file just typed for another member is said once, by `typed`).
  const refused = diagnostics.filter((d) => unauthored.has(d.file) && !(mine.typed && d.file === saved?.file)).map(formatDiagnostic);
  if (refused.length) Object.assign(mine, { refused });
  const tally = tallyFork(record, fork, members, team);
  const due = q.close || tally.missing.length === 0;
  if (!due || tally.recorded)
    return {
      ...mine,
      tally,
      note: tally.recorded
        ? `"${fork.question}" was already decided; the vote is kept.`
        : `${tally.voters.length} of ${team.length} have voted (${countsText(tally.counts)}); waiting for ${whoAre(teamOf(review, record), tally.missing)}.`,
    };
  const close = q.close ? closeOf(q, record, fork) : undefined;
  // Only the run's driver writes its record (issue 39): on anyone else's machine the decision is computed, never written.
  const door = loaded.authorship;
  if (door && !(await door.mayWriteRecord(path.join(door.root, ...recordFile(record.id).split('/'))))) {
    return { ...mine, ...computedDecision(record, tally, close) };
  }
  const waits = `so the decision is not written now; vote again or close the vote once it stops.`;
  if (q.shared && (record.status === 'running' || record.status === 'waiting')) {
    return { ...mine, tally, note: `Run ${record.id} is ${record.status} (its driver may be on another machine), ${waits}` };
  }
  let lock;
  try {
    lock = await acquireRunLock(q.reviewRoot, record.id);
  } catch (err) {
    if (!(err instanceof RunDrivenError)) throw err;
    return { ...mine, tally, note: `Run ${record.id} is being driven by another process, ${waits}` };
  }
  try {
    const fresh = await readRunRecord(q.reviewRoot, record.id);
    const t = tallyFork(fresh, fork, members, team);
    const made = recordDecision(fresh, t, close);
    if (typeof made === 'string') {
      if (q.close) throw new VoteError(made);
      return { ...mine, tally: t, note: made };
    }
    fresh.updatedAt = new Date().toISOString();
    await writeRunRecord(q.reviewRoot, fresh, { validate: true });
    // The run's result says who settled it; a run that ended before the vote has its result.md and transcript.md rewritten.
    const rewritten = await rewriteDeliverables(review, fresh).then(
      () => undefined,
      (e: unknown) => ` (result.md was not rewritten: ${errorMessage(e)})`,
    );
    const how = close?.inPerson !== undefined ? `the lead's decision in person; votes: ${countsText(t.counts)}` : countsText(t.counts);
    // A side set aside already (by an earlier decision on this point, since reopened) is said: the decision is history only.
    const out = sideOutOfRunning(fresh.iterations, t.iteration, made);
    return {
      ...mine,
      recordFile: recordFile(record.id),
      tally: t,
      decision: made,
      note: `Decided: ${made.decision} (${how}); ${out ?? 'the next refinement carries it.'}${rewritten ?? ''}`,
    };
  } finally {
    await lock.release();
  }
}

/** What the votes decide on a machine that may not write the record: said, not written. */
function computedDecision(record: RunRecord, t: ForkTally, close: Close | undefined): Pick<VoteOutcome, 'tally' | 'decision' | 'note'> {
  const by = "only the run's driver writes run.json";
  if (close) return { tally: t, note: `The close is not recorded on this machine: ${by}; close the vote on the driver's machine.` };
  const made = recordDecision(structuredClone(record), t);
  if (typeof made === 'string') return { tally: t, note: made };
  return {
    tally: t,
    decision: made,
    note: `Decided by the votes: ${made.decision} (${countsText(t.counts)}); the driver's record takes it in on its next refine or resume.`,
  };
}

/** The lead's close: the count's winner, or under `lead-decides` with a choice, the side the lead chose in person. */
function closeOf(q: VoteRequest, record: RunRecord, fork: Fork): Close {
  const inPerson =
    discussionOf(record.settings).hierarchy === 'lead-decides' && q.choice !== undefined ? sideOf(fork, q.choice)?.position : undefined;
  return { by: q.as, ...(inPerson !== undefined ? { inPerson } : {}) };
}

async function saveVote(
  q: VoteRequest,
  record: RunRecord,
  fork: Fork,
  authored: AuthorCheck | undefined,
  typedBy?: string,
): Promise<{ file: string; replaced?: string }> {
  const side = sideOf(fork, q.choice ?? '');
  if (!side)
    throw new VoteError(
      `"${q.choice}" is not a side of this fork; choose ${fork.sides.map((s) => `${s.id}${s.letter ? ` (${s.letter})` : ''} = ${s.position}`).join(', ')}.`,
    );
  if (typedBy !== undefined) return saveTypedVote(q, record, fork, side.id, authored, typedBy);
  const { members, diagnostics, unauthored } = await loadVotes(q.reviewRoot, record, [q.as], authored);
  const rel = votesRel(record.id, q.as);
  // A file of theirs that someone else committed is not theirs: their vote replaces it whole (nothing of it is kept).
  const forged = unauthored.get(rel);
  const mine = forged === undefined ? members.find((m) => m.designer === q.as) : undefined;
  const own = forged === undefined ? diagnostics.find((d) => d.severity === 'error' && d.file === rel) : undefined;
  if (own) throw new VoteError(`Your votes file has a problem; fix it first: ${own.file}:${own.line}:${own.column}: ${own.message}`);
  const votes: Vote[] = (mine?.votes ?? []).filter((v) => !(v.iteration === fork.iteration && v.decisionPoint === fork.decisionPoint));
  votes.push({ iteration: fork.iteration, decisionPoint: fork.decisionPoint, choice: side.id });
  // A file of theirs whose commits are not theirs (someone else's, or a rewritten history: a squash) that the same choice
  // would leave byte for byte as it is gets a line of its own, so it changes and its commit (with --sync) is the member's.
  const file = await writeVotes(
    q.reviewRoot,
    record,
    q.as,
    votes,
    forged !== undefined
      ? `${q.as}'s own vote, written again ${new Date().toISOString()}: the file as committed was not theirs.`
      : undefined,
  );
  return {
    file,
    ...(forged !== undefined ? { replaced: `${rel} was not yours as committed (${forged}); it now holds your vote alone.` } : {}),
  };
}

/**
 * A vote typed on this machine for another member (issue 39): kept in their votes file marked `typedBy`, never counted as
 * theirs. Their own votes as they committed them are never overwritten for it (refused in words); votes typed before by
 * the same typist on other questions stay.
 */
async function saveTypedVote(
  q: VoteRequest,
  record: RunRecord,
  fork: Fork,
  choice: string,
  authored: AuthorCheck | undefined,
  typedBy: string,
): Promise<{ file: string }> {
  const rel = votesRel(record.id, q.as);
  const own = await loadVotes(q.reviewRoot, record, [q.as], authored);
  const theirs = own.unauthored.has(rel) ? undefined : own.members.find((m) => m.designer === q.as);
  if (theirs?.votes.length) {
    throw new VoteError(
      `${rel} holds ${q.as}'s own votes as they committed them; a vote typed on ${typedBy}'s machine for ${q.as} would replace them, so nothing is written: ${q.as} votes on their own machine.`,
    );
  }
  const votes: Vote[] = (await typedVotesOf(q.reviewRoot, record, rel)).filter(
    (v) => v.typedBy === typedBy && !(v.iteration === fork.iteration && v.decisionPoint === fork.decisionPoint),
  );
  votes.push({ iteration: fork.iteration, decisionPoint: fork.decisionPoint, choice, typedBy });
  return { file: await writeVotes(q.reviewRoot, record, q.as, votes) };
}

/** The typed votes of a votes file as it stands (loadVotes leaves them out of a member's votes). */
async function typedVotesOf(root: string, record: RunRecord, rel: string): Promise<Vote[]> {
  const text = await readKindText(root, rel, 'votes').catch(() => undefined);
  if (text === undefined) return [];
  return (checkVotesText(text, rel, record).votes?.votes ?? []).filter((v) => v.typedBy !== undefined);
}
