/**
 * A run's record is its driver's (issue 39, item 2): run.json and every file of the run folder that its driver alone writes
 * (paths.ts driverOwned) count only as committed by the driver, the author of run.json's first commit. Every reader asks
 * this one question — compare, evaluate, resume, refine and the panel — and a run that fails it is refused (or skipped, or
 * shown as not loaded) in one sentence naming the file, the commit and its author, instead of being believed.
 */
import * as path from 'node:path';
import type { AuthorshipDoor, NotCounted } from '../authorship/door';
import { reviewAuthorship } from '../review/loadReview';
import { RUNS_DIR, driverOwned, forecastMade, recordFile, rerankMade, reviewRelative } from './paths';
import { error } from '../diagnostics/diagnostics';
import { printable } from '../kernel/text';
import type { RunEntry } from './store';

/** A run whose record is not its driver's: the first file refused, and the sentence that says so. */
export interface RecordRefusal {
  /** The file refused, relative to the review (forward slashes): run.json first when it is one of them. */
  file: string;
  commit: string;
  author: string;
  sentence: string;
}

/** A run refused because a file of its record is not its driver's. */
export class NotDriversRecordError extends Error {
  constructor(readonly refusal: RecordRefusal) {
    super(refusal.sentence);
    this.name = 'NotDriversRecordError';
  }
}

function refusalOf(n: NotCounted): RecordRefusal {
  return {
    file: n.file,
    commit: n.commit,
    author: n.author,
    sentence: `${n.file} is not counted: ${n.reason}; git log -p -- ${n.file} shows what that commit changed.`,
  };
}

/**
 * Why run `runId`'s record is not its driver's (the first file refused), or undefined when it is, or when nothing is
 * checked. `door`: the review's authorship door when the reader has one open; else one is opened for the review.
 */
export function driversRecordRefusal(root: string, runId: string, door?: AuthorshipDoor): Promise<RecordRefusal | undefined> {
  return driversFilesRefusal(root, runId, driverOwned, door);
}

/** What the driver makes once the run is done, and the sentence's words for it (paths.ts rerankMade, forecastMade). */
export const DRIVER_MADE = {
  rerank: { owned: rerankMade, alone: "the run's blind re-rank set is made by its driver alone (rerank seals it in run.json)" },
  forecast: { owned: forecastMade, alone: "the run's forecasts are made by its driver alone (each is sealed in run.json)" },
} as const;

/**
 * Why the files of run `runId` that `owned` names (relative to the run folder) are not its driver's (the first refused),
 * or undefined; `alone` says in words what is the driver's alone (default: the run's record).
 */
export async function driversFilesRefusal(
  root: string,
  runId: string,
  owned: (fileInRun: string) => boolean,
  door?: AuthorshipDoor,
  alone?: string,
): Promise<RecordRefusal | undefined> {
  const d = door ?? (await reviewAuthorship(root));
  const record = path.join(path.resolve(root), ...recordFile(runId).split('/'));
  const refused = await d.checkRecord(record, owned, alone ? { alone } : {});
  return refused[0] && refusalOf(refused[0]);
}

/**
 * Why this machine may not drive run `runId` on (resume or refine it), in one sentence naming its driver, or undefined when
 * it may: its run.json was never committed, this machine's git e-mail is its driver's, or nothing is checked. Asked before
 * anything is sent or written, so a member who is not the driver never writes files that would make the run refused.
 */
export async function notDriverSentence(root: string, runId: string, door?: AuthorshipDoor): Promise<string | undefined> {
  const d = door ?? (await reviewAuthorship(root));
  if (!d.checked) return undefined;
  const record = path.join(path.resolve(root), ...recordFile(runId).split('/'));
  const driver = await d.recordDriver(record);
  if (!driver) return undefined;
  const own = d.typist?.email;
  if (own !== undefined && own.toLowerCase() === driver.email.toLowerCase()) return undefined;
  const who = driver.member !== undefined ? `${driver.member} (${printable(driver.email)})` : printable(driver.email);
  const here =
    own !== undefined ? `this machine's git e-mail is ${printable(own)}` : 'this machine has no git e-mail (git config user.email)';
  return `Run ${runId} is driven by ${who}, the author of the first commit of its run.json, and only its driver resumes or refines it; ${here}, so nothing was sent or written.`;
}

/**
 * Why `fileInRun` of run `runId`, a file one member makes for the team after the run (analysis.json by code-discussion,
 * judge.json by judge: any member may make it, so it is not the driver's record), does not count, in one sentence naming
 * the file; undefined when it does. It counts only as its maker — the member who made it, the author of its first commit
 * since it was last created — committed it, unchanged by anyone else since (the door's checkMade, as for criteria.json).
 */
export async function madeInRunNotCounted(
  root: string,
  runId: string,
  fileInRun: string,
  door?: AuthorshipDoor,
): Promise<string | undefined> {
  const d = door ?? (await reviewAuthorship(root));
  if (!d.checked) return undefined;
  const rel = reviewRelative(runId, fileInRun);
  const refused = await d.checkMade(path.join(path.resolve(root), ...rel.split('/')));
  return (
    refused &&
    `${rel} is not counted: ${refused.reason}; git log -p -- ${rel} shows who changed it (its maker makes it again, or it is removed and made anew).`
  );
}

/** Throws NotDriversRecordError when run `runId`'s record is not its driver's (driversRecordRefusal); nothing otherwise. */
export async function assertDriversRecord(root: string, runId: string, door?: AuthorshipDoor): Promise<void> {
  const refused = await driversRecordRefusal(root, runId, door);
  if (refused) throw new NotDriversRecordError(refused);
}

/**
 * driversRecordRefusal for each of `runIds` with one door and one pass of git over the runs folder (the panel's list).
 * Returns the refused runs only.
 */
export async function driversRecordRefusals(
  root: string,
  runIds: readonly string[],
  door?: AuthorshipDoor,
): Promise<Map<string, RecordRefusal>> {
  const out = new Map<string, RecordRefusal>();
  if (!runIds.length) return out;
  const d = door ?? (await reviewAuthorship(root));
  await d.readAhead(path.join(path.resolve(root), RUNS_DIR));
  for (const id of runIds) {
    const r = await driversRecordRefusal(root, id, d);
    if (r) out.set(id, r);
  }
  return out;
}

/**
 * The runs listed (store.ts listRunEntries) with each run whose record is not its driver's turned into a run that cannot be
 * used, its diagnostic on the file refused (the sentence of driversRecordRefusal): listed as broken, never believed.
 */
export async function driversRunEntries(root: string, entries: readonly RunEntry[], door?: AuthorshipDoor): Promise<RunEntry[]> {
  return refusedRunEntries(entries, await driversRecordRefusals(root, recordIds(entries), door));
}

/** The ids of the runs listed whose record could be read (the runs whose record is asked about). */
export function recordIds(entries: readonly RunEntry[]): string[] {
  return entries.flatMap((e) => (e.record ? [e.id] : []));
}

/** `entries` with each run of `refused` (driversRecordRefusals) turned into a run that cannot be used, its diagnostic on the file. */
export function refusedRunEntries(entries: readonly RunEntry[], refused: ReadonlyMap<string, RecordRefusal>): RunEntry[] {
  return entries.map((e) => {
    const r = e.record && refused.get(e.id);
    return r ? { id: e.id, diagnostics: [error(r.file, r.sentence)] } : e;
  });
}
