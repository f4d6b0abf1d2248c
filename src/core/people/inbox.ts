/**
 * The inbox of a run: how a person's message or pin reaches the process that drives the run (the CLI in another
 * terminal or on another machine through git, the VS Code window, or nobody). One JSON file per entry, a file of that
 * person only: `runs/<id>/inbox/<person>-<time>-<seq>-<rand>.json`, written atomically and contained (reviewFiles). The
 * driver takes entries in at its next turn boundary, in order of arrival (on one disk: the time, then a per-process
 * sequence; through git: the order the pulls brought them), and deletes them only after the record that holds them is
 * saved: an entry is on disk before `say`/`pin` report success, and a crash between the two never loses or doubles it
 * (the record keeps the ids of the entries it took in, `takenIn`; an entry already taken in is just deleted).
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { ReviewFileError, listInReview, lstatInReview } from '../files/reviewFiles';
import { readOwnText, removeReviewFile, writeReviewFile } from '../files/reviewWrites';
import { FILE_KINDS, checkKindText } from '../files/fileKinds';
import { zodSentence } from '../kernel/zodText';
import { RUNS_DIR } from '../record/paths';
import { sameDesigner } from '../rankings/designerId';
import {
  AtField,
  CriterionNameField,
  CriterionTextField,
  MAX_SAY_CHARS,
  MentionsField,
  MessageIdField,
  PersonIdField,
  SayTextField,
  TypedByField,
} from '../record/fields';
import { errorMessage } from '../kernel/errors';

export const INBOX_DIR = 'inbox';
/** A person's message is at most this long (characters); the journal holds it to the same (fields.ts). */
export { MAX_SAY_CHARS };
/** Entries waiting in one run's inbox (docs/security.md "Limits"); a `say` or `pin` beyond it is refused in words, and a driver takes
 * in at most this many, oldest first. Bytes per entry: FILE_KINDS.inboxEntry. */
export const MAX_INBOX_ENTRIES = 1000;

/** What an inbox entry may hold: the same fields a journal line and the record check (fields.ts), nothing else. */
export const SayEntrySchema = z.strictObject({
  type: z.literal('say'),
  /** Designer id. */
  speaker: PersonIdField,
  content: SayTextField,
  pass: z.boolean().optional(),
  /** Ids named with @, in order, each once (checked when the entry was written). */
  mentions: MentionsField.optional(),
  at: AtField,
  /** Typed on someone else's machine for the speaker (issue 39): who typed it; the file is judged as the typist's. */
  typedBy: TypedByField.optional(),
});
export const PinEntrySchema = z.strictObject({
  type: z.literal('pin'),
  message: MessageIdField,
  by: PersonIdField,
  remove: z.boolean().optional(),
  at: AtField,
  typedBy: TypedByField.optional(),
});
/** A member pins (or unpins) one of the team's criteria (criteria.json): its name and description travel with it. */
export const CriterionPinEntrySchema = z.strictObject({
  type: z.literal('criterion'),
  criterion: CriterionNameField,
  description: CriterionTextField,
  by: PersonIdField,
  remove: z.boolean().optional(),
  at: AtField,
  typedBy: TypedByField.optional(),
});
export const InboxEntrySchema = z.discriminatedUnion('type', [SayEntrySchema, PinEntrySchema, CriterionPinEntrySchema]);
export type InboxEntry = z.infer<typeof InboxEntrySchema>;
export type SayEntry = z.infer<typeof SayEntrySchema>;

export interface ReceivedEntry {
  /** File name without `.json`; unique; sorts in order of arrival. */
  name: string;
  entry: InboxEntry;
}

/** `<person>-<time>-<seq>-<rand>.json`; entries written before people were named in the file name have no `<person>-`
 * (such a file speaks for nobody: it is refused in words, never taken in). */
