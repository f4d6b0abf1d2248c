/**
 * The panel's "Did it help?" for a run with a blind re-rank set (runs/<run-id>/rerank), from the evaluation room's
 * compareRun. No `vscode` import. Undefined when the run has no re-rank set or the review cannot be analysed (the
 * Agreement tab already says why).
 */
import { compareRun, rerankRel } from '../../core/evaluation';
import { statInReview } from '../../core/files/reviewFiles';
import { EvaluationSchema, type PanelEvaluation } from '../../protocol/panel';

export async function runEvaluation(reviewRoot: string, runId: string, log: (line: string) => void): Promise<PanelEvaluation | undefined> {
  try {
    const folder = rerankRel(runId);
    if (!(await statInReview(reviewRoot, folder))) return undefined;
    const c = await compareRun(reviewRoot, runId);
    const parsed = EvaluationSchema.safeParse({ ...c, folder });
    if (!parsed.success) {
      log(`"Did it help?" has an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`);
      return undefined;
    }
    return parsed.data;
  } catch (e) {
    log(`No "Did it help?" for run ${runId}: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}
