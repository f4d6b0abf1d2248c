/**
 * A QuickPick of a review's runs, newest first, with their outcome.
 */
import * as vscode from 'vscode';
import type { RunRecord, RunStatus } from '../../core/record/record';
import { formatDiagnostic } from '../../core/diagnostics/diagnostics';
import { listRunEntries, type RunEntry } from '../../core/record/store';
import { labelOf } from './eventText';
import { errorMessage } from '../../core/kernel/errors';

const STATUS_ICON: Record<RunStatus, string> = {
  completed: '$(pass)',
  cancelled: '$(circle-slash)',
  failed: '$(error)',
  running: '$(sync)',
  waiting: '$(comment-discussion)',
};

export async function pickRun(
  reviewRoot: string,
  o: { statuses?: readonly RunStatus[]; title: string; placeHolder: string; emptyMessage: string },
): Promise<RunRecord | undefined> {
  let entries: RunEntry[];
  try {
    entries = await listRunEntries(reviewRoot);
  } catch (err) {
    void vscode.window.showErrorMessage(`The runs of this review could not be listed: ${errorMessage(err)}`);
    return undefined;
  }
  const runs = entries.flatMap((e) => (e.record ? [e.record] : []));
  const broken = entries.flatMap((e) => (e.diagnostics ? [{ id: e.id, problem: e.diagnostics.map(formatDiagnostic).join(' ') }] : []));
  const eligible = o.statuses ? runs.filter((r) => o.statuses?.includes(r.status)) : runs;
  if (eligible.length === 0 && broken.length === 0) {
    void vscode.window.showInformationMessage(o.emptyMessage);
    return undefined;
  }
  type Item = vscode.QuickPickItem & { record?: RunRecord; problem?: string };
  const items: Item[] = [
    ...eligible.map((record) => ({
      label: `${STATUS_ICON[record.status]} ${record.id}`,
      description: record.finalPick ? `final pick ${labelOf(record, record.finalPick)}` : record.status,
      detail: `${record.iterations.length} iteration(s) · ${record.settings.chatModel} · started ${record.startedAt}`,
      record,
    })),
    // A broken record is listed so people see why their run is not offered; picking it explains, never runs it.
    ...broken.map((b) => ({ label: `$(warning) ${b.id}`, description: 'broken record', detail: b.problem, problem: b.problem })),
  ];
  const picked = await vscode.window.showQuickPick(items, { title: o.title, placeHolder: o.placeHolder, matchOnDescription: true });
  if (picked?.problem) {
    void vscode.window.showErrorMessage(`This run cannot be used: ${picked.problem}`);
    return undefined;
  }
  return picked?.record;
}
