/**
 * The panel's "Agreement before → after" for a run with a re-ranking folder (runs/<run-id>/rerank), from
 * compareAgreement. No `vscode` import. Undefined when the run has no re-ranking folder or the parent review cannot be
 * analysed (the Agreement tab already says why).
 */
import { pathExists } from '../../core/fsUtil';
import { compareAgreement, rerankDir } from '../../core/rerank';
import { RerankAgreementSchema, type PanelRerankAgreement } from '../../protocol/panel';

export async function rerankAgreement(reviewRoot: string, runId: string, log: (line: string) => void): Promise<PanelRerankAgreement | undefined> {
  try {
    if (!(await pathExists(rerankDir(reviewRoot, runId)))) return undefined;
    const c = await compareAgreement(reviewRoot, runId);
    const parsed = RerankAgreementSchema.safeParse({
      runId,
      before: c.before,
      ...(c.after ? { after: c.after, converged: c.converged } : {}),
      rerankings: c.rerankings,
      folder: `runs/${runId}/rerank`,
      ...(c.waiting ? { waiting: c.waiting } : {}),
    });
    if (!parsed.success) {
      log(`The before → after agreement has an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`);
      return undefined;
    }
    return parsed.data;
  } catch (e) {
    log(`No before → after agreement for run ${runId}: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}
