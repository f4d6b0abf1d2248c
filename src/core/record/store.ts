/**
 * Run folders on disk (contract §2): <review>/runs/<run-id>/{run.json, journal.jsonl, transcript.md, result.md, iteration-<k>/remix.png}.
 * run.json is always written atomically (temporary file, then rename), so a reader or a crash never sees half a record,
 * and always read through loadRunRecord, which validates it (recordCheck.ts) and applies the run's journal over it
 * (journal.ts: what a running run added since run.json was last rewritten) before anything uses it.
 */
import { randomBytes } from 'node:crypto';
import { FILE_KINDS, FileTooDeepError, readKindText } from '../files/fileKinds';
import { ReviewFileError, formatBytes, listInReview, statInReview } from '../files/reviewFiles';
import { writeReviewFile } from '../files/reviewWrites';
import { printable } from '../kernel/text';
import { error, formatDiagnostic } from '../diagnostics/diagnostics';
import { locateJsonValue, lineColAt } from '../diagnostics/jsonLocate';
import { checkJsonSyntax } from '../diagnostics/jsonSyntax';
import type { Diagnostic } from '../diagnostics/diagnostics';
import { RunRecordSchema, normaliseMessages, type RunRecord } from './record';
import { checkBounds, checkRunRecord, type JsonPath } from './recordCheck';
import { JournalError, checkpointJournal, journalFile, mergeJournal } from './journal';
import type { Roster } from './journalCheck';
import { RUNS_DIR, RUN_ID_PATTERN, countWrite, recordFile, runDir } from './paths';
import { errorMessage } from '../kernel/errors';
import { RunRecordError } from '../diagnostics/diagnostics';

/**
 * Writes run.json atomically, only inside the review (writeReviewFile: contained, a link at the target is refused, never
 * followed), and never over its read cap (FILE_KINDS.runRecord): a record that would be refused is not written. The
 * engine builds the record with typed code, so the (comparatively slow) schema check runs only when asked — the runner asks on the final write of a run, tests read every file back through the schema.
 */
export async function writeRunRecord(reviewRoot: string, record: RunRecord, opts: { validate?: boolean } = {}): Promise<void> {
  const data = opts.validate ? RunRecordSchema.parse(record) : record;
  runDir(reviewRoot, record.id); // the id is a run id, never a path
  const text = recordText(data);
  // Never write a record the tool itself would refuse to read: the one on disk stays as it was.
  const bytes = Buffer.byteLength(text);
  if (bytes > FILE_KINDS.runRecord.maxBytes) {
    throw new ReviewFileError(
      recordFile(record.id),
      `${recordFile(record.id)} would grow to ${formatBytes(bytes)}, over the ${formatBytes(FILE_KINDS.runRecord.maxBytes)} a run record may have; it is not written (the run as saved before stays usable). Start a new run to go on.`,
      'too-large',
    );
  }
  await checkpointJournal(reviewRoot, data);
  await writeReviewFile(reviewRoot, recordFile(record.id), text);
  countWrite(Buffer.byteLength(text));
}

/**
 * run.json as text: indented, except that each prompt and each message is one line (they are many and alike; one line
 * each keeps the file — rewritten at every round boundary — small, and a git diff of a run one line per turn).
 */
export function recordText(record: RunRecord): string {
  const nonce = randomBytes(6).toString('hex');
  const lines: string[] = [];
  const token = (value: unknown): string => {
    lines.push(JSON.stringify(value));
    return `\u0000${nonce}:${lines.length - 1}`;
  };
  const shape = {
    ...record,
    iterations: record.iterations.map((it) => ({ ...it, messages: it.messages.map(token) })),
    prompts: record.prompts.map(token),
  };
  const pretty = JSON.stringify(shape, null, 2);
  return `${pretty.replace(new RegExp(`"\\\\u0000${nonce}:(\\d+)"`, 'g'), (_, i: string) => lines[Number(i)]!)}\n`;
}

/** A run record, or why it cannot be used: diagnostics like `runs/<id>/run.json:<line>:<col>: error: …` (one, today). */
export type RunRecordLoad =
  /** `refused`: journal lines not applied (each a warning at its line): the record is what the driver wrote without them. */
  | { record: RunRecord; diagnostics?: undefined; missing?: undefined; refused?: Diagnostic[] }
  /** `missing`: there is no such run (no run.json in its folder), as opposed to a broken one. */
  | { record?: undefined; diagnostics: Diagnostic[]; missing?: boolean };

