/**
 * A usual-way review (review.yaml `condition: usual`) that holds TeamFusion runs: it is decided by decision.yaml, so its
 * runs/ is left out of everything — said once, as a warning at validation and as a skipped line of `evaluate`.
 */
import { listInReview } from '../files/reviewFiles';

/** The run folders of runs/ (hidden names left out); none when there is no readable runs/. */
async function runFolders(root: string): Promise<string[]> {
  const names = await listInReview(root, 'runs').catch(() => undefined);
  return (names ?? []).filter((n) => !n.startsWith('.'));
}

/** One sentence when a usual-way review holds runs, else undefined. */
export async function usualWayRunsNote(root: string): Promise<string | undefined> {
  const runs = await runFolders(root);
  if (runs.length === 0) return undefined;
  return (
    `This review is decided the usual way (condition: usual), but runs/ holds ${runs.length} TeamFusion run${runs.length === 1 ? '' : 's'}; ` +
    "they are left out (evaluate counts only decision.yaml and survey/ here). Move them to the team's TeamFusion review, or remove condition: usual."
  );
}
