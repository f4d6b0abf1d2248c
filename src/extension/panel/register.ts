/**
 * Registers "TeamFusion: Open Review", and brings review panels back after a window reload (for the shell's serializer).
 */
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { guardCommand } from '../commandGuard';
import { COMMANDS } from '../commandIds';
import type { Services } from '../services';
import { isReviewFolder } from '../../core/review';
import { parsePersistedState } from '../../protocol/panel';
import { escapeHtml } from './html';
import { ReviewPanel } from './reviewPanel';
import { completeStep, STEP_DONE } from '../walkthrough';

async function isFolder(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** `{ reviewRoot, runId }` (a run in the Reviews tree) opens the review on that run. */
function runIdOf(arg: unknown): string | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const runId = (arg as { runId?: unknown }).runId;
  return typeof runId === 'string' && runId.length > 0 ? runId : undefined;
}

/** Brings back a review panel after a window reload (the activation shell's serializer hands it over). */
export async function reviveReviewPanel(services: Services, panel: vscode.WebviewPanel, state: unknown): Promise<void> {
  const parsed = parsePersistedState(state);
  if (parsed.ok && (await isFolder(parsed.value.root))) {
    ReviewPanel.revive(services, panel, vscode.Uri.file(parsed.value.root), parsed.value.runId);
    return;
  }
  services.log.info('A review panel could not be restored: its review folder is gone or unknown.');
  panel.webview.options = { enableScripts: false, localResourceRoots: [] };
  panel.webview.html = `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head><body><p>${escapeHtml(
    'This review is no longer available. Open it again with "TeamFusion: Open Review".',
  )}</p></body></html>`;
}

export function registerReviewPanel(context: vscode.ExtensionContext, services: Services): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      COMMANDS.openReview,
      guardCommand(services.log, 'Open Review', async (arg: unknown) => {
        const root = await services.reviews.resolve(arg);
        if (!root) return undefined;
        if (!(await isReviewFolder(root.fsPath))) {
          void vscode.window.showWarningMessage(
            `${root.fsPath} is not a review folder: a review folder holds brief.md, options/ and rankings/.`,
          );
          return undefined;
        }
        ReviewPanel.show(services, root, runIdOf(arg));
        completeStep(STEP_DONE.analysis);
        return undefined;
      }),
    ),
  );
}