/**
 * THE way to read a run record (every command, the panel and the engine use it): the file is read through the review's
 * file room (contained, regular, capped), its JSON syntax checked, then the record validated (recordCheck.ts) and every
 * file it names checked to be a regular file inside the review. Never throws for a bad record: it returns diagnostics.
 */
export async function loadRunRecord(reviewRoot: string, runId: string, roster?: Roster): Promise<RunRecordLoad> {
  if (!RUN_ID_PATTERN.test(runId)) {
    return { diagnostics: [error(RUNS_DIR, `"${printable(runId)}" is not a run id (like 2026-11-21T22-40-05Z-3f9c).`)], missing: true };
  }
  const file = recordFile(runId);
  const bad = (message: string, line = 0, column = 0): RunRecordLoad => ({ diagnostics: [error(file, message, line, column)] });
  let text: string;
  try {
    text = await readKindText(reviewRoot, file, 'runRecord');
  } catch (err) {
    if (err instanceof FileTooDeepError) return bad(err.message, err.line, err.column);
    if (err instanceof ReviewFileError && err.reason === 'missing') {
      return { diagnostics: [error(file, `There is no run "${runId}" in ${RUNS_DIR}/.`)], missing: true };
    }
    return bad(errorMessage(err));
  }
  const syntax = checkJsonSyntax(text);
  if (syntax) {
    const at = lineColAt(text, syntax.offset);
    return bad(`This is not valid JSON: ${syntax.message}`, at.line, at.column);
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return bad('This is not valid JSON.');
  }
  let optionNames: string[] | undefined;
  let referenceNames: string[] | undefined;
  try {
    optionNames = await listInReview(reviewRoot, 'options');
    // Only a record that names references needs references/ (whose problems the review's validation reports).
    if ((json as { references?: unknown[] } | null)?.references?.length) referenceNames = await listInReview(reviewRoot, 'references');
  } catch (err) {
    return { diagnostics: [error(optionNames === undefined ? 'options' : 'references', errorMessage(err))] };
  }
  const checked = checkRunRecord(json, `${RUNS_DIR}/${runId}`, optionNames, referenceNames);
  const at = (p: JsonPath) => lineColAt(text, locateJsonValue(text, p));
  if ('problem' in checked) {
    const { line, column } = at(checked.problem.path);
    return bad(checked.problem.message, line, column);
  }
  const record = checked.record;
  // Between two rewrites of run.json, what the run added is in its journal (journal.ts): applied over the record.
  let refused: Diagnostic[] | undefined;
  try {
    const merged = await mergeJournal(reviewRoot, record, roster);
    if (merged?.refused.length) refused = merged.refused;
  } catch (err) {
    if (err instanceof JournalError) return { diagnostics: [err.diagnostic] };
    throw err;
  }
  // What the journal added is bounded like the record itself (docs/security.md "Limits"): counted again, linear.
  const grown = checkBounds(record);
  if (grown) return { diagnostics: [error(journalFile(runId), `With this journal applied: ${grown.message}`)] };
  // Every file the record names must be a regular file inside the review.
  for (const [i, op] of record.options.entries()) {
    let problem: string | undefined;
    try {
      const st = await statInReview(reviewRoot, op.file);
      if (!st) problem = `${op.file}, named here, is missing.`;
      else if (!st.isFile()) problem = `${op.file}, named here, is not a regular file.`;
    } catch (err) {
      problem = errorMessage(err);
    }
    if (problem) {
      const { line, column } = at(['options', i, 'file']);
      return bad(problem, line, column);
    }
  }
  return { record: normaliseMessages(record), ...(refused ? { refused } : {}) };
}

/**
 * loadRunRecord that throws: a plain sentence when there is no such run, RunRecordError (its message: the diagnostic
 * lines) when the record is broken. `onNote` hears each journal line refused (file:line: warning: …).
 */
