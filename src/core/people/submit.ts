/**
 * `say` and `pin` from anywhere (the CLI in another terminal or on another machine, a VS Code window): the entry is checked,
 * then written to the run's inbox — on disk before success is reported — and that is all. A person writes only files of
 * their own (issue 18): run.json, transcript.md and result.md are written by the process that drives the run alone, which
 * takes the inbox in at its next turn boundary (or, when nobody drives the run now, the next `run --resume`, refine or
 * VS Code resume does). Checks read the run as it will be once the inbox is taken in (pending entries applied in memory),
 * so a pin followed by an unpin, or two people answering, are judged as the driver will judge them.
 */
import { loadReview } from '../review/loadReview';
import type { Review } from '../review/model';
import { allMessages, type Message, type RunRecord } from '../record/record';
import { readRunRecord, recordNearCap } from '../record/store';
import { applyEntries } from './apply';
import { inboxRel, postToInbox, readInbox, type ReceivedEntry } from './inbox';
import { isRunDriven, runDriver, type DriverInfo } from '../record/lock';
import { printable } from '../kernel/text';
import { checkSay, entryProblem, findPerson, isDesigner, personName, teamOf } from './team';
import type { Team } from '../step/people';
import { openReviewAuthorship } from '../authorship/door';
import { typedWords, typingFor } from '../authorship/typist';

export class PeopleInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PeopleInputError';
  }
}

export interface SubmitResult {
  /** The inbox entry's name. */
  entry: string;
  /** The entry's path relative to the review. */
  file: string;
  /** True when a live process drives the run now (it takes the entry in at its next turn boundary); false when the next
   * driver (a resume, a refine) will. */
  driven: boolean;
  /** The live driver, from its lock (pid, host, since when), when `driven` and the lock names one. */
  driver?: DriverInfo;
  /** The record as its driver last saved it (the entry is not in it yet). */
  record: RunRecord;
  /** The message as it will be recorded once taken in, with nothing else arriving first (say). */
  message?: Message;
  /** (issue 39) Typed on this machine for another member: who typed it (a member id, or this machine's git e-mail). */
  typedBy?: string;
  /** The same in words with the team's names: "typed on Ana's machine for Ben". */
  typed?: string;
  /** A pin's pinner (their id as the team spells it). */
  by?: string;
}

export interface SubmitOptions {
  reviewRoot: string;
  runId: string;
  /** Is a process driving this run? Default: a look at the run's lock (lock.ts). The process that drives it says true. */
  isDriven?: (reviewRoot: string, runId: string) => Promise<boolean>;
  /** Already loaded review (the extension has one). */
  review?: Review;
  /** Hears notes in words (a stale lock that was not a lock at all, a stray file in the inbox). */
  onNote?: (line: string) => void;
}

async function reviewOf(o: SubmitOptions): Promise<Review> {
  if (o.review) return o.review;
  const { review, diagnostics } = await loadReview(o.reviewRoot, { decodeImages: false });
  if (!review) {
    const first = diagnostics.find((d) => d.severity === 'error');
    throw new PeopleInputError(
      `The review cannot be read: ${first ? `${first.file}:${first.line}:${first.column}: ${first.message}` : 'unknown problem'}.`,
    );
  }
  return review;
}

/**
 * Who types `member`'s entry on this machine (issue 39; authorship/typist.ts): nothing when it is theirs or nothing is
 * checked; `typedBy` when it is typed for them; thrown in one sentence when it may not be typed for them at all
 * (signatures required, or no git identity here).
 */
async function typedFor(
  o: SubmitOptions,
  review: Review,
  team: Team,
  member: string,
  what: string,
  how: string,
): Promise<{ typedBy?: string; typed?: string }> {
  const door = await openReviewAuthorship(o.reviewRoot, review.config);
  const ids = [...team.designers.map((d) => d.id), ...Object.keys(review.config.team ?? {})];
  const t = typingFor(door.typist, member, { what, how, ids, name: (id) => personName(team, id) });
  if (t.own) return {};
  if ('refused' in t) throw new PeopleInputError(t.refused);
  return { typedBy: t.typedBy, typed: typedWords(t.typedBy, member, (id) => personName(team, id)) };
}

