/**
 * The review panel's message protocol, imported by both the extension host (src/extension/panel) and the webview app
 * (webview/panel). Three kinds of message, each a plain object with a `type`:
 *  - commands: webview → host, fire and forget (`run`, `cancel`, `openRun` …);
 *  - requests: webview → host with a `requestId`, answered by exactly one reply carrying the same id (`saveRanking`);
 *  - notifications: host → webview (`state`, `runEvent`, replies).
 * Every message is parsed with zod on arrival at either end; a message that does not parse is logged and dropped.
 * Only zod and type imports here: the file is bundled into the webview.
 */
import { PanelCriteriaSchema } from './criteria';
import * as z from 'zod';
import { RunRecordSchema, RunStatusSchema, IterationSchema, MessageSchema, MessageKindSchema, PinSchema, WaitingForSchema } from '../core/record/record';
import { analysisSchema } from '../core/stats/analysisSchema';
import { PHASES } from '../core/settings/discussionSettings';
import { AnalysisFileSchema } from '../core/analysis/schema';
import { StanceTableSchema } from '../core/analysis/stance';
import { AdoptBriefSchema, CommentOnBriefSchema, PanelBriefRunSchema, PanelCommentSchema, ShowBriefChangesSchema } from './brief';

const text = (max: number) => z.string().max(max);

// ── Data carried by the state notification ────────────────────────────────────────────────────────────────────────

export const DiagnosticSchema = z.object({
  file: z.string(),
  line: z.number().int().nonnegative(),
  column: z.number().int().nonnegative(),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
});
export type PanelDiagnostic = z.infer<typeof DiagnosticSchema>;

export const PanelOptionSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** Relative to the review root, forward slashes. */
  file: z.string(),
  /** A webview URI for the image (asWebviewUri), ready for <img src>. */
  src: z.string(),
  width: z.number().nonnegative(),
  height: z.number().nonnegative(),
});
export type PanelOption = z.infer<typeof PanelOptionSchema>;

/** A reference of the gallery (references/, issue 19): shown in the Overview apart from the options, never ranked. */
export const PanelReferenceSchema = PanelOptionSchema.extend({
  /** What the team chose it for (shown as text). */
  note: z.string().max(1000).optional(),
});
export type PanelReference = z.infer<typeof PanelReferenceSchema>;

export const PanelDesignerSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string().optional(),
  weight: z.number(),
  file: z.string(),
  entries: z.array(z.object({ option: z.string(), rank: z.number(), justification: z.string() })),
});
export type PanelDesigner = z.infer<typeof PanelDesignerSchema>;

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
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

/**
 * What a person said or pinned that no driver has taken in yet (an entry waiting in the run's inbox, e.g. pushed from this
 * machine while the run is driven on another, or written while nobody drives it): shown as pending, never as recorded.
 */
export const PendingEntrySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('say'), name: text(200), person: text(200), content: text(4000), pass: z.boolean().optional(), at: text(64) }),
  z.object({ type: z.literal('pin'), name: text(200), person: text(200), message: text(200), remove: z.boolean().optional(), at: text(64) }),
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
});
export type PanelRun = z.infer<typeof PanelRunSchema>;

/** One side of "Did it help?": agreement before the run or after it (blind re-ranking). */
const EvalSideSchema = z.object({
  w: z.number(),
  meanSpearman: z.number().nullable(),
  band: z.enum(['slight', 'fair', 'moderate', 'substantial', 'almost-perfect']),
  designers: z.array(z.string()),
  options: z.number().int().nonnegative(),
  pValue: z.number().min(0).max(1),
  pPermutation: z.number().min(0).max(1),
});
const Pair = z.tuple([z.number(), z.number()]);

