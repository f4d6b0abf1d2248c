/** Where a run's re-ranking lives: <review>/runs/<run-id>/rerank/ — an ordinary review folder of its own. */
import * as path from 'node:path';
import { runDir } from '../run/store';

export const RERANK_DIR = 'rerank';

/** Absolute path of the re-ranking folder of a run (throws a plain sentence when `runId` is not a run id). */
export function rerankDir(reviewRoot: string, runId: string): string {
  return path.join(runDir(path.resolve(reviewRoot), runId), RERANK_DIR);
}
