/**
 * The runs the review panel shows (no `vscode` import): every run folder listed, each record checked, and each run whose
 * record is not its driver's (issue 39: run.json or another file only its driver writes, committed or changed by someone
 * else) shown as a run that cannot be used, with the sentence naming the file, the commit and its author — in the Next
 * strip and the Run tab — instead of being believed.
 */
import { listRunEntries, type RunEntry } from '../../../core/record/store';
import { driversRunEntries } from '../../../core/record/recordAuthor';
import { formatDiagnostic } from '../../../core/diagnostics/diagnostics';
import { errorMessage } from '../../../core/kernel/errors';
import type { RunRecord } from '../../../core/record/record';

export interface PanelRuns {
  /** Newest first. */
  runs: RunRecord[];
  /** Runs whose record cannot be used, with their diagnostic(s) as one line each. */
  brokenRuns: { id: string; problem: string }[];
}

/** The runs of the review at `root` for the panel; a failure to list them is said through `warn` and shows no run. */
export async function panelRuns(root: string, warn: (line: string) => void): Promise<PanelRuns> {
  const listed = await listRunEntries(root).catch((e: unknown) => {
    warn(`Could not list the runs of ${root}: ${errorMessage(e)}`);
    return [] as RunEntry[];
  });
  const entries = await driversRunEntries(root, listed).catch((e: unknown) => {
    warn(`Who wrote the runs of ${root} could not be checked: ${errorMessage(e)}`);
    return listed;
  });
  return {
    runs: entries.flatMap((e) => (e.record ? [e.record] : [])),
    brokenRuns: entries.flatMap((e) => (e.diagnostics ? [{ id: e.id, problem: e.diagnostics.map(formatDiagnostic).join(' ') }] : [])),
  };
}
