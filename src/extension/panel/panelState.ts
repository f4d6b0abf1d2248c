/**
 * Builds the `state` notification from what the core gives us (the loaded review, the analysis, the run records).
 * No `vscode` import: the one editor-specific piece, turning a file path into a webview URI, is passed in.
 */
import * as path from 'node:path';
import type { LoadResult, Review } from '../../core/review/model';
import type { RunRecord } from '../../core/record/record';
import type { ReceivedEntry } from '../../core/people/inbox';
import { anyScripted, partlyScriptedSentence } from '../../core/record/endpoints';
import { THUMB_SIZE } from '../../protocol/panel';
import type {
  PanelAnalysis,
  PanelEvaluation,
  PanelFeedback,
  PanelReview,
  PanelRun,
  PanelSideBySide,
  PanelState,
  PendingEntry,
  RunSummary,
} from '../../protocol/panel';
import type { PanelBriefRun } from '../../protocol/brief';
import type { PanelCriteria } from '../../protocol/criteria';
import type { PanelAuthorship } from '../../protocol/panelData';
import { panelComments } from './state/briefState';
import { blindSetDiagnostics } from '../foundation/blindSet';

export interface PanelStateInput {
  root: string;
  load: LoadResult;
  /** The analysis, or why there is none. */
  analysis: { value: PanelAnalysis } | { error: string };
  /** Newest first. */
  runs: RunRecord[];
  /** Ids of runs "running" on disk that no live process drives (isRunDriven): shown as interrupted. */
  interrupted?: ReadonlySet<string>;
  /** Runs whose record cannot be used, with why (shown as broken, never run). */
  brokenRuns?: { id: string; problem: string }[];
  /** The run the user picked; the newest when absent or gone. */
  selectedRunId?: string;
  trusted: boolean;
  running: boolean;
  /** Absolute file path → webview URI string. */
  toWebviewUri(absPath: string): string;
  /** "Did it help?" of the chosen run, once it has a re-rank set (dropped if it is for another run). */
  evaluation?: PanelEvaluation;
  feedback?: PanelFeedback;
  /** The `teamfusion.thumbnailSize` setting as configured (clamped here). */
  thumbSize?: unknown;
  /** The chosen run's rounds when it is a brief run (dropped if it is for another run). */
  brief?: PanelBriefRun;
  /** This review beside its team's usual-way review(s) in the parent folder. */
  sideBySide?: PanelSideBySide;
  /** The chosen run's inbox entries not taken in yet (dropped if they are for another run). */
  pending?: { runId: string; entries: readonly ReceivedEntry[] };
  /** The team's criteria (panelCriteria), or why they are not shown. */
  criteria?: PanelCriteria;
  /** Who wrote each member's file (panelAuthorship): checked or why not, and the files not counted. */
  authorship?: PanelAuthorship;
}

/** The thumbnail size the panel uses: the setting when it is a number, clamped to the allowed range. */
export function thumbSizeOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return THUMB_SIZE.default;
  return Math.min(THUMB_SIZE.max, Math.max(THUMB_SIZE.min, Math.round(value)));
}

export function panelReview(review: Review, toWebviewUri: (p: string) => string): PanelReview {
  const comments = panelComments(review);
  return {
    root: review.root,
    title: review.title,
    brief: review.brief,
    options: review.options.map((o) => ({
      id: o.id,
      label: o.label,
      file: o.file,
      src: toWebviewUri(o.absPath),
      width: o.width,
      height: o.height,
    })),
    designers: review.designers.map((d) => ({
      id: d.id,
      name: d.name,
      ...(d.role ? { role: d.role } : {}),
      weight: d.weight,
      file: d.file,
      entries: d.entries.map((e) => ({ option: e.option, rank: e.rank, justification: e.justification })),
    })),
    ...(review.config.guests?.length
      ? { guests: review.config.guests.map((g) => ({ id: g.id, name: g.name, ...(g.role ? { role: g.role } : {}) })) }
      : {}),
    ...(comments ? { comments } : {}),
    ...(review.references?.length
      ? {
          references: review.references.map((r) => ({
            id: r.id,
            label: r.label,
            file: r.file,
            src: toWebviewUri(r.absPath),
            width: r.width,
            height: r.height,
            ...(r.note ? { note: r.note } : {}),
          })),
        }
      : {}),
  };
}

