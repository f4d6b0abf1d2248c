/**
 * `say` and `pin` from anywhere (the CLI in another terminal, a VS Code window that does not drive the run): the entry is
 * checked, then written to the run's inbox — on disk before success is reported. When no process drives the run, the
 * inbox is taken into run.json right away (so the record shows the message, e.g. on a waiting run); when one does, that
 * process takes it in at its next turn boundary.
 */
import { loadReview } from '../review/loadReview';
import type { Review } from '../review/model';
import { writeDeliverables } from '../run/deliverables';
import { allMessages, type Message, type RunRecord } from '../record/record';
import { readRunRecord, recordNearCap, writeRunRecord } from '../record/store';
import { applyEntries } from './apply';
import { inboxRel, postToInbox, readInbox, removeFromInbox } from './inbox';
import { RunDrivenError, acquireRunLock, isRunDriven } from '../record/lock';
import { checkSay, entryProblem, findPerson, peopleOf, teamOf } from './team';

/** A say or pin that cannot be accepted; the message says why, nothing was written. */
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
  /** True when it is in run.json already; false when the process driving the run takes it in at its next turn. */
  applied: boolean;
  record: RunRecord;
  /** The message as recorded (say, when applied). */
  message?: Message;
}

export interface SubmitOptions {
  reviewRoot: string;
  runId: string;
  /** Is a process driving this run? Default: the run's lock (lock.ts). The process that drives it says true. */
  isDriven?: (reviewRoot: string, runId: string) => Promise<boolean>;
  /** Already loaded review (the extension has one). */
  review?: Review;
  /** Hears notes in words (a stale lock that was not a lock at all, say). */
  onNote?: (line: string) => void;
  /**
   * Only write the entry, never take it into run.json here (the run goes through git: only its driver writes run.json,
   * on whichever machine it runs).
   */
  entryOnly?: boolean;
}

async function reviewOf(o: SubmitOptions): Promise<Review> {
  if (o.review) return o.review;
  const { review, diagnostics } = await loadReview(o.reviewRoot, { decodeImages: false });
  if (!review) {
    const first = diagnostics.find((d) => d.severity === 'error');
    throw new PeopleInputError(`The review cannot be read: ${first ? `${first.file}:${first.line}:${first.column}: ${first.message}` : 'unknown problem'}.`);
  }
  return review;
}

/** A designer's message into a run (`teamfusion say`). */
export async function submitSay(o: SubmitOptions & { as: string; text: string }): Promise<SubmitResult> {
  const review = await reviewOf(o);
  const record = await readRunRecord(o.reviewRoot, o.runId);
  const checked = checkSay(teamOf(review, record), record, o.as, o.text);
  if (!checked.ok) throw new PeopleInputError(checked.error);
  const full = await recordNearCap(o.reviewRoot, o.runId);
  if (full) throw new PeopleInputError(full);
  const content = checked.pass ? '/pass' : o.text.trim();
  const entry = await postToInbox(o.reviewRoot, o.runId, {
    type: 'say',
    speaker: checked.speaker,
    content,
    ...(checked.pass ? { pass: true } : {}),
    ...(checked.mentions.length ? { mentions: checked.mentions } : {}),
    at: new Date().toISOString(),
  });
  await takeInIfIdle(o, review);
  const after = await readRunRecord(o.reviewRoot, o.runId);
  const message = allMessages(after).find((x) => x.message.entry === entry)?.message;
  return { entry, file: inboxRel(o.runId, `${entry}.json`), applied: Boolean(message), record: after, message };
}

/** Pins (or with `remove`, unpins) a message (`teamfusion pin`). Without `as`, the review's lead pins. */
export async function submitPin(o: SubmitOptions & { message: string; as?: string; remove?: boolean }): Promise<SubmitResult> {
  const review = await reviewOf(o);
  const record = await readRunRecord(o.reviewRoot, o.runId);
  const team = teamOf(review, record);
  const asId = o.as ?? review.config.lead;
  if (!asId) throw new PeopleInputError('This review has no lead (review.yaml `lead:`), so say who pins with --as <designer-id>.');
  const by = findPerson(team, asId);
  if (!by || by.kind !== 'designer') {
    throw new PeopleInputError(`"${asId}" is not a designer of this review (designers: ${team.designers.map((d) => d.id).join(', ')}).`);
  }
  if (!allMessages(record).some((x) => x.message.id === o.message)) {
    throw new PeopleInputError(`Run ${o.runId} has no message "${o.message}" (message ids look like i1-m3; see transcript.md).`);
  }
  const pinned = (record.pins ?? []).some((p) => p.message === o.message);
  if (o.remove && !pinned) throw new PeopleInputError(`Message ${o.message} is not pinned.`);
  const full = await recordNearCap(o.reviewRoot, o.runId);
  if (full) throw new PeopleInputError(full);
  const entry = await postToInbox(o.reviewRoot, o.runId, {
    type: 'pin',
    message: o.message,
    by: by.id,
    ...(o.remove ? { remove: true } : {}),
    at: new Date().toISOString(),
  });
  await takeInIfIdle(o, review);
  const after = await readRunRecord(o.reviewRoot, o.runId);
  const left = (await readInbox(o.reviewRoot, o.runId)).some((x) => x.name === entry);
  return { entry, file: inboxRel(o.runId, `${entry}.json`), applied: !left, record: after };
}

/**
 * When no process drives the run, takes the whole inbox into run.json now, holding the run's lock (so no driver starts
 * meanwhile), and rewrites transcript.md / result.md. Returns the saved record, or undefined when a driver takes it in.
 */
export async function takeInIfIdle(o: SubmitOptions, review: Review): Promise<RunRecord | undefined> {
  if (o.entryOnly) return undefined;
  if (o.isDriven ? await o.isDriven(o.reviewRoot, o.runId) : await isRunDriven(o.reviewRoot, o.runId)) return undefined;
  let lock;
  for (let attempt = 0; !lock; attempt++) {
    try {
      lock = await acquireRunLock(o.reviewRoot, o.runId, o.onNote);
    } catch (err) {
      if (!(err instanceof RunDrivenError)) throw err;
      // Another say or pin holds the lock for a moment (a driver would have set status "running"): try again shortly.
      const status = (await readRunRecord(o.reviewRoot, o.runId)).status;
      if (status === 'running' || attempt >= 40) return undefined; // a driver takes the entry in
      await new Promise((r) => setTimeout(r, 25 + Math.random() * 50));
    }
  }
  try {
    const record = await readRunRecord(o.reviewRoot, o.runId);
    const team = teamOf(review, record);
    // A stray or broken file in the inbox is left alone, and said in one line naming it (as the driver says it).
    const read = await readInbox(o.reviewRoot, o.runId, (file, why) => o.onNote?.(`${file} is not an inbox entry and is left alone (${why}).`));
    const entries = read.filter((e) => !entryProblem(team, e.entry));
    const applied = applyEntries(record, entries);
    if (applied.changed) {
      record.updatedAt = new Date().toISOString();
      await writeRunRecord(o.reviewRoot, record);
      await writeDeliverables(o.reviewRoot, record, peopleOf(review));
    }
    await removeFromInbox(o.reviewRoot, o.runId, applied.done);
    return record;
  } finally {
    await lock.release();
  }
}
