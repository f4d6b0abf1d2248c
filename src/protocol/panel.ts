/**
 * The review panel's message protocol, imported by both the extension host (src/extension/panel) and the webview app
 * (webview/panel). Three kinds of message, each a plain object with a `type`:
 *  - commands: webview → host, fire and forget (`run`, `cancel`, `openRun` …);
 *  - requests: webview → host with a `requestId`, answered by exactly one reply carrying the same id — each declared once,
 *    with its params and its reply's schema, in requests.ts (the kinds and their reply types: requestKinds.ts);
 *  - notifications: host → webview (`state`, `runEvent`, replies).
 * Every message is parsed with zod on arrival at the host, and checked on arrival at the webview (guards.ts); a message
 * that does not parse is logged and dropped. The data the state carries: panelData.ts, panelEvaluation.ts, brief.ts,
 * criteria.ts; the run events: runEvents.ts. Only zod and type imports here: the file is bundled into the webview.
 */
import * as z from 'zod';
import { PanelCriteriaSchema } from './criteria';
import { PanelForksSchema } from './votes';
import { AdoptBriefSchema, CommentOnBriefSchema, PanelBriefRunSchema, ShowBriefChangesSchema } from './brief';
import { AnalysisSchema, DiagnosticSchema, PanelAuthorshipSchema, PanelReviewSchema, PanelRunSchema, RunSummarySchema } from './panelData';
import { CodingProgressSchema, DiscussionAnalysisSchema, EvaluationSchema, FeedbackSchema, SideBySideSchema } from './panelEvaluation';
import { PanelRunEventSchema } from './runEvents';
import { REPLY_SCHEMAS, REQUEST_SCHEMAS } from './requests';
import { RUN_TASKS } from '../core/record/record';

export * from './panelData';
export * from './panelEvaluation';
export * from './runEvents';
export * from './requests';
export * from './votes';
export * from './nextSteps';
export type { WaitingFor } from '../core/record/record';

const text = (max: number) => z.string().max(max);

/** Limits of the thumbnail size (the setting's minimum, maximum and default). */
export const THUMB_SIZE = { min: 96, max: 320, default: 96 } as const;

export const PanelStateSchema = z.object({
  /** Present when the review loaded (no error-level diagnostics). */
  review: PanelReviewSchema.optional(),
  /** Root of the review even when it failed to load. */
  root: z.string(),
  /** Display name when `review` is missing. */
  title: z.string(),
  /** Webview URI of the review folder: images are `${base}/${relative path}`. */
  base: z.string(),
  analysis: AnalysisSchema.optional(),
  /** Why there is no analysis, in words (too few designers, load errors). */
  analysisError: z.string().optional(),
  diagnostics: z.array(DiagnosticSchema),
  /** Who wrote each member's file (issue 39): what `validate --json` says as `authorship`, its list bounded. */
  authorship: PanelAuthorshipSchema.optional(),
  runs: z.array(RunSummarySchema),
  /** Runs whose record cannot be used, each with its diagnostic (`runs/<id>/run.json:<line>:<col>: error: …`). */
  brokenRuns: z.array(z.object({ id: z.string(), problem: z.string() })).optional(),
  /** The run shown: the one the user picked, else the newest. */
  run: PanelRunSchema.optional(),
  trusted: z.boolean(),
  /** A run of this review is in flight in this window. */
  running: z.boolean(),
  /** For the run shown, once it has a re-rank set: "Did it help?". */
  evaluation: EvaluationSchema.optional(),
  /** For the run shown: the saved ratings (designer → message id → score) and survey answers (designer → answers). */
  feedback: FeedbackSchema.optional(),
  /** A TeamFusion review whose parent folder holds a usual-way review of the same team: the two conditions side by side. */
  sideBySide: SideBySideSchema.optional(),
  /** For the run shown: Bales coding (analysis.json) and stance kept or yielded. */
  discussion: DiscussionAnalysisSchema.optional(),
  /** Side, in CSS pixels, of the thumbnails in the ranking form and the heatmap (setting `teamfusion.thumbnailSize`). */
  thumbSize: z.number().int().min(THUMB_SIZE.min).max(THUMB_SIZE.max).optional(),
  /** For the run shown, when it is a brief run: its rounds' revised briefs, summaries and coverage. */
  brief: PanelBriefRunSchema.optional(),
  /** The team's criteria (criteria.json), or why they are not shown; absent when the review has none. */
  criteria: PanelCriteriaSchema.optional(),
  /** For the run shown, when it forked: its forks, votes and tallies (the panel's blind vote, issue 33). */
  forks: PanelForksSchema.optional(),
  /** Who this workspace last said is at the panel ("I am"), a member id; the page's own choice comes first. */
  me: z.string().max(200).optional(),
  /**
   * This review folder is a run's blind re-rank set (runs/<run-id>/rerank), opened on its own: the run it belongs to, and
   * the team that ranks it (the designers of the review it was made from), each ranking as themselves.
   */
  blindSet: z.object({ runId: text(200), team: z.array(z.object({ id: text(200), name: text(200) })).max(100) }).optional(),
});
export type PanelState = z.infer<typeof PanelStateSchema>;