/** "Did it help?" for the run shown (src/core/evaluation compareRun), once it has a re-rank set. */
export const EvaluationSchema = z.object({
  runId: z.string(),
  /** Review-relative path of the re-rank set: runs/<run-id>/rerank. */
  folder: z.string(),
  before: EvalSideSchema,
  after: EvalSideSchema.nullable(),
  paired: z
    .object({
      designers: z.array(z.string()),
      wBefore: z.number(),
      wAfter: z.number(),
      change: z.number(),
      interval: Pair,
      verdict: z.enum(['converged', 'diverged', 'no evidence']),
      chanceInterval: Pair,
      designerInterval: Pair.nullable(),
    })
    .nullable(),
  acceptance: z
    .object({
      ranking: z.array(z.string()),
      positions: z.array(z.number().int().positive()),
      generated: z.array(z.string()),
      top1: z.boolean(),
      top2: z.boolean(),
      bestGenerated: z.object({ letter: z.string(), id: z.string(), position: z.number().int().positive() }).nullable(),
    })
    .nullable(),
  ratings: z.object({
    n: z.number().int().nonnegative(),
    mean: z.number().nullable(),
    sd: z.number().nullable(),
    positiveShare: z.number().nullable(),
    byDesigner: z.record(z.string(), z.object({ n: z.number().int(), mean: z.number() })),
    lowestDesigner: z.object({ designer: z.string(), mean: z.number() }).nullable(),
    distribution: z.tuple([z.number(), z.number(), z.number(), z.number(), z.number()]),
  }),
  survey: z.object({
    n: z.number().int().nonnegative(),
    representative: z.number().nullable(),
    clarity: z.number().nullable(),
    satisfied: z.number().nullable(),
    answered: z.object({ representative: z.number().int(), clarity: z.number().int(), satisfied: z.number().int() }),
  }),
  rerankings: z.number().int().nonnegative(),
  remixes: z.number().int().nonnegative(),
  timing: z.object({
    startedAt: z.string(),
    rerankedAt: z.string().nullable(),
    rerankedFrom: z.enum(['record', 'file times']).nullable(),
    committedAt: z.string().nullable(),
    hoursToRerank: z.number().nullable(),
    hoursToCommit: z.number().nullable(),
    note: z.string().nullable(),
  }),
  missing: z.string().nullable(),
  problems: z.array(z.string()),
  /** The run was answered by the bundled scripted server: said first, in words. */
  scripted: z.literal(true).optional(),
});
export type PanelEvaluation = z.infer<typeof EvaluationSchema>;

/** One condition of the comparison with the team's usual way (src/core/evaluation/baseline.ts ConditionSide). */
const ConditionSideSchema = z.object({
  reviews: z.number().int().nonnegative(),
  survey: z.object({ n: z.number().int().nonnegative(), representative: z.number().nullable(), clarity: z.number().nullable(), satisfied: z.number().nullable() }),
  decisionMinutes: z.number().nullable(),
});
const PairedDifferenceSchema = z.object({ diff: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable(), teams: z.number().int().nonnegative() });

/**
 * "Did it help?" beside the team's usual way (issue 19): this TeamFusion review's team, paired with its usual-way review(s)
 * in the same parent folder exactly as `evaluate` pairs them (conditionsOf); survey means Q1–Q3, decision time, workflow.
 */
export const SideBySideSchema = z.object({
  /** The parent folder's name. */
  folder: z.string(),
  /** The team: sorted designer ids. */
  team: z.array(z.string()),
  conditions: z.object({
    teamfusion: ConditionSideSchema,
    usual: ConditionSideSchema,
    paired: z.object({
      teams: z.number().int().nonnegative(),
      representative: PairedDifferenceSchema,
      clarity: PairedDifferenceSchema,
      satisfied: PairedDifferenceSchema,
      decisionMinutes: PairedDifferenceSchema,
    }),
    workflow: z.object({ teamfusion: z.number().int().nonnegative(), usual: z.number().int().nonnegative(), signTestP: z.number().min(0).max(1).nullable(), conflicting: z.number().int().nonnegative() }),
    teams: z.array(z.object({ designers: z.array(z.string()), teamfusion: z.array(z.string()), usual: z.array(z.string()), paired: z.boolean() })),
    reference: z.object({
      survey: z.object({ representative: z.number(), clarity: z.number(), satisfied: z.number() }),
      decisionMinutes: z.object({ usual: z.number(), teamfusion: z.number() }),
    }),
  }),
});
export type PanelSideBySide = z.infer<typeof SideBySideSchema>;

const SurveyAnswersSchema = z.object({
  representative: z.number().int().min(1).max(5).optional(),
  clarity: z.number().int().min(1).max(5).optional(),
  satisfied: z.number().int().min(1).max(5).optional(),
  comment: z.string().optional(),
});
export const FeedbackSchema = z.object({
  runId: z.string(),
  ratings: z.record(z.string(), z.record(z.string(), z.object({ score: z.number().int().min(1).max(5), comment: z.string().optional() }))),
  survey: z.record(z.string(), SurveyAnswersSchema),
  /** Problems in the run's ratings/ and survey/ files (`file:line:col: error: …`). */
  problems: z.array(z.string()),
});
export type PanelFeedback = z.infer<typeof FeedbackSchema>;
/** Coding in progress for a run of this review (code-discussion from the panel or the command). */
export const CodingProgressSchema = z.object({
  runId: z.string(),
  active: z.boolean(),
  coded: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  message: z.string(),
});
export type PanelCodingProgress = z.infer<typeof CodingProgressSchema>;

