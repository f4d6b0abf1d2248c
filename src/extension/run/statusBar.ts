/**
 * One status bar item while any run is active: "$(sync~spin) TeamFusion: iteration 2/3". A click offers Cancel or Show Log.
 */
import * as vscode from 'vscode';
import { statusBarText } from './eventText';

export interface ActiveRunView {
  reviewRoot: string;
  runId?: string;
  iteration?: number;
  total?: number;
}

export class RunStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem('teamfusion.run', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'TeamFusion Run';
    this.item.command = { command: 'teamfusion.cancelRun', title: 'Cancel or show the TeamFusion run', arguments: [{ ask: true }] };
  }

  update(runs: readonly ActiveRunView[]): void {
    const first = runs[0];
    if (!first) {
      this.item.hide();
      return;
    }
    this.item.text = statusBarText(first.iteration, first.total, runs.length);
    const lines = runs.map((r) => `${r.runId ?? 'new run'} — ${r.reviewRoot}`);
    this.item.tooltip = `TeamFusion is running:\n${lines.join('\n')}\nClick to cancel or to show the log.`;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
