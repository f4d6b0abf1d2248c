/**
 * A run's record counts only as its driver committed it (issue 39): compare and evaluate refuse a run whose run.json
 * someone else changed (the authorship door's checkRecord), in one sentence, instead of believing it.
 */
import * as path from 'node:path';
import type { AuthorshipDoor } from '../authorship/door';
import { recordFile } from '../record/paths';
import { reviewAuthorship } from '../review/loadReview';

/** Throws a sentence when `runs/<id>/run.json` is not its driver's; nothing when it is, or when nothing is checked. */
export async function assertDriversRecord(root: string, runId: string, door?: AuthorshipDoor): Promise<void> {
  const d = door ?? (await reviewAuthorship(root));
  const refused = await d.checkRecord(path.join(path.resolve(root), ...recordFile(runId).split('/')));
  if (refused) throw new Error(`${refused.file} is not counted: ${refused.reason}. Revert that commit (git log -p -- ${refused.file}), or ask the driver to.`);
}
