/**
 * Scripted runs in an evaluation (contract §7): a run recorded `scripted: true` was answered by the bundled scripted server,
 * so its cost and measures are not a team's. It is listed apart, labelled, and never summed into a total or a study table.
 */
import { anyScripted, partlyScriptedSentence } from '../../record/endpoints';
import type { RunRecord } from '../../record/record';

export interface ScriptedRun {
  /** Relative to the evaluated folder: `<review>/runs/<id>`. */
  path: string;
  id: string;
  scripted: true;
  status: RunRecord['status'];
  /** The record's estimate, as it says (never part of a total). */
  costUsd: number | null;
}

export function scriptedRunOf(runPath: string, record: RunRecord): ScriptedRun {
  return { path: runPath, id: record.id, scripted: true, status: record.status, costUsd: record.usage.costUsd ?? null };
}

/** One sentence saying which runs were left out and why; none when there are none. */
export function scriptedSentences(runs: readonly ScriptedRun[]): string[] {
  if (!runs.length) return [];
  const list = runs.map((r) => `${r.path}${r.costUsd === null ? '' : ` ($${r.costUsd.toFixed(2)})`}`).join(', ');
  return [
    `${runs.length === 1 ? '1 scripted run was' : `${runs.length} scripted runs were`} left out of every total and table ` +
      `(answered by the bundled scripted server, not a model): ${list}.`,
  ];
}

/** What `compare` (and the panel) says first about a scripted run. */
export const SCRIPTED_RUN_SENTENCE =
  'Scripted run: its answers came from the bundled scripted server, not a model, so these measures and its cost are not a ' +
  "team's and are left out of every total.";

/** A comparison's scripted fields: `scripted` when any part was scripted, and `scriptedParts` (which part came from where) when not all were. */
export function scriptedFields(record: Pick<RunRecord, 'scripted' | 'endpoints'>): { scripted?: true; scriptedParts?: string } {
  if (!anyScripted(record)) return {};
  const parts = partlyScriptedSentence(record);
  return { scripted: true, ...(parts ? { scriptedParts: parts } : {}) };
}

/** What `compare` says first of a scripted or partly scripted run (nothing for a run no part of which was scripted). */
export function scriptedRunSentences(c: { scripted?: true; scriptedParts?: string }): string[] {
  if (!c.scripted) return [];
  return [
    c.scriptedParts
      ? `${c.scriptedParts} So these measures and its cost are not a team's and are left out of every total.`
      : SCRIPTED_RUN_SENTENCE,
  ];
}
