/**
 * The review and its runs as the panel's state carries them (src/protocol/panel.ts PanelStateSchema): options, designers,
 * the agreement analysis, the run picker's lines and the run shown. Only zod and type imports: bundled into the webview.
 */
import * as z from 'zod';
import { RunRecordSchema, RunStatusSchema } from '../core/record/record';
import { analysisSchema } from '../core/stats/summary/analysisSchema';
import { PanelCommentSchema } from './brief';

const text = (max: number) => z.string().max(max);

export const DiagnosticSchema = z.object({
  file: z.string(),
  line: z.number().int().nonnegative(),
  column: z.number().int().nonnegative(),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
});
export type PanelDiagnostic = z.infer<typeof DiagnosticSchema>;

const PanelOptionSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** Relative to the review root, forward slashes. */
  file: z.string(),
  /** A webview URI for the image (asWebviewUri), ready for <img src>. */
  src: z.string(),
  width: z.number().nonnegative(),
  height: z.number().nonnegative(),
});

/** A reference of the gallery (references/, issue 19): shown in the Overview apart from the options, never ranked. */
const PanelReferenceSchema = PanelOptionSchema.extend({
  /** What the team chose it for (shown as text). */
  note: z.string().max(1000).optional(),
});

const PanelDesignerSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string().optional(),
  weight: z.number(),
  file: z.string(),
  entries: z.array(z.object({ option: z.string(), rank: z.number(), justification: z.string() })),
});

export const PanelReviewSchema = z.object({
  /** Absolute path of the review folder (also kept in the webview state, so the serializer can restore the panel). */
  root: z.string(),
  title: z.string(),
  brief: z.string(),
  options: z.array(PanelOptionSchema),
  designers: z.array(PanelDesignerSchema),
  /** review.yaml guests (perspectives not on the team), called in with "Call in…" or @id. */
  guests: z.array(z.object({ id: z.string(), name: z.string(), role: z.string().optional() })).optional(),
  /** Members' comments on the brief (comments/<id>.md), for a brief review (src/protocol/brief.ts). */
  comments: z.array(PanelCommentSchema).optional(),
  /** The reference gallery (references/), in natural order. */
  references: z.array(PanelReferenceSchema).max(50).optional(),
});
export type PanelReview = z.infer<typeof PanelReviewSchema>;

/** The agreement analysis (the contract's `analyze --json` object plus extras), exactly as src/core/stats produces it. */
export const AnalysisSchema = analysisSchema;
export type PanelAnalysis = z.infer<typeof AnalysisSchema>;

/** One line of the run picker. */
export const RunSummarySchema = z.object({
  id: z.string(),
  status: RunStatusSchema,
  startedAt: z.string(),
  iterations: z.number().int().nonnegative(),
  finalPick: z.string().optional(),
  /** Status "running" on disk but no live process drives it (killed): shown as interrupted, resumable. */
  interrupted: z.boolean().optional(),
  /** Made against the bundled scripted server (run.json `scripted: true`): labelled as such. */
  scripted: z.literal(true).optional(),
  /** Some parts of it (chat, images, judge: run.json `endpoints`), not all, answered by the scripted server: labelled so. */
  partlyScripted: z.literal(true).optional(),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

/**
 * What a person said or pinned that no driver has taken in yet (an entry waiting in the run's inbox, e.g. pushed from this
 * machine while the run is driven on another, or written while nobody drives it): shown as pending, never as recorded.
 */
const PendingEntrySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('say'), name: text(200), person: text(200), content: text(4000), pass: z.boolean().optional(), at: text(64) }),
  z.object({
    type: z.literal('pin'),
    name: text(200),
    person: text(200),
    message: text(200),
    remove: z.boolean().optional(),
    at: text(64),
  }),
]);
export type PendingEntry = z.infer<typeof PendingEntrySchema>;

/** The run record as the panel gets it: recorded prompts are left out (they can be large; they stay in run.json). */
export const PanelRunSchema = RunRecordSchema.omit({ prompts: true }).extend({
  /** Entries waiting in the run's inbox, oldest first (at most the inbox's cap, 1000). */
  pending: z.array(PendingEntrySchema).max(1000).optional(),
  /** Webview URI of the run folder, for remix images: `${base}/${remix.file}`. */
  base: z.string(),
  /** Status "running" on disk but no live process drives it (killed): shown as interrupted, resumable. */
  interrupted: z.boolean().optional(),
  /** Some parts (run.json `endpoints`), not all, answered by the scripted server: the sentence that says which (labelled so). */
  partlyScripted: z.string().max(2000).optional(),
});
export type PanelRun = z.infer<typeof PanelRunSchema>;

/** At most this many files not counted travel in the panel's state; the rest are counted (`more`). */
export const PANEL_NOT_COUNTED_MAX = 50;

/**
 * Who wrote each member's file (issue 39), as `validate --json` says it: checked or why not, and the files left out of every
 * count with the commit and author that made it so. Member text: shown as text only.
 */
export const PanelAuthorshipSchema = z.object({
  checked: z.boolean(),
  /** Why nothing is checked, in one sentence (only when `checked` is false). */
  why: text(2000).optional(),
  notCounted: z
    .array(z.object({ file: text(1000), member: text(300), commit: text(100), author: text(500), reason: text(2000) }))
    .max(PANEL_NOT_COUNTED_MAX),
  /** Files not counted beyond those listed. */
  more: z.number().int().nonnegative(),
});
export type PanelAuthorship = z.infer<typeof PanelAuthorshipSchema>;
