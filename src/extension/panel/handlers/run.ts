/** The panel's run area: start, refine and cancel a run, set the API key, code a run's discussion or stop coding it. */
import type { CommandHandler } from './context';
import { discussionCoding } from '../../analysis/discussionCoding';

export const runHandlers: {
  run: CommandHandler<'run'>;
  refine: CommandHandler<'refine'>;
  cancel: CommandHandler<'cancel'>;
  setApiKey: CommandHandler<'setApiKey'>;
  codeDiscussion: CommandHandler<'codeDiscussion'>;
  cancelCoding: CommandHandler<'cancelCoding'>;
} = {
  run: (m, panel) =>
    panel.command('runReview', {
      reviewRoot: panel.root.fsPath,
      ...(m.task ? { task: m.task } : {}),
      ...(m.resume ? { resume: m.resume } : {}),
    }),
  refine: (m, panel) => panel.command('refineRun', { reviewRoot: panel.root.fsPath, runId: m.runId, feedback: m.feedback }),
  cancel: (m, panel) => panel.command('cancelRun', { reviewRoot: panel.root.fsPath, ...(m.runId ? { runId: m.runId } : {}) }),
  setApiKey: (_m, panel) => panel.command('setApiKey'),
  codeDiscussion: (m, panel) =>
    panel.command('codeDiscussion', { reviewRoot: panel.root.fsPath, runId: m.runId, ...(m.force ? { force: true } : {}) }),
  cancelCoding: (_m, panel) => discussionCoding()?.cancel(panel.root.fsPath),
};