export function runSummary(r: RunRecord, interrupted?: ReadonlySet<string>): RunSummary {
  return {
    id: r.id,
    status: r.status,
    startedAt: r.startedAt,
    iterations: r.iterations.length,
    ...(r.finalPick ? { finalPick: r.finalPick } : {}),
    ...(interrupted?.has(r.id) ? { interrupted: true } : {}),
    ...(r.scripted ? { scripted: true as const } : anyScripted(r) ? { partlyScripted: true as const } : {}),
  };
}

/** An inbox entry as the panel shows it while it waits (the person, what they said or which message they pin). */
export function pendingEntry(e: ReceivedEntry): PendingEntry {
  // Within the protocol's bounds whatever the entry holds (a state that does not parse would be dropped whole).
  const cut = (t: string, n: number): string => (t.length > n ? t.slice(0, n) : t);
  const common = { name: cut(e.name, 200), at: cut(e.entry.at, 64) };
  if (e.entry.type === 'say') {
    return {
      type: 'say',
      ...common,
      person: cut(e.entry.speaker, 200),
      content: cut(e.entry.content, 4000),
      ...(e.entry.pass ? { pass: true } : {}),
    };
  }
  // A criterion pin waits like a message pin, named by its criterion.
  const what = e.entry.type === 'criterion' ? `the criterion "${e.entry.criterion}"` : e.entry.message;
  return { type: 'pin', ...common, person: cut(e.entry.by, 200), message: cut(what, 200), ...(e.entry.remove ? { remove: true } : {}) };
}

/** The record without its recorded prompts, plus the run folder's webview URI (and what waits in its inbox). */
export function panelRun(
  root: string,
  r: RunRecord,
  toWebviewUri: (p: string) => string,
  interrupted?: ReadonlySet<string>,
  pending?: readonly ReceivedEntry[],
): PanelRun {
  const { prompts: _prompts, ...rest } = r;
  void _prompts;
  const partly = partlyScriptedSentence(r);
  return {
    ...rest,
    base: toWebviewUri(path.join(root, 'runs', r.id)),
    ...(interrupted?.has(r.id) ? { interrupted: true } : {}),
    ...(pending?.length ? { pending: pending.slice(0, 1000).map(pendingEntry) } : {}),
    ...(partly ? { partlyScripted: partly } : {}),
  };
}

export function buildPanelState(i: PanelStateInput): PanelState {
  const review = i.load.review ? panelReview(i.load.review, i.toWebviewUri) : undefined;
  const chosen = (i.selectedRunId && i.runs.find((r) => r.id === i.selectedRunId)) || i.runs[0];
  return {
    root: i.root,
    title: i.load.review?.title || path.basename(i.root),
    base: i.toWebviewUri(i.root),
    ...(review ? { review } : {}),
    ...('value' in i.analysis ? { analysis: i.analysis.value } : { analysisError: i.analysis.error }),
    // A blind re-rank set nobody has ranked yet is the run's re-rank step still to do, not an error.
    diagnostics: blindSetDiagnostics(i.root, i.load.diagnostics),
    ...(i.authorship ? { authorship: i.authorship } : {}),
    runs: i.runs.map((r) => runSummary(r, i.interrupted)),
    ...(i.brokenRuns?.length ? { brokenRuns: i.brokenRuns } : {}),
    ...(chosen
      ? { run: panelRun(i.root, chosen, i.toWebviewUri, i.interrupted, i.pending?.runId === chosen.id ? i.pending.entries : undefined) }
      : {}),
    trusted: i.trusted,
    running: i.running,
    ...(i.evaluation && chosen && i.evaluation.runId === chosen.id ? { evaluation: i.evaluation } : {}),
    ...(i.feedback && chosen && i.feedback.runId === chosen.id ? { feedback: i.feedback } : {}),
    thumbSize: thumbSizeOf(i.thumbSize),
    ...(i.brief && chosen && i.brief.runId === chosen.id ? { brief: i.brief } : {}),
    ...(i.sideBySide ? { sideBySide: i.sideBySide } : {}),
    ...(i.criteria ? { criteria: i.criteria } : {}),
  };
}

/** The run `buildPanelState` shows: the one picked, else the newest. */
export function chosenRunId(runs: RunRecord[], selectedRunId?: string): string | undefined {
  return ((selectedRunId && runs.find((r) => r.id === selectedRunId)) || runs[0])?.id;
}
