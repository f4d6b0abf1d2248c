/**
 * A run's record counts only as its driver committed it (issue 39): compare and evaluate refuse a run whose run.json or
 * journal someone else changed (the authorship door's checkRecord), in one sentence, instead of believing it.
 */
import * as path from 'node:path';
import type { AuthorshipDoor } from '../authorship/door';
import { recordFile } from '../record/paths';
import { journalFile } from '../record/journal';
import { reviewAuthorship } from '../review/loadReview';

/**
 * Throws a sentence when `runs/<id>/run.json` or its journal (read over it, journal.jsonl) is not its driver's; nothing
 * when they are, or when nothing is checked.
 */
export async function assertDriversRecord(root: string, runId: string, door?: AuthorshipDoor): Promise<void> {
  const d = door ?? (await reviewAuthorship(root));
  const abs = (rel: string): string => path.join(path.resolve(root), ...rel.split('/'));
  for (const rel of [recordFile(runId), journalFile(runId)]) {
    const refused = await d.checkRecord(abs(rel), abs(recordFile(runId)));
    if (refused) throw new Error(`${refused.file} is not counted: ${refused.reason}; git log -p -- ${refused.file} shows what that commit changed.`);
  }
}