// ── Webview → host ───────────────────────────────────────────────────────────────────────────────────────────────

export const WebviewMessageSchema = z.discriminatedUnion('type', [
  /** The app is listening; the host posts nothing before this. */
  z.object({ type: z.literal('ready') }),
  ...REQUEST_SCHEMAS,
  /** Start a run; `task` chooses a brief or a design run (the engine's default for the folder when absent); `resume` goes on with that run instead. */
  z.object({ type: z.literal('run'), task: z.enum(RUN_TASKS).optional(), resume: text(200).optional() }),
  /** Open the run's blind re-rank set (runs/<run-id>/rerank) in its own panel, where each member ranks it. */
  z.object({ type: z.literal('openRerank'), runId: text(200) }),
  /** From a run's blind re-rank set: back to its run, in the panel of the review it was made from. */
  z.object({ type: z.literal('backToRun') }),
  /** Who is at the panel ("I am"), remembered for this workspace; absent: nobody chosen. */
  z.object({ type: z.literal('setMe'), member: text(200).optional() }),
  ShowBriefChangesSchema,
  AdoptBriefSchema,
  CommentOnBriefSchema,
  z.object({ type: z.literal('refine'), runId: text(200), feedback: text(20_000) }),
  z.object({ type: z.literal('cancel'), runId: text(200).optional() }),
  /** Show this past run; `undefined` = the newest. */
  z.object({ type: z.literal('openRun'), runId: text(200).optional() }),
  /** Open a file of the review (relative path) in an editor. */
  z.object({ type: z.literal('openFile'), path: text(1000) }),
  z.object({ type: z.literal('setApiKey') }),
  z.object({ type: z.literal('refresh') }),
  /** Something went wrong inside the webview: goes to the TeamFusion log. */
  z.object({ type: z.literal('log'), level: z.enum(['info', 'warning', 'error']), message: text(4000) }),
  /** Code the run's discussion (Bales IPA); `force` codes every message again. */
  z.object({ type: z.literal('codeDiscussion'), runId: text(200), force: z.boolean().optional() }),
  z.object({ type: z.literal('cancelCoding') }),
  /**
   * The lead reopens a recorded decision of the run (issue 38), through the core's reopenDecision like `teamfusion vote
   * --reopen`: the host asks the lead to confirm first (a modal), so this is no request with a timed reply.
   */
  z.object({
    type: z.literal('reopen'),
    runId: text(200),
    as: text(200),
    iteration: z.number().int().min(1).max(100),
    decisionPoint: z.number().int().min(1).max(100),
  }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;

// ── Host → webview ───────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The review goes through the team's git remote (setting teamfusion.sync): the Run tab says "live from <remote>" and
 * when it last synced, or why it did not.
 */
export const SyncStateMessageSchema = z.object({
  type: z.literal('syncState'),
  remote: z.string().max(500).optional(),
  /** ISO time of the last pull or push that went through. */
  lastSyncAt: z.string().max(64).optional(),
  /** Why the last attempt did not go through (`not synced: …`). */
  problem: z.string().max(2000).optional(),
});
export type SyncStateMessage = z.infer<typeof SyncStateMessageSchema>;

export const HostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('state'), state: PanelStateSchema }),
  z.object({ type: z.literal('runEvent'), event: PanelRunEventSchema }),
  ...REPLY_SCHEMAS,
  /** A short message for the user (an action failed, a run cannot start). */
  z.object({ type: z.literal('notice'), level: z.enum(['info', 'warning', 'error']), message: z.string() }),
  z.object({ type: z.literal('codingProgress'), progress: CodingProgressSchema }),
  SyncStateMessageSchema,
]);
export type HostMessage = z.infer<typeof HostMessageSchema>;

/** What the webview keeps in `vscode.setState` (the serializer restores the panel from `root`). */
export const WebviewPersistedStateSchema = z.object({
  root: z.string(),
  runId: z.string().optional(),
  tab: z.string().optional(),
  /** The unsaved ranking form (checked again by the form when it is read back). */
  draft: z.unknown().optional(),
  /**
   * Who is at the panel ("I am"): the member who rates their proxy, answers the survey, confirms their coverage and votes
   * (until chosen, nobody: the vote is blind and each member acts as themselves). The host remembers it per workspace too.
   */
  me: z.string().max(200).optional(),
});
export type WebviewPersistedState = z.infer<typeof WebviewPersistedStateSchema>;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

function parseWith<T>(schema: z.ZodType<T>, data: unknown): ParseResult<T> {
  const r = schema.safeParse(data);
  if (r.success) return { ok: true, value: r.data };
  const first = r.error.issues[0];
  const where = first && first.path.length ? ` at ${first.path.join('.')}` : '';
  return { ok: false, error: `${first?.message ?? 'invalid message'}${where}` };
}

export const parseWebviewMessage = (data: unknown): ParseResult<WebviewMessage> => parseWith(WebviewMessageSchema, data);
export const parseHostMessage = (data: unknown): ParseResult<HostMessage> => parseWith(HostMessageSchema, data);
export const parsePersistedState = (data: unknown): ParseResult<WebviewPersistedState> => parseWith(WebviewPersistedStateSchema, data);
