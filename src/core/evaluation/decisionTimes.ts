/**
 * Time to decision: the run record keeps when the team's re-rankings were saved (`rerankedAt`, set when a ranking of
 * the blind re-rank set is saved from the panel) and when the run was committed (`committedAt`, set by Commit Run).
 * Both are written through the run store, under the run's driver lock. Rankings written by hand leave `rerankedAt` unset; compare then falls back
 * to the ranking files' times and says so.
 */
import * as path from 'node:path';
import { RunDrivenError, withRunLock } from '../record/lock';
import type { RunRecord } from '../record/record';
import { readRunRecord, writeRunRecord } from '../record/store';
import { RUN_ID_PATTERN, RUNS_DIR } from '../record/paths';
import { RERANK_DIR } from '../rerank/paths';

/** The parent review and run of a re-rank set folder (<review>/runs/<run-id>/rerank), or undefined for any other folder. */
export function rerankOwner(folder: string): { reviewRoot: string; runId: string } | undefined {
  const abs = path.resolve(folder);
  const runFolder = path.dirname(abs);
  const runId = path.basename(runFolder);
  if (path.basename(abs) !== RERANK_DIR || !RUN_ID_PATTERN.test(runId) || path.basename(path.dirname(runFolder)) !== RUNS_DIR) return undefined;
  return { reviewRoot: path.dirname(path.dirname(runFolder)), runId };
}

/** After a ranking was saved in `folder`: when it is a re-rank set, its run's `rerankedAt` becomes `now`. */
export async function noteRerankingSaved(folder: string, now: Date = new Date()): Promise<boolean> {
  const owner = rerankOwner(folder);
  if (!owner) return false;
  return (
    (await updateUndriven(owner.reviewRoot, owner.runId, (record) => {
      if (record.status === 'running') return undefined;
      return { ...record, rerankedAt: now.toISOString() };
    })) ?? false
  );
}

/** Commit Run: the run's `committedAt` becomes `now` (the latest commit counts). */
export async function noteCommitted(reviewRoot: string, runId: string, now: Date = new Date()): Promise<void> {
  await updateUndriven(reviewRoot, runId, (record) => ({ ...record, committedAt: now.toISOString() }));
}

/** `rerank` wrote the run's key: its sha256 is kept, so a key changed afterwards is noticed (rerank/key.ts readKey). */
export async function noteRerankKey(reviewRoot: string, runId: string, sha256: string): Promise<void> {
  await updateUndriven(reviewRoot, runId, (record) => ({ ...record, rerankKeySha256: sha256 }));
}

/**
 * Rewrites a run record under its driver lock (lock.ts), so it never races a process driving the run (the last writer would
 * win). While a live process drives the run nothing is written (undefined); `change` returning undefined writes nothing.
 */
async function updateUndriven(reviewRoot: string, runId: string, change: (record: RunRecord) => RunRecord | undefined): Promise<boolean | undefined> {
  await readRunRecord(reviewRoot, runId); // no such run, or a broken record: said before anything is touched
  try {
    return await withRunLock(reviewRoot, runId, async () => {
      const next = change(await readRunRecord(reviewRoot, runId));
      if (!next) return false;
      await writeRunRecord(reviewRoot, next);
      return true;
    });
  } catch (err) {
    if (err instanceof RunDrivenError) return undefined;
    throw err;
  }
}
