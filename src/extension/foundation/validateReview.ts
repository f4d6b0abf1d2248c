/**
 * TeamFusion: Validate Review — checks a review folder, puts its problems in the Problems panel and the Output
 * channel, and says in one notification how it went. Returns the counts (for tests and scripts).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatDiagnostic } from '../../core/review/index';
import type { Diagnostic } from '../../core/diagnostics/diagnostics';
import type { LiveDiagnostics } from './liveDiagnostics';
import type { ReviewIndex } from './reviewIndex';

export interface ValidateOutcome {
  reviewRoot: string;
  title: string;
  errors: number;
  warnings: number;
  diagnostics: Diagnostic[];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function summaryOf(title: string, errors: number, warnings: number): string {
  if (errors === 0 && warnings === 0) return `Review '${title}' is valid.`;
  const parts = [errors ? plural(errors, 'error') : '', warnings ? plural(warnings, 'warning') : ''].filter(Boolean);
  return `Review '${title}': ${parts.join(', ')}`;
}

export async function validateReview(
  reviews: ReviewIndex,
  live: LiveDiagnostics,
  log: vscode.LogOutputChannel,
  arg: unknown,
): Promise<ValidateOutcome | undefined> {
  const root = await reviews.resolve(arg);
  if (!root) {
    void vscode.window.showInformationMessage(
      'No review folder here. A review folder holds brief.md, options/ and rankings/; use "TeamFusion: New Review…" to make one.',
    );
    return undefined;
  }
  const result = await live.validate(root);
  const title = result.review?.title ?? path.basename(root.fsPath);
  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = result.diagnostics.length - errors;
  const summary = summaryOf(title, errors, warnings);
  log.info(`Validate ${root.fsPath}: ${summary}`);
  for (const d of result.diagnostics) log.info(`  ${formatDiagnostic(d)}`);
  const show = errors ? vscode.window.showErrorMessage : warnings ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  // Not awaited: the command returns at once; the button acts whenever it is pressed.
  void show(summary, ...(errors || warnings ? ['Show Problems'] : [])).then((choice) => {
    if (choice === 'Show Problems') void vscode.commands.executeCommand('workbench.actions.view.problems');
  });
  return { reviewRoot: root.fsPath, title, errors, warnings, diagnostics: result.diagnostics };
}
