/** The panel's brief area: show a round's revised brief beside brief.md, adopt it, or comment on the brief. */
import * as vscode from 'vscode';
import type { CommandHandler } from './context';

export const briefHandlers: {
  showBriefChanges: CommandHandler<'showBriefChanges'>;
  adoptBrief: CommandHandler<'adoptBrief'>;
  commentOnBrief: CommandHandler<'commentOnBrief'>;
} = {
  showBriefChanges: (m, panel) =>
    panel.command('showBriefChanges', {
      reviewRoot: panel.root.fsPath,
      runId: m.runId,
      ...(m.iteration ? { iteration: m.iteration } : {}),
    }),
  // The command asks for a modal confirmation and refuses in an untrusted workspace (the one write guard).
  adoptBrief: (m, panel) =>
    panel.command('adoptRevisedBrief', {
      reviewRoot: panel.root.fsPath,
      runId: m.runId,
      ...(m.iteration ? { iteration: m.iteration } : {}),
    }),
  commentOnBrief: (_m, panel) => panel.command('commentOnBrief', { uri: vscode.Uri.joinPath(panel.root, 'brief.md').toString() }),
};
