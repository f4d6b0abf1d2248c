/**
 * Run folders on disk (contract §2): <review>/runs/<run-id>/{run.json, transcript.md, result.md, iteration-<k>/remix.png}.
 * run.json is always written atomically (temporary file, then rename), so a reader or a crash never sees half a record.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../fsUtil';
import { RunRecordSchema, normaliseMessages, type RunRecord } from './record';

export const RUNS_DIR = 'runs';
export const RECORD_FILE = 'run.json';

/** `2026-11-21T22-40-05Z-3f9c`: sorts by start time as plain text; safe in file names on every OS. */
export function createRunId(now: Date = new Date(), suffix: string = randomBytes(2).toString('hex')): string {
  const iso = now.toISOString().replace(/\.\d{3}Z$/, 'Z'); // 2026-11-21T22:40:05Z
  return `${iso.replace(/:/g, '-')}-${suffix}`;
}

export const RUN_ID_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[0-9a-z]+$/;

export function runDir(reviewRoot: string, runId: string): string {
  if (!RUN_ID_PATTERN.test(runId)) throw new Error(`"${runId}" is not a run id (like 2026-11-21T22-40-05Z-3f9c).`);
  return path.join(reviewRoot, RUNS_DIR, runId);
}

/** Path of a run-folder file relative to the review root, with forward slashes: runs/<id>/iteration-1/remix.png. */
export function reviewRelative(runId: string, fileInRun: string): string {
  return `${RUNS_DIR}/${runId}/${fileInRun}`;
}

/**
 * Writes run.json atomically. The engine builds the record with typed code, so the (comparatively slow) schema check runs
 * only when asked — the runner asks on the final write of a run, tests read every file back through the schema.
 */
export async function writeRunRecord(reviewRoot: string, record: RunRecord, opts: { validate?: boolean } = {}): Promise<void> {
  const data = opts.validate ? RunRecordSchema.parse(record) : record;
  await writeFileAtomic(path.join(runDir(reviewRoot, record.id), RECORD_FILE), `${JSON.stringify(data, null, 2)}\n`);
}

export async function readRunRecord(reviewRoot: string, runId: string): Promise<RunRecord> {
  const file = path.join(runDir(reviewRoot, runId), RECORD_FILE);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    throw new Error(`There is no run "${runId}" in ${path.join(reviewRoot, RUNS_DIR)}.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${RUNS_DIR}/${runId}/${RECORD_FILE} is not valid JSON.`);
  }
  const parsed = RunRecordSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`${RUNS_DIR}/${runId}/${RECORD_FILE} is not a valid run record (${first?.path.join('.') || 'root'}: ${first?.message}).`);
  }
  return normaliseMessages(parsed.data);
}

/** Every readable run of a review, newest first. Unreadable folders are skipped. */
export async function listRuns(reviewRoot: string): Promise<RunRecord[]> {
  let names: string[];
  try {
    names = await fs.readdir(path.join(reviewRoot, RUNS_DIR));
  } catch {
    return [];
  }
  const ids = names.filter((n) => RUN_ID_PATTERN.test(n)).sort().reverse();
  const out: RunRecord[] = [];
  for (const id of ids) {
    try {
      out.push(await readRunRecord(reviewRoot, id));
    } catch {
      // Not a run (yet): skipped.
    }
  }
  return out;
}
