/**
 * Workspace Trust for the review panel, wired to VS Code: whether the workspace is trusted (the state's `trusted`), and
 * how a refusal is told outside the panel (a warning with a button to manage trust, as every guarded command does). What
 * is refused, and what the panel answers instead: handlers/trustGate.ts, over the table of src/protocol/effects.ts.
 */
import * as vscode from 'vscode';
import type { PanelTrust } from './handlers/trustGate';
import { trustUi } from '../commandGuard';
import { ensureTrusted, ensureTrustedToWrite } from '../run/trustGuard';

export function workspaceTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

/** The panel's trust: VS Code's, with refusals told by the same guards as the commands' and logged. */
export function panelTrust(log: vscode.LogOutputChannel): PanelTrust {
  return {
    trusted: workspaceTrusted,
    refused(effect, action) {
      log.warn(`Review panel: ${action} refused in an untrusted workspace (nothing ${effect === 'sends' ? 'sent' : 'written'}).`);
      if (effect === 'sends') ensureTrusted(false, trustUi);
      else ensureTrustedToWrite(false, trustUi, action);
    },
  };
}