export async function readRunRecord(
  reviewRoot: string,
  runId: string,
  onNote?: (line: string) => void,
  roster?: Roster,
): Promise<RunRecord> {
  const loaded = await loadRunRecord(reviewRoot, runId, roster);
  if (loaded.diagnostics) {
    if (loaded.missing) throw new Error(loaded.diagnostics[0]!.message);
    throw new RunRecordError(loaded.diagnostics);
  }
  // Journal lines the driver would not have written: said, never applied (the run stays readable).
  for (const d of loaded.refused ?? []) onNote?.(formatDiagnostic(d));
  return loaded.record;
}

/** A run record as read, with what its files were just before it was read (run.json's and the journal's size, time, inode). */
export interface ReadRecord {
  runId: string;
  record: RunRecord;
  stamp: string;
  /** The team its journal was judged against (from the review as loaded). */
  roster?: Roster;
}

async function recordStamp(reviewRoot: string, runId: string): Promise<string> {
  const of = async (rel: string): Promise<string> => {
    const st = await statInReview(reviewRoot, rel).catch(() => undefined);
    return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : '-';
  };
  return `${await of(recordFile(runId))}|${await of(journalFile(runId))}`;
}

/** readRunRecord, keeping what its files were (recordStill tells whether they changed since); `roster`: the team, known. */
export async function readRunRecordOnce(
  reviewRoot: string,
  runId: string,
  onNote?: (line: string) => void,
  roster?: Roster,
): Promise<ReadRecord> {
  const stamp = await recordStamp(reviewRoot, runId);
  return { runId, record: await readRunRecord(reviewRoot, runId, onNote, roster), stamp, ...(roster ? { roster } : {}) };
}

/**
 * The record as read, when its files are still as they were then; otherwise (another process wrote the run meanwhile)
 * read again. Nothing is read when they are unchanged: the one read of a run's way in stays the only one.
 */
export async function recordStill(reviewRoot: string, read: ReadRecord, onNote?: (line: string) => void): Promise<RunRecord> {
  if ((await recordStamp(reviewRoot, read.runId)) === read.stamp) return read.record;
  return readRunRecord(reviewRoot, read.runId, onNote, read.roster);
}

/** One run folder of a review: its record, or why it cannot be used (shown as a broken run). */
export type RunEntry =
  { id: string; record: RunRecord; diagnostics?: undefined } | { id: string; record?: undefined; diagnostics: Diagnostic[] };

/** Every run folder of a review, newest first, each loaded and checked. Folders without a run.json (yet) are left out. */
export async function listRunEntries(reviewRoot: string): Promise<RunEntry[]> {
  let names: string[] | undefined;
  try {
    names = await listInReview(reviewRoot, RUNS_DIR);
  } catch {
    return [];
  }
  const ids = (names ?? [])
    .filter((n) => RUN_ID_PATTERN.test(n))
    .sort()
    .reverse();
  const out: RunEntry[] = [];
  for (const id of ids) {
    const loaded = await loadRunRecord(reviewRoot, id);
    if (loaded.missing) continue; // a folder without run.json: not a run (yet)
    out.push(loaded.record ? { id, record: loaded.record } : { id, diagnostics: loaded.diagnostics });
  }
  return out;
}

/** Every usable run of a review, newest first; broken ones are left out (listRunEntries shows them). */
export async function listRuns(reviewRoot: string): Promise<RunRecord[]> {
  return (await listRunEntries(reviewRoot)).flatMap((e) => (e.record ? [e.record] : []));
}

/** Room a run record keeps for messages taken in by say/pin: above FILE_KINDS.runRecord.maxBytes minus this, no more are taken in. */
export const RECORD_HEADROOM = 512 * 1024;

/** A sentence when runs/<id>/run.json is too near its cap to take in one more message (undefined: there is room). */
export async function recordNearCap(reviewRoot: string, runId: string): Promise<string | undefined> {
  const st = await statInReview(reviewRoot, recordFile(runId)).catch(() => undefined);
  if (!st || st.size <= FILE_KINDS.runRecord.maxBytes - RECORD_HEADROOM) return undefined;
  return `${recordFile(runId)} is ${formatBytes(st.size)}, near the ${formatBytes(FILE_KINDS.runRecord.maxBytes)} a run record may have; no more messages are taken into this run. Start a new run to go on.`;
}
