/**
 * The brief review in the panel protocol (issue 17): members' comments on the brief, and per round of a brief run the
 * revised brief with its summary and coverage. Shared by the host (src/extension/panel) and the webview; only zod here.
 * A round is run.json's `brief` of an iteration (src/core/record/record.ts BriefRoundSchema) plus the revised brief's text,
 * read by the host from `runs/<id>/iteration-<k>/brief.md`.
 */
import * as z from 'zod';
import { BriefRoundSchema, type Coverage, type DecisionPoint } from '../core/record/record';

/** Cap of the Markdown sent to the webview per revised brief (the core's cap of a revised brief, LIMITS.briefText). */
export const BRIEF_TEXT_MAX = 400 * 1024;

export type CoverageEntry = Coverage;
export type CoverageStatus = Coverage['status'];
/** A summary item: a sentence, or a disagreement (a question and who holds which position). */
export type SummaryItem = string | DecisionPoint;

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
export const PanelBriefRoundSchema = BriefRoundSchema.extend({
  iteration: z.number().int().positive(),
  /** The revised brief's file relative to the review root (`runs/<id>/iteration-<k>/brief.md`). */
  path: z.string(),
  /** Its Markdown (the webview builds only allowed elements from it, text as text); absent when it cannot be read, with `error` saying why. */
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
  /**
   * Proxy fidelity (issue 32): whether each member's proxy's sealed forecast named that member's own blind choice of the
   * pair (`hit`), the persona-free control's, and the lift. Only members whose preference file is saved are here.
   */
  fidelity: z
    .record(z.string(), z.object({ hit: z.boolean(), controlHit: z.boolean().nullable(), lift: z.number().nullable() }))
    .optional(),
});
export type PanelBriefRun = z.infer<typeof PanelBriefRunSchema>;

/** Webview → host: open VS Code's diff editor between brief.md and a round's revised brief (a quick pick without one). */
export const ShowBriefChangesSchema = z.object({
  type: z.literal('showBriefChanges'),
  runId: z.string().max(200),
  iteration: z.number().int().positive().optional(),
});
/** Webview → host: write a round's revised brief to brief.md (after a modal confirmation; never in an untrusted workspace). */
export const AdoptBriefSchema = z.object({
  type: z.literal('adoptBrief'),
  runId: z.string().max(200),
  iteration: z.number().int().positive().optional(),
});
/** Webview → host: open a member's comment file (or start one with "Comment on the Brief"). */
export const CommentOnBriefSchema = z.object({ type: z.literal('commentOnBrief') });

export { coverageByMember, summaryText } from './briefText';
