/** The panel's page area: the app is ready, wants a reload or another run shown, opens a file of the review or a run's blind re-rank set, remembers who is at the panel, or logs. */
import * as vscode from 'vscode';
import type { CommandHandler } from './context';
import { resolveInReview } from '../../../core/files/reviewFiles';
import { errorMessage } from '../../../core/kernel/errors';
import { rerankRel } from '../../../core/evaluation';
import { rememberMe } from '../me';
import { blindSetRef } from '../../foundation/blindSet';

export const pageHandlers: {
  ready: CommandHandler<'ready'>;
  refresh: CommandHandler<'refresh'>;
  openRun: CommandHandler<'openRun'>;
  openFile: CommandHandler<'openFile'>;
  openRerank: CommandHandler<'openRerank'>;
  backToRun: CommandHandler<'backToRun'>;
  setMe: CommandHandler<'setMe'>;
  log: CommandHandler<'log'>;
} = {
  ready: (_m, panel) => panel.pageReady(),
  refresh: (_m, panel) => panel.reload(true),
  openRun: (m, panel) => panel.showRun(m.runId),
  openFile: async (m, panel) => {
    let abs: string;
    try {
      // Contained, symbolic links followed: the panel never opens a file outside the review.
      abs = await resolveInReview(panel.root.fsPath, m.path);
    } catch (e) {
      panel.services.log.warn(`The review panel asked to open a file outside the review: ${errorMessage(e)}`);
      return;
    }
    await panel.command('open', vscode.Uri.file(abs));
  },
  openRerank: async (m, panel) => {
    let abs: string;
    try {
      abs = await resolveInReview(panel.root.fsPath, rerankRel(m.runId));
    } catch (e) {
      panel.post({ type: 'notice', level: 'warning', message: `No blind re-rank set to open: ${errorMessage(e)}` });
      return;
    }
    await panel.command('openReview', vscode.Uri.file(abs));
  },
  backToRun: async (_m, panel) => {
    const ref = blindSetRef(panel.root.fsPath);
    if (ref) await panel.command('openReview', { reviewRoot: ref.reviewRoot, runId: ref.runId });
  },
  setMe: async (m, panel) => {
    await rememberMe(panel.services.context.workspaceState, m.member);
  },
  log: (m, panel) => panel.services.log[m.level === 'warning' ? 'warn' : m.level](`Review panel: ${m.message}`),
};