/** Discussion analysis of the run shown: its analysis.json (without the prompt text) and the stance table from the record. */
export const DiscussionAnalysisSchema = z.object({
  runId: z.string(),
  analysis: AnalysisFileSchema.omit({ prompt: true }).optional(),
  /** Why analysis.json cannot be shown, in words. */
  error: z.string().optional(),
  stance: StanceTableSchema.optional(),
  coding: CodingProgressSchema.optional(),
});
export type PanelDiscussionAnalysis = z.infer<typeof DiscussionAnalysisSchema>;
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
});
export type PanelState = z.infer<typeof PanelStateSchema>;

// ── Webview → host ───────────────────────────────────────────────────────────────────────────────────────────────

export const RankingDraftEntrySchema = z.object({
  option: text(500),
  rank: z.number().int().positive(),
  justification: text(20_000),
});
export type RankingDraftEntry = z.infer<typeof RankingDraftEntrySchema>;

export const SaveRankingRequestSchema = z.object({
  type: z.literal('saveRanking'),
  requestId: z.number().int().nonnegative(),
  /** Existing designer id when editing; absent for a new ranking (the id is made from the name). */
  designerId: text(200).optional(),
  designer: text(200),
  role: text(200).optional(),
  ranking: z.array(RankingDraftEntrySchema).max(500),
});
export type SaveRankingRequest = z.infer<typeof SaveRankingRequestSchema>;

const score = z.number().int().min(1).max(5);

/** A designer's ratings of their own proxy's messages in one run (the whole file is rewritten). */
export const SaveRatingsRequestSchema = z.object({
  type: z.literal('saveRatings'),
  requestId: z.number().int().nonnegative(),
  runId: text(200),
  designer: text(200),
  ratings: z.array(z.object({ message: text(100), score, comment: text(4000).optional() })).max(2000),
});
export type SaveRatingsRequest = z.infer<typeof SaveRatingsRequestSchema>;

/** A designer's answers to the three study questions about one run. */
export const SaveSurveyRequestSchema = z.object({
  type: z.literal('saveSurvey'),
  requestId: z.number().int().nonnegative(),
  runId: text(200),
  designer: text(200),
  representative: score.optional(),
  clarity: score.optional(),
  satisfied: score.optional(),
  comment: text(4000).optional(),
});
export type SaveSurveyRequest = z.infer<typeof SaveSurveyRequestSchema>;

/** A designer speaks in the run (taken in at the next turn boundary; answers their turn when the run waits for them). */
export const SayRequestSchema = z.object({ type: z.literal('say'), requestId: z.number().int().nonnegative(), runId: text(200), as: text(200), text: text(4000) });
/** Pins (or unpins) a message of the run. */
export const PinRequestSchema = z.object({
  type: z.literal('pin'),
  requestId: z.number().int().nonnegative(),
  runId: text(200),
  message: text(100),
  as: text(200),
  remove: z.boolean().optional(),
});
const PeopleRequestSchemas = [SayRequestSchema, PinRequestSchema] as const;
export type SayRequest = z.infer<typeof SayRequestSchema>;
export type PinRequest = z.infer<typeof PinRequestSchema>;

/** The answer to a say or pin: done (recorded now, or handed to the process running the run), or why not. */
export const PeopleReplySchema = z.object({
  type: z.literal('peopleResult'),
  requestId: z.number().int().nonnegative(),
  ok: z.boolean(),
  message: z.string(),
});
export type PeopleReply = z.infer<typeof PeopleReplySchema>;
export type { WaitingFor } from '../core/record/record';

