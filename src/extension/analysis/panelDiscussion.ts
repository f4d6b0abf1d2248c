/** The review panel's "Discussion analysis" data for the run shown: analysis.json (checked on read) and the stance table. */
import { readAnalysisFile, stanceTable, topChoiceOf } from '../../core/analysis';
import type { Review } from '../../core/review/model';
import type { RunRecord } from '../../core/record/record';
import type { PanelCodingProgress, PanelDiscussionAnalysis } from '../../protocol/panel';
import { errorMessage } from '../../core/kernel/errors';

export async function discussionState(
  root: string,
  run: RunRecord | undefined,
  review: Review | undefined,
  coding: PanelCodingProgress | undefined,
): Promise<PanelDiscussionAnalysis | undefined> {
  if (!run) return undefined;
  const out: PanelDiscussionAnalysis = { runId: run.id };
  try {
    const a = await readAnalysisFile(root, run.id);
    if (a) {
      const { prompt: _prompt, ...rest } = a;
      void _prompt;
      out.analysis = rest;
    }
  } catch (e) {
    out.error = errorMessage(e);
  }
  if (review && run.iterations.some((it) => it.backed)) {
    out.stance = stanceTable(
      run,
      review.designers.map((d) => ({ id: d.id, topChoice: topChoiceOf(d.entries) })),
    );
  }
  if (coding?.runId === run.id) out.coding = coding;
  return out;
}
