/**
 * Workspace Trust for the review panel, in one place: whether the workspace is trusted (the state's `trusted`), and what
 * the panel answers, instead of acting, to a message that would send something to a model or write into the review in
 * an untrusted workspace (a webview can post any message: the host refuses, not the page). Messages that go through a
 * command (refine, adopt a brief, comment on it) are refused by that command's own guard; say and pin by the people room.
 */
import * as vscode from 'vscode';
import { PANEL_REQUESTS, type HostMessage, type WebviewMessage } from '../../protocol/panel';
import { workspaceWritable } from '../commandGuard';
import { untrustedWriteMessage } from '../run/trustGuard';

export function workspaceTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

const SAVE_RANKING = 'saving a ranking from the panel';

/** What the panel answers `m` with in an untrusted workspace; undefined when `m` may go ahead (trusted, or harmless). */
export function untrustedRefusal(m: WebviewMessage, log: vscode.LogOutputChannel): HostMessage | undefined {
  if (workspaceTrusted()) return undefined;
  switch (m.type) {
    case 'run':
      return { type: 'notice', level: 'warning', message: 'Runs are off in an untrusted workspace: nothing is sent to a model.' };
    case 'codeDiscussion':
      return { type: 'notice', level: 'warning', message: 'Coding is off in an untrusted workspace: nothing is sent to a model.' };
    case 'vote':
      return PANEL_REQUESTS.vote.refused(m.requestId, 'Nothing is written in an untrusted workspace: your vote is not saved.');
    case 'saveRatings':
    case 'saveSurvey':
    case 'saveCoverage':
      return PANEL_REQUESTS[m.type].refused(m.requestId, 'Nothing is written in an untrusted workspace.');
    case 'saveRanking':
      // Also tells the user, with a button to manage trust, as every write command does.
      workspaceWritable(SAVE_RANKING, log);
      return PANEL_REQUESTS.saveRanking.refused(m.requestId, untrustedWriteMessage(SAVE_RANKING));
    default:
      return undefined;
  }
}
