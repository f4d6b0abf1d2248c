/**
 * runs/<run-id>/analysis.json: the interaction coding of a run (Bales IPA) and its stance table. Written only through the
 * review-file room (atomic, contained); read back with the same checks as any input (byte cap, UTF-8, schema).
 */
import { readKindJson } from '../files/kindJson';
import { writeKindFile } from '../files/writeCaps';
import { RUNS_DIR } from '../record/store';
import { AnalysisFileSchema, type AnalysisFile } from './schema';

export * from './schema';

export const ANALYSIS_FILE = 'analysis.json';

export function analysisPath(runId: string): string {
  return `${RUNS_DIR}/${runId}/${ANALYSIS_FILE}`;
}

/** The run's analysis.json, or undefined when there is none. Throws ReviewFileError naming the file when it is unusable. */
export async function readAnalysisFile(root: string, runId: string): Promise<AnalysisFile | undefined> {
  return readKindJson(root, analysisPath(runId), 'analysis', AnalysisFileSchema, 'code again with --force to replace it');
}

export async function writeAnalysisFile(root: string, analysis: AnalysisFile): Promise<void> {
  await writeKindFile(root, analysisPath(analysis.runId), 'analysis', `${JSON.stringify(analysis, null, 2)}\n`);
}
