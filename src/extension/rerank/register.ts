/**
 * "TeamFusion: Make Blind Re-rank Set…" (teamfusion.rerankRun): makes runs/<run-id>/rerank/ — the blind re-rank set (the
 * team's Borda top 3 + every remix, under letters) — reveals it and opens its panel, where each designer adds "My
 * ranking". The parent review's Run tab then shows "Did it help?". Argument: `{ reviewRoot, runId }`, a run tree item, or nothing (a review and
 * then one of its completed runs are picked). Then each proxy forecasts its designer's blind answer (./forecast.ts). Returns the new folder's path, or undefined when nothing was made.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { guardWriteCommand } from '../commandGuard';
import { makeRerankSet } from '../../core/evaluation';
import type { Services } from '../services';
import { runRefFromArg, type RunRef } from '../run/commandArgs';
import { pickRun } from '../run/pickRun';
import { errorMessage } from '../../core/kernel/errors';
import { checkForecastWritable } from '../../core/forecast/forecast';
import { forecastInVsCode } from './forecast';

export const RERANK_COMMAND = 'teamfusion.rerankRun';
/** "TeamFusion: Make Missing Forecasts…": the forecast step on its own (as `teamfusion forecast`), for a run with a blind set. */
export const FORECAST_COMMAND = 'teamfusion.forecastRun';

async function runRefOf(services: Services, arg: unknown, title = 'TeamFusion: Make Blind Re-rank Set'): Promise<RunRef | undefined> {
  const direct = runRefFromArg(arg);
  if (direct) return direct;
  const review = await services.reviews.resolve(arg);
  if (!review) {
    void vscode.window.showInformationMessage('Open a folder with a TeamFusion review first.');
    return undefined;
  }
  const record = await pickRun(review.fsPath, {
    statuses: ['completed'],
    title,
    placeHolder: 'Which completed run should the team re-rank?',
    emptyMessage: 'This review has no completed run yet; the team re-ranks the final candidates of a completed run.',
  });
  return record ? { reviewRoot: review.fsPath, runId: record.id } : undefined;
}

export async function rerankRun(services: Services, arg: unknown): Promise<string | undefined> {
  const ref = await runRefOf(services, arg);
  if (!ref) return undefined;
  let dir: string;
  let notes: string[] = [];
  try {
    // What the forecasts will write is checked first, as `teamfusion rerank` does: a link there refuses before anything is made.
    await checkForecastWritable(ref.reviewRoot, ref.runId);
    const made = await makeRerankSet(ref.reviewRoot, ref.runId);
    dir = made.dir;
    notes = made.notes ?? [];
  } catch (e) {
    const why = errorMessage(e);
    services.log.warn(`Make Blind Re-rank Set: ${why}`);
    void vscode.window.showErrorMessage(why);
    return undefined;
  }
  services.log.info(`Made the re-ranking folder ${dir}.`);
  // Each proxy forecasts its designer's blind answer, sealed until that designer's re-rank is saved.
  const forecasts = await forecastInVsCode(services, ref.reviewRoot, ref.runId);
  const uri = vscode.Uri.file(dir);
  services.reviews.invalidate();
  await vscode.commands.executeCommand('revealInExplorer', uri).then(undefined, () => undefined);
  await vscode.commands.executeCommand('teamfusion.openReview', uri);
  void vscode.window.showInformationMessage(
    `Made the blind re-rank set ${path.join('runs', ref.runId, 'rerank')}: each designer now ranks it ("My ranking" in the panel). ` +
      `The Run tab of the original review then shows "Did it help?". ${[...notes, forecasts].join(' ')}`,
  );
  return dir;
}

/** Makes the missing or failed forecasts of a run whose blind set exists (core makeForecasts, as `teamfusion forecast`). */
export async function forecastRun(services: Services, arg: unknown): Promise<string | undefined> {
  const ref = await runRefOf(services, arg, 'TeamFusion: Make Missing Forecasts');
  if (!ref) return undefined;
  const sentence = await forecastInVsCode(services, ref.reviewRoot, ref.runId, 'forecast');
  services.reviews.invalidate();
  void vscode.window.showInformationMessage(sentence);
  return sentence;
}

export function registerRerank(context: vscode.ExtensionContext, services: Services): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      RERANK_COMMAND,
      guardWriteCommand(services.log, 'Make Blind Re-rank Set', (arg) => rerankRun(services, arg)),
    ),
  );
  context.subscriptions.push(
    vscode.commands.registerCommand(
      FORECAST_COMMAND,
      guardWriteCommand(services.log, 'Make Missing Forecasts', (arg) => forecastRun(services, arg)),
    ),
  );
}
