/** How a run's outcome is told in VS Code: one notification in words, with the buttons that fit it (open, commit, resume, log). */
import * as vscode from 'vscode';
import type { RunRecord } from '../../core/record/record';
import { outcomeSentence } from './eventText';

export const ACTION_RESUME = 'Resume';
export const ACTION_SHOW_LOG = 'Show Log';
const ACTION_OPEN = 'Open Review';
const ACTION_COMMIT = 'Commit Run…';
const ACTION_ANSWER = 'Open the Panel to Answer';

/** What the buttons do (the run manager's). */
export interface OutcomeActions {
  redact(line: string): string;
  resume(reviewRoot: string, runId: string): void;
  showLog(): void;
}

export function reportOutcome(root: string, record: RunRecord, act: OutcomeActions): void {
  const sentence = act.redact(outcomeSentence(record));
  switch (record.status) {
    case 'completed':
      void vscode.window.showInformationMessage(sentence, ACTION_OPEN, ACTION_COMMIT).then((choice) => {
        if (choice === ACTION_OPEN) void vscode.commands.executeCommand('teamfusion.openReview', vscode.Uri.file(root));
        if (choice === ACTION_COMMIT) void vscode.commands.executeCommand('teamfusion.commitRun', { reviewRoot: root, runId: record.id });
      });
      break;
    case 'cancelled':
      void vscode.window.showInformationMessage(sentence, ACTION_RESUME).then((choice) => {
        if (choice === ACTION_RESUME) act.resume(root, record.id);
      });
      break;
    case 'waiting':
      void vscode.window.showInformationMessage(sentence, ACTION_ANSWER).then((choice) => {
        if (choice === ACTION_ANSWER) void vscode.commands.executeCommand('teamfusion.openReview', vscode.Uri.file(root));
      });
      break;
    case 'failed':
    case 'running':
      void vscode.window.showErrorMessage(sentence, ACTION_RESUME, ACTION_SHOW_LOG).then((choice) => {
        if (choice === ACTION_RESUME) act.resume(root, record.id);
        if (choice === ACTION_SHOW_LOG) act.showLog();
      });
      break;
  }
}

/** The run waits for a person: a notification offers to open the panel where they answer. */
export function offerWaiting(root: string, name: string, act: OutcomeActions): void {
  const text = act.redact(`TeamFusion: it is ${name}'s turn in the discussion; the run waits for them to answer in the panel.`);
  void vscode.window.showInformationMessage(text, ACTION_ANSWER).then((choice) => {
    if (choice === ACTION_ANSWER) void vscode.commands.executeCommand('teamfusion.openReview', vscode.Uri.file(root));
  });
}
