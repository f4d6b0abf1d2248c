/**
 * The few long-lived objects every area of the extension shares. Created once, when the core loads (core.ts).
 */
import * as vscode from 'vscode';
import { ReviewIndex } from './foundation/reviewIndex';
import { RunManager } from './run/runManager';
import { TeamSync } from './sync/teamSync';

export interface Services extends vscode.Disposable {
  readonly context: vscode.ExtensionContext;
  /** The "TeamFusion" Output channel. Never log a secret. */
  readonly log: vscode.LogOutputChannel;
  /** Review folders in the workspace, their loading and validation. */
  readonly reviews: ReviewIndex;
  /** Runs in flight, their events, the API key. */
  readonly runs: RunManager;
  /** The team's git remote (setting teamfusion.sync): runs, people's files and panels through it. */
  readonly sync: TeamSync;
}

/** `reviewWatcher`: the activation shell's watcher of the review files (REVIEW_FILES_GLOB). */
export function createServices(context: vscode.ExtensionContext, reviewWatcher: vscode.FileSystemWatcher): Services {
  const log = vscode.window.createOutputChannel('TeamFusion', { log: true });
  const reviews = new ReviewIndex(log, reviewWatcher);
  const sync = new TeamSync(log);
  const runs = new RunManager(context, log, sync);
  return {
    context,
    log,
    reviews,
    runs,
    sync,
    dispose() {
      runs.dispose();
      sync.dispose();
      reviews.dispose();
      log.dispose();
    },
  };
}
