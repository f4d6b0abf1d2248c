/**
 * "TeamFusion: Record Team Decision…" (teamfusion.recordDecision): for a usual-way review (review.yaml `condition: usual`,
 * issue 19) the lead records what the team picked and when it started; decision.yaml is written at the review's root
 * through the core (validated, the file room). Argument: a review (tree item, URI, path), or `{ reviewRoot, pick,
 * startedAt }` (no pickers); nothing: the open review is used. Returns the written path, or undefined.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { guardWriteCommand } from '../commandGuard';
import { isIsoTime, loadDecision, writeDecision } from '../../core/evaluation/evaluate/baseline';
import { formatDiagnostic } from '../../core/diagnostics/diagnostics';
import { loadReview } from '../../core/review/loadReview';
import type { Services } from '../services';
import { errorMessage } from '../../core/kernel/errors';

export const RECORD_DECISION_COMMAND = 'teamfusion.recordDecision';

interface DirectArgs {
  reviewRoot: string;
  pick?: string;
  startedAt?: string;
}

function directArgs(arg: unknown): DirectArgs | undefined {
  if (typeof arg !== 'object' || arg === null || !('reviewRoot' in arg)) return undefined;
  const a = arg as Record<string, unknown>;
  if (typeof a.reviewRoot !== 'string') return undefined;
  return {
    reviewRoot: a.reviewRoot,
    pick: typeof a.pick === 'string' ? a.pick : undefined,
    startedAt: typeof a.startedAt === 'string' ? a.startedAt : undefined,
  };
}

export async function recordDecision(services: Services, arg: unknown, now: () => Date = () => new Date()): Promise<string | undefined> {
  const direct = directArgs(arg);
  const root = direct?.reviewRoot ?? (await services.reviews.resolve(arg))?.fsPath;
  if (!root) {
    void vscode.window.showInformationMessage('Open a folder with a TeamFusion review first.');
    return undefined;
  }
  const loaded = await loadReview(root, { requireRankings: false, decodeImages: false });
  const first = loaded.diagnostics.find((d) => d.severity === 'error');
  if (!loaded.review || first) {
    void vscode.window.showErrorMessage(`The review has a problem: ${first ? formatDiagnostic(first) : 'it cannot be loaded.'}`);
    return undefined;
  }
  const review = loaded.review;
  if (review.config.condition !== 'usual') {
    void vscode.window.showErrorMessage(
      'Record Team Decision is for a review the team decided the usual way: add "condition: usual" to its review.yaml. A TeamFusion review is decided by its run and Commit Run.',
    );
    return undefined;
  }
  const ids = review.options.map((o) => o.id);
  let pick = direct?.pick;
  if (pick === undefined) {
    const chosen = await vscode.window.showQuickPick(
      review.options.map((o) => ({ label: o.id, description: o.label !== o.id ? o.label : undefined, detail: o.file })),
      { title: 'TeamFusion: Record Team Decision', placeHolder: 'Which option did the team pick?' },
    );
    if (!chosen) return undefined;
    pick = chosen.label;
  }
  const earlier = await loadDecision(root, ids);
  let startedAt = direct?.startedAt ?? (direct ? earlier.decision?.startedAt : undefined);
  if (startedAt === undefined && !direct) {
    startedAt = await vscode.window.showInputBox({
      title: 'TeamFusion: Record Team Decision',
      prompt: 'When did the team start deciding? (ISO time, e.g. 2026-11-24T13:00:00Z)',
      value: earlier.decision?.startedAt ?? new Date(now().getTime() - 20 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      validateInput: (v) => (isIsoTime(v.trim()) ? undefined : 'An ISO time with a zone, like 2026-11-24T13:00:00Z.'),
    });
    if (startedAt === undefined) return undefined;
  }
  if (!startedAt || !isIsoTime(startedAt.trim())) {
    void vscode.window.showErrorMessage('Say when the team started deciding, as an ISO time like 2026-11-24T13:00:00Z.');
    return undefined;
  }
  try {
    const rel = await writeDecision(root, ids, { pick, startedAt: startedAt.trim(), decidedAt: now().toISOString() });
    const file = path.join(root, rel);
    services.log.info(`Recorded the team's decision (${pick}) in ${file}.`);
    services.reviews.invalidate();
    void vscode.window.showInformationMessage(
      `Recorded the team's decision: option ${pick}. "teamfusion evaluate" pairs it with the team's TeamFusion review.`,
    );
    return file;
  } catch (e) {
    const why = errorMessage(e);
    services.log.warn(`Record Team Decision: ${why}`);
    void vscode.window.showErrorMessage(why);
    return undefined;
  }
}

export function registerBaseline(context: vscode.ExtensionContext, services: Services): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      RECORD_DECISION_COMMAND,
      guardWriteCommand(services.log, 'Record Team Decision', (arg) => recordDecision(services, arg)),
    ),
  );
}