/**
 * What a step asks of a person's answer beyond a message's rules (the lead's fork choice: core/fork/choice.ts), given by the
 * caller so this room does not depend on the step's: the problem in one sentence, or undefined.
 */
export type AnswerCheck = (record: RunRecord, speaker: string, text: string, designers: readonly string[]) => string | undefined;

/** A designer's message into a run (`teamfusion say`). */
export async function submitSay(o: SubmitOptions & { as: string; text: string; checkAnswer?: AnswerCheck }): Promise<SubmitResult> {
  const review = await reviewOf(o);
  const record = await readRunRecord(o.reviewRoot, o.runId, o.onNote);
  const team = teamOf(review, record);
  const checked = checkSay(team, record, o.as, o.text);
  if (!checked.ok) throw new PeopleInputError(checked.error);
  const problem = o.checkAnswer?.(record, checked.speaker, o.text, record.settings.designers ?? team.designers.map((d) => d.id));
  if (problem) throw new PeopleInputError(problem);
  const full = await recordNearCap(o.reviewRoot, o.runId);
  if (full) throw new PeopleInputError(full);
  const typed = await typedFor(o, review, team, checked.speaker, 'a line', 'says it');
  const content = checked.pass ? '/pass' : o.text.trim();
  const entry = await postToInbox(
    o.reviewRoot,
    o.runId,
    {
      type: 'say',
      speaker: checked.speaker,
      content,
      ...(checked.pass ? { pass: true } : {}),
      ...(checked.mentions.length ? { mentions: checked.mentions } : {}),
      at: new Date().toISOString(),
      ...(typed.typedBy !== undefined ? { typedBy: typed.typedBy } : {}),
    },
    Date.now(),
    (id) => isDesigner(team, id),
  );
  const view = pendingView(record, team, await pendingEntries(o, team));
  const message = allMessages(view).find((x) => x.message.entry === entry)?.message;
  return { entry, file: inboxRel(o.runId, `${entry}.json`), ...(await drivenNow(o)), record, message, ...typed };
}

/** Who pins: `as`, else the review's lead; a designer of the run's team. With the record and team the pin is judged against. */
async function pinner(o: SubmitOptions & { as?: string }): Promise<{ record: RunRecord; team: Team; by: { id: string }; review: Review }> {
  const review = await reviewOf(o);
  const record = await readRunRecord(o.reviewRoot, o.runId, o.onNote);
  const team = teamOf(review, record);
  const asId = o.as ?? review.config.lead;
  if (!asId) throw new PeopleInputError('This review has no lead (review.yaml `lead:`), so say who pins with --as <designer-id>.');
  const by = findPerson(team, asId);
  if (!by || by.kind !== 'designer') {
    throw new PeopleInputError(`"${asId}" is not a designer of this review (designers: ${team.designers.map((d) => d.id).join(', ')}).`);
  }
  return { record, team, by, review };
}

/** What a pin or a criterion pin says of itself; the rest of its inbox entry (who pins, unpin, when, typed by) is postPin's. */
type PinBody = { type: 'pin'; message: string } | { type: 'criterion'; criterion: string; description: string };

/**
 * Posts a pin (or, with `remove`, an unpin) of a message or of a criterion to the run's inbox as `by`'s entry, once the
 * record has room and this machine may type it for them (typedFor): the one way both pins reach the inbox.
 */
async function postPin(
  o: SubmitOptions & { remove?: boolean },
  p: { record: RunRecord; team: Team; by: { id: string }; review: Review },
  body: PinBody,
): Promise<SubmitResult> {
  const full = await recordNearCap(o.reviewRoot, o.runId);
  if (full) throw new PeopleInputError(full);
  const typed = await typedFor(o, p.review, p.team, p.by.id, o.remove ? 'an unpin' : 'a pin', o.remove ? 'unpins it' : 'pins it');
  const entry = await postToInbox(
    o.reviewRoot,
    o.runId,
    {
      ...body,
      by: p.by.id,
      ...(o.remove ? { remove: true } : {}),
      at: new Date().toISOString(),
      ...(typed.typedBy !== undefined ? { typedBy: typed.typedBy } : {}),
    },
    Date.now(),
    (id) => isDesigner(p.team, id),
  );
  return { entry, file: inboxRel(o.runId, `${entry}.json`), ...(await drivenNow(o)), record: p.record, by: p.by.id, ...typed };
}

