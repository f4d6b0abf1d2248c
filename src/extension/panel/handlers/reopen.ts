/**
 * The lead reopens a decision from the review panel (issue 38), through `reopenDecision`, the same core function as
 * `teamfusion vote <review> <run-id> --as <lead> --reopen`: the decision stays in its round as history, the votes are kept.
 * The lead confirms first (a modal in VS Code); the core refuses anyone but the lead. With the sync setting on, run.json is
 * committed alone, pulled and pushed. The outcome is said in the panel, which then reloads.
 */
import type { CommandHandler } from './context';
import { reopenDecision } from '../../../core/evaluation/votes/reopen';
import { VoteError } from '../../../core/evaluation/votes/cast';
import { readRunRecord } from '../../../core/record/store';
import { RunRecordError } from '../../../core/diagnostics/diagnostics';
import { forkOf } from '../../../core/evaluation/votes/forks';
import { errorMessage } from '../../../core/kernel/errors';

/** What the lead is asked before anything is written; `question`: the fork's, as recorded (when it could be read). */
export function reopenQuestion(
  m: { runId: string; iteration: number; decisionPoint: number },
  question?: string,
): { message: string; detail: string; button: string } {
  const what = question ? `"${question}"` : `decision point ${m.decisionPoint}`;
  return {
    message: `Reopen the decision on ${what} of round ${m.iteration} (run ${m.runId})?`,
    detail:
      'The decision stays in its round as history and no longer binds later rounds. The votes cast are kept: a vote or your close decides it again.',
    button: 'Reopen',
  };
}

export const reopenHandlers: { reopen: CommandHandler<'reopen'> } = {
  reopen: async (m, panel) => {
    const question = await readRunRecord(panel.root.fsPath, m.runId).then(
      (r) => forkOf(r, m.iteration, m.decisionPoint)?.question,
      () => undefined, // said by the core once confirmed
    );
    const ask = reopenQuestion(m, question);
    if (!(await panel.confirm(ask.message, ask.detail, ask.button))) return;
    const { services } = panel;
    const root = panel.root.fsPath;
    let out;
    try {
      out = await reopenDecision({
        reviewRoot: root,
        runId: m.runId,
        as: m.as,
        iteration: m.iteration,
        decisionPoint: m.decisionPoint,
        shared: services.sync.enabled(),
      });
    } catch (err) {
      if (!(err instanceof VoteError || err instanceof RunRecordError)) throw err;
      panel.post({ type: 'notice', level: 'warning', message: `Not reopened: ${err.message}` });
      return;
    }
    panel.post({ type: 'notice', level: 'info', message: out.note });
    services.log.info(`${m.as} reopened a decision of run ${m.runId} from the review panel: ${out.note}`);
    if (services.sync.enabled()) {
      const how = await services.sync
        .commitFile(root, out.recordFile, `TeamFusion ${m.runId}: ${m.as} reopens a decision`)
        .catch((e: unknown) => errorMessage(e));
      services.log.info(`${out.recordFile}: ${how}`);
    }
    panel.reload(false);
  },
};
