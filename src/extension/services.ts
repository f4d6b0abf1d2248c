/**
 * The few long-lived objects every area of the extension shares. Created once in activate().
 */
import * as vscode from 'vscode';
import { ReviewIndex } from './foundation/reviewIndex';
import { RunManager } from './run/runManager';

export interface Services extends vscode.Disposable {
  readonly context: vscode.ExtensionContext;
  /** The "TeamFusion" Output channel. Never log a secret. */
  readonly log: vscode.LogOutputChannel;
  /** Review folders in the workspace, their loading and validation. */
  readonly reviews: ReviewIndex;
  /** Runs in flight, their events, the API key. */
  readonly runs: RunManager;
}

export function createServices(context: vscode.ExtensionContext): Services {
  const log = vscode.window.createOutputChannel('TeamFusion', { log: true });
  const reviews = new ReviewIndex(log);
  const runs = new RunManager(context, log);
  return {
    context,
    log,
    reviews,
    runs,
    dispose() {
      runs.dispose();
      reviews.dispose();
      log.dispose();
    },
  };
}
