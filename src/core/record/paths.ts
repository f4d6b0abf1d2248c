/**
 * Where a run's files are (contract §2: `runs/<id>/…`) and how many bytes the tool wrote into them. Every other file of
 * the record room builds its paths here, so none of them needs another to know where a run lives.
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { printable } from '../kernel/text';

export const RUNS_DIR = 'runs';
export const RECORD_FILE = 'run.json';

/** `2026-11-21T22-40-05Z-3f9c`: sorts by start time as plain text; safe in file names on every OS. */
export function createRunId(now: Date = new Date(), suffix: string = randomBytes(2).toString('hex')): string {
  const iso = now.toISOString().replace(/\.\d{3}Z$/, 'Z'); // 2026-11-21T22:40:05Z
  return `${iso.replace(/:/g, '-')}-${suffix}`;
}

export const RUN_ID_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[0-9a-z]+$/;

export function runDir(reviewRoot: string, runId: string): string {
  if (!RUN_ID_PATTERN.test(runId)) throw new Error(`"${printable(runId)}" is not a run id (like 2026-11-21T22-40-05Z-3f9c).`);
  return path.join(reviewRoot, RUNS_DIR, runId);
}

/** Path of a run-folder file relative to the review root, with forward slashes: runs/<id>/iteration-1/remix.png. */
export function reviewRelative(runId: string, fileInRun: string): string {
  return `${RUNS_DIR}/${runId}/${fileInRun}`;
}

/** `runs/<id>/run.json`. */
export function recordFile(runId: string): string {
  return reviewRelative(runId, RECORD_FILE);
}

/** Bytes and writes of run files (run.json, prompt parts) since the process started, for `npm run bench`. */
export const runFileWrites = { bytes: 0, writes: 0 };

export function countWrite(bytes: number): void {
  runFileWrites.bytes += bytes;
  runFileWrites.writes += 1;
}

/**
 * Files of a run folder that only its driver writes (relative to the run folder, forward slashes): the record, its journal
 * and prompt parts, the deliverables, a brief run's baseline and every round's folder. The rest of a run folder is its
 * members' (votes, ratings, survey, preference, coverage, inbox entries) or its makers' (rerank/, forecast.json, …).
 */
export function driverOwned(fileInRun: string): boolean {
  return /^(run\.json|transcript\.md|result\.md|prompts\.jsonl|journal\.jsonl|baseline\.md|iteration-\d+\/.*)$/.test(fileInRun);
}

/**
 * Files of a run folder its driver makes once the run is done (issue 39, item 3): the blind re-rank set `rerank/` (its key,
 * blind images or pair, brief and review.yaml; not the members' re-rankings in rerank/rankings/) and the sealed forecasts
 * `forecast.json`. Both are sealed in run.json as they are made, so only the run's driver makes them.
 */
export function rerankMade(fileInRun: string): boolean {
  return fileInRun.startsWith('rerank/') && !/^rerank\/rankings\/(?!\.gitkeep$)/.test(fileInRun);
}

export function forecastMade(fileInRun: string): boolean {
  return fileInRun === 'forecast.json';
}
