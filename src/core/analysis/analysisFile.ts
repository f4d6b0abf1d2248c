/**
 * runs/<run-id>/analysis.json: the interaction coding of a run (Bales IPA) and its stance table. Written only through the
 * review-file room (atomic, contained); read back with the same checks as any input (byte cap, UTF-8, schema).
 */
import { readKindText } from '../files/fileKinds';
import { ReviewFileError, writeReviewFile } from '../files/reviewFiles';
import { lineColAt, locateJsonValue } from '../diagnostics/jsonLocate';
import { zodSentence } from '../zodText';
import { RUNS_DIR } from '../record/store';
import { AnalysisFileSchema, type AnalysisFile } from './schema';

export * from './schema';

export const ANALYSIS_FILE = 'analysis.json';

export function analysisPath(runId: string): string {
  return `${RUNS_DIR}/${runId}/${ANALYSIS_FILE}`;
}

/** The run's analysis.json, or undefined when there is none. Throws ReviewFileError naming the file when it is unusable. */
export async function readAnalysisFile(root: string, runId: string): Promise<AnalysisFile | undefined> {
  const rel = analysisPath(runId);
  let text: string;
  try {
    text = await readKindText(root, rel, 'analysis');
  } catch (err) {
    if (err instanceof ReviewFileError && err.reason === 'missing') return undefined;
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ReviewFileError(rel, `${rel}: error: not valid JSON (${err instanceof Error ? err.message : String(err)}); code again with --force to replace it.`);
  }
  const parsed = AnalysisFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const at = lineColAt(text, locateJsonValue(text, issue.path.filter((p): p is string | number => typeof p !== 'symbol')));
    throw new ReviewFileError(rel, `${rel}:${at.line}:${at.column}: error: ${zodSentence(parsed.error, 'the file').replace(/\.$/, '')}; code again with --force to replace it.`);
  }
  return parsed.data;
}

export async function writeAnalysisFile(root: string, analysis: AnalysisFile): Promise<void> {
  await writeReviewFile(root, analysisPath(analysis.runId), `${JSON.stringify(analysis, null, 2)}\n`);
}
