/**
 * The brief review in the panel protocol (issue 17): members' comments on the brief, and per round of a brief run the
 * revised brief with its summary and coverage. Shared by the host (src/extension/panel) and the webview; only zod here.
 * The record fields mirror run.json's `brief` of an iteration (`{ file, agreements, disagreements, tradeOffs,
 * openQuestions, coverage }`); the revised brief's text is read by the host from `runs/<id>/iteration-<k>/brief.md`.
 */
import * as z from 'zod';

/** Cap of the Markdown sent to the webview per revised brief (the brief's own cap, 200 KB). */
export const BRIEF_TEXT_MAX = 200 * 1024;

export const CoverageStatusSchema = z.enum(['kept', 'changed', 'left-out']);
export type CoverageStatus = z.infer<typeof CoverageStatusSchema>;

/** One key point of a member, and whether the revised brief carries it (with a short quote of where; none when left out). */
export const CoverageEntrySchema = z.object({
  designer: z.string(),
  point: z.string(),
  status: CoverageStatusSchema,
  quote: z.string().optional(),
});
export type CoverageEntry = z.infer<typeof CoverageEntrySchema>;

/**
 * A summary item: a sentence, or an object (a disagreement names who holds which side). The panel shows an object's
 * text fields and the members it names, all as text.
 */
export const SummaryItemSchema = z.union([z.string(), z.record(z.string(), z.unknown())]);
export type SummaryItem = z.infer<typeof SummaryItemSchema>;

/** What run.json records per iteration of a brief run. */
export const BriefIterationSchema = z.object({
  /** The revised brief of the round (relative to the run folder, e.g. `iteration-1/brief.md`, or to the review). */
  file: z.string(),
  agreements: z.array(SummaryItemSchema).default([]),
  disagreements: z.array(SummaryItemSchema).default([]),
  tradeOffs: z.array(SummaryItemSchema).default([]),
  openQuestions: z.array(SummaryItemSchema).default([]),
  coverage: z.array(CoverageEntrySchema).default([]),
});
export type BriefIteration = z.infer<typeof BriefIterationSchema>;

/** A member's comment on the brief (`comments/<id>.md`), shown as text. */
export const PanelCommentSchema = z.object({
  designer: z.string(),
  name: z.string(),
  role: z.string().optional(),
  weight: z.number().optional(),
  body: z.string(),
  /** Relative to the review root. */
  file: z.string(),
});
export type PanelComment = z.infer<typeof PanelCommentSchema>;

/** One round of a brief run as the panel shows it. */
export const PanelBriefRoundSchema = BriefIterationSchema.extend({
  iteration: z.number().int().positive(),
  /** The revised brief's file relative to the review root (`runs/<id>/iteration-<k>/brief.md`). */
  path: z.string(),
  /** Its Markdown (rendered sanitised in the webview); absent when it cannot be read, with `error` saying why. */
  text: z.string().max(BRIEF_TEXT_MAX).optional(),
  error: z.string().optional(),
});
export type PanelBriefRound = z.infer<typeof PanelBriefRoundSchema>;

/** The brief run shown: its rounds (oldest first) and whether the direct baseline was written. */
export const PanelBriefRunSchema = z.object({
  runId: z.string(),
  rounds: z.array(PanelBriefRoundSchema),
  /** `runs/<id>/baseline.md` when it exists. */
  baseline: z.string().optional(),
});
export type PanelBriefRun = z.infer<typeof PanelBriefRunSchema>;

/** Webview → host: open VS Code's diff editor between brief.md and a round's revised brief (a quick pick without one). */
export const ShowBriefChangesSchema = z.object({ type: z.literal('showBriefChanges'), runId: z.string().max(200), iteration: z.number().int().positive().optional() });
/** Webview → host: write a round's revised brief to brief.md (after a modal confirmation; never in an untrusted workspace). */
export const AdoptBriefSchema = z.object({ type: z.literal('adoptBrief'), runId: z.string().max(200), iteration: z.number().int().positive().optional() });
/** Webview → host: open a member's comment file (or start one with "Comment on the Brief"). */
export const CommentOnBriefSchema = z.object({ type: z.literal('commentOnBrief') });

export { coverageByMember, summaryText } from './briefText';
