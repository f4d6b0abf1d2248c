/** A run record rewritten by a command that does not drive the run (rerank, decision times), under the run's lock. */
import { RunDrivenError, withRunLock } from './lock';
import type { RunRecord } from './record';
import { readRunRecord, writeRunRecord } from './store';

/**
 * Rewrites a run record under its driver lock (lock.ts), so it never races a process driving the run (the last writer would
 * win). `change` may be async (prompt parts appended under the same lock). While a live process drives the run nothing is written (undefined); `change` returning undefined writes nothing.
 */
export async function updateUndriven(
  reviewRoot: string,
  runId: string,
  change: (record: RunRecord) => RunRecord | undefined | Promise<RunRecord | undefined>,
): Promise<boolean | undefined> {
  await readRunRecord(reviewRoot, runId); // no such run, or a broken record: said before anything is touched
  try {
    return await withRunLock(reviewRoot, runId, async () => {
      const next = await change(await readRunRecord(reviewRoot, runId));
      if (!next) return false;
      await writeRunRecord(reviewRoot, next);
      return true;
    });
  } catch (err) {
    if (err instanceof RunDrivenError) return undefined;
    throw err;
  }
}
