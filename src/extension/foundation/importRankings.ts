/**
 * TeamFusion: Import Rankings from CSV… — a spreadsheet export becomes one ranking file per designer. Asks for the
 * CSV and, when ranking files exist, whether to overwrite them. Tests and scripts pass `{ reviewRoot, csv, force }`
 * and are never asked anything.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod';
import { formatDiagnostic, importRankingsCsv, type CsvImportResult } from '../../core/review/index';
import type { LiveDiagnostics } from './liveDiagnostics';
import type { ReviewIndex } from './reviewIndex';

export const ImportArgsSchema = z.object({
  reviewRoot: z.string().min(1).optional(),
  csv: z.string().min(1),
  force: z.boolean().optional(),
});

export interface ImportOutcome extends CsvImportResult {
  reviewRoot: string;
}

export async function importRankings(
  reviews: ReviewIndex,
  live: LiveDiagnostics,
  log: vscode.LogOutputChannel,
  arg: unknown,
): Promise<ImportOutcome | undefined> {
  const scripted = ImportArgsSchema.safeParse(arg);
  const root = await reviews.resolve(scripted.success ? scripted.data.reviewRoot : arg);
  if (!root) {
    void vscode.window.showInformationMessage('No review folder to import into. Open or create a review first.');
    return undefined;
  }
  let csv: string | undefined = scripted.success ? scripted.data.csv : undefined;
  if (!csv) {
    const picked = await vscode.window.showOpenDialog({
      title: `Import rankings into ${path.basename(root.fsPath)}`,
      canSelectMany: false,
      filters: { 'CSV (UTF-8)': ['csv'] },
      defaultUri: root,
      openLabel: 'Import',
    });
    csv = picked?.[0]?.fsPath;
  }
  if (!csv) return undefined;

  let result = await importRankingsCsv(csv, root.fsPath, { force: scripted.success ? (scripted.data.force ?? false) : false });
  if (!scripted.success && result.skipped.length > 0 && result.diagnostics.every((d) => d.severity !== 'error')) {
    const names = result.skipped.map((f) => path.posix.basename(f)).join(', ');
    const answer = await vscode.window.showWarningMessage(
      `${result.skipped.length === 1 ? 'A ranking file exists' : `${result.skipped.length} ranking files exist`} already (${names}). Overwrite?`,
      { modal: true },
      'Overwrite',
    );
    if (answer === 'Overwrite') result = await importRankingsCsv(csv, root.fsPath, { force: true });
  }

  log.info(`Import ${csv} → ${root.fsPath}: ${result.written.length} written, ${result.skipped.length} kept.`);
  for (const d of result.diagnostics) log.info(`  ${formatDiagnostic(d)}`);
  // The CSV's own problems go to the CSV file in the Problems panel (the review's are published by validate below).
  const csvAbs = path.resolve(csv);
  await live.publishExtra(
    `csv:${csvAbs}`,
    root,
    result.diagnostics.filter((d) => path.isAbsolute(d.file)),
  );
  reviews.invalidate();
  await live.validate(root);

  const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
  if (errors > 0 && result.written.length === 0) {
    void vscode.window.showErrorMessage(
      `Nothing imported: the CSV has ${errors} problem${errors === 1 ? '' : 's'}. See the Problems panel.`,
    );
  } else if (result.written.length === 0 && result.skipped.length > 0) {
    void vscode.window.showInformationMessage(`Nothing imported: ${result.skipped.length} ranking file(s) exist and were kept.`);
  } else {
    const kept = result.skipped.length ? `, ${result.skipped.length} kept` : '';
    void vscode.window.showInformationMessage(
      `Imported ${result.written.length} ranking file(s) into '${path.basename(root.fsPath)}'${kept}.`,
    );
  }
  return { ...result, reviewRoot: root.fsPath };
}
