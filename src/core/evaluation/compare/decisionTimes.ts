/**
 * Time to decision: the run record keeps when the team's re-rankings were saved (`rerankedAt`, set when a ranking of
 * the blind re-rank set is saved from the panel) and when the run was committed (`committedAt`, set by Commit Run).
 * Both are written through the run store, under the run's driver lock. Rankings written by hand leave `rerankedAt` unset; compare then falls back
 * to the ranking files' times and says so.
 */
import * as path from 'node:path';
import { updateUndriven } from '../../record/update';
import { RUN_ID_PATTERN, RUNS_DIR } from '../../record/paths';
import { RERANK_DIR } from '../../rerank/paths';

/** The parent review and run of a re-rank set folder (<review>/runs/<run-id>/rerank), or undefined for any other folder. */
export function rerankOwner(folder: string): { reviewRoot: string; runId: string } | undefined {
  const abs = path.resolve(folder);
  const runFolder = path.dirname(abs);
  const runId = path.basename(runFolder);
  if (path.basename(abs) !== RERANK_DIR || !RUN_ID_PATTERN.test(runId) || path.basename(path.dirname(runFolder)) !== RUNS_DIR)
    return undefined;
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