/** Pins (or with `remove`, unpins) a message (`teamfusion pin`). Without `as`, the review's lead pins. */
export async function submitPin(o: SubmitOptions & { message: string; as?: string; remove?: boolean }): Promise<SubmitResult> {
  const { record, team, by, review } = await pinner(o);
  // The run as it will be once what waits in the inbox is taken in (a pin, then an unpin, before a driver runs).
  const view = pendingView(record, team, await pendingEntries(o, team));
  if (!allMessages(view).some((x) => x.message.id === o.message)) {
    throw new PeopleInputError(`Run ${o.runId} has no message "${o.message}" (message ids look like i1-m3; see transcript.md).`);
  }
  const pinned = (view.pins ?? []).some((p) => p.message === o.message);
  if (o.remove && !pinned) throw new PeopleInputError(`Message ${o.message} is not pinned.`);
  return postPin(o, { record, team, by, review }, { type: 'pin', message: o.message });
}

/**
 * A member pins (or unpins) one of the team's criteria (issue 34, item 5): every later prompt of the run carries it. The
 * caller found `criterion` in criteria.json; like a message pin it is an inbox entry of that person, taken in by the driver.
 */
export async function submitCriterionPin(
  o: SubmitOptions & { criterion: { name: string; description: string }; as?: string; remove?: boolean },
): Promise<SubmitResult> {
  const { record, team, by, review } = await pinner(o);
  const view = pendingView(record, team, await pendingEntries(o, team));
  const pinned = (view.criteria?.pinned ?? []).some((p) => p.name.toLowerCase() === o.criterion.name.toLowerCase());
  if (o.remove && !pinned) throw new PeopleInputError(`The criterion "${o.criterion.name}" is not pinned in run ${o.runId}.`);
  return postPin(o, { record, team, by, review }, { type: 'criterion', criterion: o.criterion.name, description: o.criterion.description });
}

/** Entries waiting in the run's inbox (a stray or broken file is left alone and said in one line, as the driver says it). */
async function pendingEntries(o: SubmitOptions, team: Team): Promise<ReceivedEntry[]> {
  return readInbox(
    o.reviewRoot,
    o.runId,
    (file, why) => o.onNote?.(`${file} is not taken in and is left alone (${why}).`),
    (file) =>
      o.onNote?.(`${file} is not named like an inbox entry (<person>-<time>-<sequence>-<random>.json); it is left alone, never read.`),
    (id) => isDesigner(team, id),
  );
}

/**
 * The run as it will be once its driver takes in what waits in the inbox (on a copy: nothing is written). Entries a driver
 * would skip (someone not on the team) are skipped here too.
 */
export function pendingView(record: RunRecord, team: Team, entries: readonly ReceivedEntry[]): RunRecord {
  const view = structuredClone(record);
  applyEntries(
    view,
    entries.filter((e) => !entryProblem(team, e.entry)),
  );
  return view;
}

/** Does a live process drive the run, and which (only a look at its lock; a driver's own say answers true)? */
async function drivenNow(o: SubmitOptions): Promise<{ driven: boolean; driver?: DriverInfo }> {
  if (o.isDriven) return { driven: await o.isDriven(o.reviewRoot, o.runId) };
  if (!(await isRunDriven(o.reviewRoot, o.runId, o.onNote))) return { driven: false };
  const driver = await runDriver(o.reviewRoot, o.runId);
  return { driven: true, ...(driver ? { driver } : {}) };
}

/** The process that takes an entry in, in words: named from its lock (pid, host, since when) so a person can check it. */
export function driverWords(r: SubmitResult, runId: string): string {
  const d = r.driver;
  return d
    ? `the process driving ${runId} (pid ${d.pid} on ${printable(d.hostname)}, since ${printable(d.startedAt)}) takes it in at its next turn`
    : `the process driving ${runId} takes it in at its next turn`;
}