export const WebviewMessageSchema = z.discriminatedUnion('type', [
  /** The app is listening; the host posts nothing before this. */
  z.object({ type: z.literal('ready') }),
  ...PeopleRequestSchemas,
  /** Start a run; `task` chooses a brief or a design run (the engine's default for the folder when absent). */
  z.object({ type: z.literal('run'), task: z.enum(['brief', 'design']).optional() }),
  ShowBriefChangesSchema,
  AdoptBriefSchema,
  CommentOnBriefSchema,
  z.object({ type: z.literal('refine'), runId: text(200), feedback: text(20_000) }),
  z.object({ type: z.literal('cancel'), runId: text(200).optional() }),
  /** Show this past run; `undefined` = the newest. */
  z.object({ type: z.literal('openRun'), runId: text(200).optional() }),
  SaveRankingRequestSchema,
  SaveRatingsRequestSchema,
  SaveSurveyRequestSchema,
  /** Open a file of the review (relative path) in an editor. */
  z.object({ type: z.literal('openFile'), path: text(1000) }),
  z.object({ type: z.literal('setApiKey') }),
  z.object({ type: z.literal('refresh') }),
  /** Something went wrong inside the webview: goes to the TeamFusion log. */
  z.object({ type: z.literal('log'), level: z.enum(['info', 'warning', 'error']), message: text(4000) }),
  /** Code the run's discussion (Bales IPA); `force` codes every message again. */
  z.object({ type: z.literal('codeDiscussion'), runId: text(200), force: z.boolean().optional() }),
  z.object({ type: z.literal('cancelCoding') }),
]);
export type WebviewMessage = z.infer<typeof WebviewMessageSchema>;

// ── Host → webview ───────────────────────────────────────────────────────────────────────────────────────────────

/** Run events as forwarded to the webview (all but `record-saved`: the panel reloads its state when a run starts or ends). */
export const PanelRunEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run-started'), runId: z.string(), runDir: z.string(), resumed: z.boolean() }),
  z.object({
    type: z.literal('iteration-started'),
    runId: z.string(),
    iteration: z.number(),
    candidates: z.array(z.string()),
    final: z.boolean(),
  }),
  z.object({
    type: z.literal('turn-started'),
    runId: z.string(),
    iteration: z.number(),
    speaker: z.string(),
    speakerName: z.string(),
    turn: z.number().nullable(),
    phase: z.enum(PHASES).optional(),
    kind: MessageKindSchema.optional(),
  }),
  z.object({
    type: z.literal('turn-delta'),
    runId: z.string(),
    iteration: z.number(),
    speaker: z.string(),
    turn: z.number().nullable(),
    text: z.string(),
  }),
  z.object({ type: z.literal('turn-completed'), runId: z.string(), iteration: z.number(), message: MessageSchema }),
  z.object({ type: z.literal('remix-agent-completed'), runId: z.string(), iteration: IterationSchema }),
  z.object({ type: z.literal('image-edit-started'), runId: z.string(), iteration: z.number(), from: z.array(z.string()), remixId: z.string().optional() }),
  z.object({
    type: z.literal('remix-created'),
    runId: z.string(),
    iteration: z.number(),
    remixId: z.string(),
    file: z.string(),
  }),
  z.object({
    type: z.literal('notice'),
    runId: z.string(),
    level: z.enum(['info', 'warning', 'error']),
    message: z.string(),
  }),
  z.object({ type: z.literal('run-finished'), runId: z.string(), status: RunStatusSchema, error: z.string().optional() }),
  z.object({ type: z.literal('waiting'), runId: z.string(), waitingFor: WaitingForSchema, speakerName: z.string() }),
  z.object({ type: z.literal('pins-changed'), runId: z.string(), pins: z.array(PinSchema) }),
]);
export type PanelRunEvent = z.infer<typeof PanelRunEventSchema>;

export const SaveRankingReplySchema = z.object({
  type: z.literal('saveRankingResult'),
  requestId: z.number().int().nonnegative(),
  ok: z.boolean(),
  /** Written file, relative to the review root, when ok. */
  file: z.string().optional(),
  designerId: z.string().optional(),
  diagnostics: z.array(DiagnosticSchema),
});
export type SaveRankingReply = z.infer<typeof SaveRankingReplySchema>;

/** The answer to saveRatings / saveSurvey: the file written, or why not (one sentence). */
export const SaveFeedbackReplySchema = z.object({
  type: z.literal('saveFeedbackResult'),
  requestId: z.number().int().nonnegative(),
  ok: z.boolean(),
  file: z.string().optional(),
  message: z.string().optional(),
});
export type SaveFeedbackReply = z.infer<typeof SaveFeedbackReplySchema>;

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
  SaveRankingReplySchema,
  SaveFeedbackReplySchema,
  /** A short message for the user (an action failed, a run cannot start). */
  z.object({ type: z.literal('notice'), level: z.enum(['info', 'warning', 'error']), message: z.string() }),
  z.object({ type: z.literal('codingProgress'), progress: CodingProgressSchema }),
  PeopleReplySchema,
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
  /** The designer whose proxy's messages are being rated (and who answers the survey). */
  rateAs: z.string().optional(),
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
export const parsePersistedState = (data: unknown): ParseResult<WebviewPersistedState> =>
  parseWith(WebviewPersistedStateSchema, data);