const NAME_PATTERN = /^(?:([A-Za-z0-9][A-Za-z0-9._-]{0,99})-)?(\d{13})-(\d{6})-([0-9a-f]{8})\.json$/;
let sequence = 0;
/** Why a file in an inbox that is not named like an entry is never read (said once by the driver). */
export const STRAY_NAME =
  "its name is not an inbox entry's: say and pin write <designer-id>-<13-digit time>-<6-digit sequence>-<8 hex digits>.json";

/** The person an entry speaks for (a message's speaker, a pin's pinner). */
export function entryPerson(entry: InboxEntry): string {
  return entry.type === 'say' ? entry.speaker : entry.by;
}

/**
 * Who typed an entry when it is not its person (issue 39): its `typedBy` unless that names the person themself (then the
 * entry is their own). Undefined for a person's own entry.
 */
export function entryTypist(entry: InboxEntry): string | undefined {
  return entry.typedBy !== undefined && !sameDesigner(entry.typedBy, entryPerson(entry)) ? entry.typedBy : undefined;
}

/** The sort key of an entry file on one disk: its time, then its sequence. */
function arrivalKey(file: string): string {
  const m = NAME_PATTERN.exec(file);
  return m ? `${m[2]}-${m[3]}-${m[4]}` : file;
}

export function inboxRel(runId: string, file?: string): string {
  return `${RUNS_DIR}/${runId}/${INBOX_DIR}${file ? `/${file}` : ''}`;
}

/** Who may have entries in an inbox (the run's team): entries of anyone else are refused and never fill the inbox. */
export type IsMember = (id: string) => boolean;

/** A sentence when runs/<id>/inbox is not a folder of the run's own (a link): entries are never read through it. */
export async function inboxProblem(reviewRoot: string, runId: string): Promise<string | undefined> {
  const st = await lstatInReview(reviewRoot, inboxRel(runId)).catch((err: unknown) => errorMessage(err));
  if (typeof st === 'string') return `${inboxRel(runId)} cannot be used: ${st}`;
  if (!st) return undefined;
  if (st.isSymbolicLink())
    return `${inboxRel(runId)} is a symbolic link; a run's inbox must be a folder of its own, so nothing is read through it and nobody is waited for through it (remove the link).`;
  if (!st.isDirectory()) return `${inboxRel(runId)} is not a folder; a run's inbox must be one (remove the file).`;
  return undefined;
}

/** Entry files waiting for members (names only, in order of arrival on this disk): what counts toward the inbox's cap. */
async function memberFiles(
  reviewRoot: string,
  runId: string,
  isMember?: IsMember,
  checked = false,
): Promise<{ files: string[]; names: string[] }> {
  // `checked`: the caller found no inboxProblem just now (it is not asked twice in a row).
  if (!checked && (await inboxProblem(reviewRoot, runId))) return { files: [], names: [] };
  const names = (await listInReview(reviewRoot, inboxRel(runId)).catch(() => undefined)) ?? [];
  const files = names
    .filter((n) => {
      const owner = NAME_PATTERN.exec(n)?.[1];
      return owner !== undefined && (!isMember || isMember(owner));
    })
    .sort((a, b) => (arrivalKey(a) < arrivalKey(b) ? -1 : arrivalKey(a) > arrivalKey(b) ? 1 : 0));
  return { files, names };
}

/** Writes one entry atomically; returns its name once it is on disk. Throws in words when it cannot be taken. */
export async function postToInbox(
  reviewRoot: string,
  runId: string,
  entry: InboxEntry,
  now: number = Date.now(),
  isMember?: IsMember,
): Promise<string> {
  const parsed = InboxEntrySchema.safeParse(entry);
  if (!parsed.success) throw new Error(`The inbox entry is refused: ${zodSentence(parsed.error, 'the entry')}`);
  const data = parsed.data;
  const linked = await inboxProblem(reviewRoot, runId);
  if (linked) throw new Error(linked);
  // Only members' entries count: files of anyone else are refused by every reader and never crowd people out.
  const waiting = (await memberFiles(reviewRoot, runId, isMember)).files.length;
  if (waiting >= MAX_INBOX_ENTRIES) {
    throw new Error(
      `The inbox of run ${runId} already holds ${waiting} entries, the most it may (docs/security.md "Limits"); wait until the run takes them in.`,
    );
  }
  sequence = (sequence + 1) % 1_000_000;
  const name = `${entryPerson(data)}-${String(now).padStart(13, '0')}-${String(sequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}`;
  await writeReviewFile(reviewRoot, inboxRel(runId, `${name}.json`), `${JSON.stringify(data)}\n`, { exclusive: true });
  return name;
}

