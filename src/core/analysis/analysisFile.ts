/**
 * runs/<run-id>/analysis.json: the interaction coding of a run (Bales IPA) and its stance table. Written only through the
 * review-file room (atomic, contained); read back with the same checks as any input (byte cap, UTF-8, schema).
 */
import { readKindJson } from '../files/kindJson';
import { writeKindFile } from '../files/writeCaps';
import { RUNS_DIR } from '../record/paths';
import { madeInRunNotCounted } from '../record/recordAuthor';
import { ReviewFileError } from '../files/reviewFiles';
import type { AuthorshipDoor } from '../authorship/door';
import { AnalysisFileSchema, type AnalysisFile } from './schema';

export * from './schema';

export const ANALYSIS_FILE = 'analysis.json';

export function analysisPath(runId: string): string {
  return `${RUNS_DIR}/${runId}/${ANALYSIS_FILE}`;
}

/**
 * The run's analysis.json, or undefined when there is none. Throws ReviewFileError naming the file when it is unusable, or
 * when it does not count as its maker's (recordAuthor.ts madeInRunNotCounted: any member codes a run; no one else changes
 * what they coded). `door`: the review's authorship door when the reader has one open.
 */
export async function readAnalysisFile(root: string, runId: string, door?: AuthorshipDoor): Promise<AnalysisFile | undefined> {
  const file = await readKindJson(root, analysisPath(runId), 'analysis', AnalysisFileSchema, 'code again with --force to replace it');
  const why = file && (await madeInRunNotCounted(root, runId, ANALYSIS_FILE, door));
  if (why) throw new ReviewFileError(analysisPath(runId), why);
  return file;
}

export async function writeAnalysisFile(root: string, analysis: AnalysisFile): Promise<void> {
  await writeKindFile(root, analysisPath(analysis.runId), 'analysis', `${JSON.stringify(analysis, null, 2)}\n`);
}
