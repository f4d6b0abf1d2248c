/**
 * A QuickPick of a review's runs, newest first, with their outcome.
 */
import * as vscode from 'vscode';
import type { RunRecord, RunStatus } from '../../core/run/record';
import { listRuns } from '../../core/run/runner';
import { labelOf } from './eventText';

const STATUS_ICON: Record<RunStatus, string> = {
  completed: '$(pass)',
  cancelled: '$(circle-slash)',
  failed: '$(error)',
  running: '$(sync)',
};

export async function pickRun(
  reviewRoot: string,
  o: { statuses?: readonly RunStatus[]; title: string; placeHolder: string; emptyMessage: string },
): Promise<RunRecord | undefined> {
  let runs: RunRecord[];
  try {
    runs = await listRuns(reviewRoot);
  } catch (err) {
    void vscode.window.showErrorMessage(`The runs of this review could not be listed: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
  const eligible = o.statuses ? runs.filter((r) => o.statuses?.includes(r.status)) : runs;
  if (eligible.length === 0) {
    void vscode.window.showInformationMessage(o.emptyMessage);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    eligible.map((record) => ({
      label: `${STATUS_ICON[record.status]} ${record.id}`,
      description: record.finalPick ? `final pick ${labelOf(record, record.finalPick)}` : record.status,
      detail: `${record.iterations.length} iteration(s) · ${record.settings.chatModel} · started ${record.startedAt}`,
      record,
    })),
    { title: o.title, placeHolder: o.placeHolder, matchOnDescription: true },
  );
  return picked?.record;
}