/**
 * Every entry waiting in the inbox, oldest first. An entry that cannot be read as one (a stray or broken file, a file
 * without its `<designer-id>-` prefix, a file of someone not on the team, a file that speaks for someone else) is
 * reported through `onBad` and left where it is, never taken in. A linked inbox is reported through `onBad` and not read.
 */
export async function readInbox(
  reviewRoot: string,
  runId: string,
  onBad?: (file: string, why: string) => void,
  /** Hears names not named like an entry (never read, left alone); the tool's own dot-files are not said. */
  onStray?: (file: string) => void,
  /** The run's team: files of anyone else are refused before they are read and never count toward the cap. */
  isMember?: IsMember,
  /** Hears each entry past the cap (MAX_INBOX_ENTRIES, in order of arrival), never read: the caller refuses it for good. */
  onOverCap?: (name: string, why: string) => void,
): Promise<ReceivedEntry[]> {
  const linked = await inboxProblem(reviewRoot, runId);
  if (linked) {
    onBad?.(inboxRel(runId), linked);
    return [];
  }
  const { files: all, names } = await memberFiles(reviewRoot, runId, undefined, true);
  if (onStray) for (const n of names) if (!n.startsWith('.') && !NAME_PATTERN.test(n)) onStray(inboxRel(runId, n));
  const files: string[] = [];
  for (const n of names) {
    const m = NAME_PATTERN.exec(n);
    if (m && !m[1]) onBad?.(inboxRel(runId, n), 'its name has no <designer-id>- prefix, so it speaks for nobody');
  }
  for (const n of all) {
    const owner = NAME_PATTERN.exec(n)![1]!;
    if (isMember && !isMember(owner)) onBad?.(inboxRel(runId, n), `it is ${owner}'s, and "${owner}" is not a designer of this run`);
    else files.push(n);
  }
  const out: ReceivedEntry[] = [];
  const why = `the inbox held ${files.length.toLocaleString('en-US')} entries, more than the ${MAX_INBOX_ENTRIES.toLocaleString('en-US')} it may (docs/security.md "Limits"), and this one came after the ${MAX_INBOX_ENTRIES.toLocaleString('en-US')}th`;
  for (const file of files.slice(MAX_INBOX_ENTRIES)) onOverCap?.(file.slice(0, -'.json'.length), why);
  for (const file of files.slice(0, MAX_INBOX_ENTRIES)) {
    try {
      // The tool's own file: read without following a link at any level.
      const text = await readOwnText(reviewRoot, inboxRel(runId, file), FILE_KINDS.inboxEntry.maxBytes);
      checkKindText(inboxRel(runId, file), text, 'inboxEntry');
      const parsed = InboxEntrySchema.safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error(zodSentence(parsed.error, 'the entry'));
      // A person writes only files of their own: the name says whose it is.
      const named = NAME_PATTERN.exec(file)![1]!;
      if (!sameDesigner(named, entryPerson(parsed.data)))
        throw new Error(`the file is ${named}'s but speaks for ${entryPerson(parsed.data)}`);
      out.push({ name: file.slice(0, -'.json'.length), entry: parsed.data });
    } catch (err) {
      if (err instanceof ReviewFileError && err.reason === 'missing') continue; // taken in meanwhile
      onBad?.(inboxRel(runId, file), errorMessage(err));
    }
  }
  return out;
}

/** Deletes entries that the saved record now holds. */
export async function removeFromInbox(reviewRoot: string, runId: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    // The name itself goes (a link is removed, never followed).
    await removeReviewFile(reviewRoot, inboxRel(runId, `${name}.json`));
  }
}
