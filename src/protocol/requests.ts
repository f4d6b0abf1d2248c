/**
 * Every request the panel's webview makes of the host, declared once: its params and the schema of its one reply
 * (the pattern of a protocol map: request name → { params, reply }). On the wire a request is its params with
 * `type` (the request's name) and a `requestId`; its reply is a host message of the type requestKinds.ts names, carrying
 * the same `requestId`. The host parses every request and checks every reply it sends against these schemas; the webview
 * (no schema library) waits for the reply type REQUEST_REPLIES names and checks its shape (webview/panel/guards.ts).
 * Only zod and type imports here.
 */
import * as z from 'zod';
import { DiagnosticSchema } from './panelData';
import { REQUEST_REPLIES, type ReplyType, type RequestKind } from './requestKinds';

const text = (max: number) => z.string().max(max);
const requestId = z.number().int().nonnegative();
const score = z.number().int().min(1).max(5);

/** A request on the wire: `{ type: kind, requestId, ...params }`. */
function request<K extends RequestKind, P extends z.ZodRawShape>(kind: K, params: P) {
  return z.object({ type: z.literal(kind), requestId, ...params });
}

/** A reply on the wire: `{ type, requestId, ...answer }`. */
function reply<T extends ReplyType, A extends z.ZodRawShape>(type: T, answer: A) {
  return z.object({ type: z.literal(type), requestId, ...answer });
}

// ── Params ───────────────────────────────────────────────────────────────────────────────────────────────────────

const RankingDraftEntrySchema = z.object({
  option: text(500),
  rank: z.number().int().positive(),
  justification: text(20_000),
});

const SaveRankingRequestSchema = request('saveRanking', {
  /** Existing designer id when editing; absent for a new ranking (the id is made from the name). */
  designerId: text(200).optional(),
  designer: text(200),
  role: text(200).optional(),
  /** A blind re-rank set: the member of the run's team ranking it (the file is rankings/<member>.yaml, named as the team names them). */
  member: text(200).optional(),
  ranking: z.array(RankingDraftEntrySchema).max(500),
});
export type SaveRankingRequest = z.infer<typeof SaveRankingRequestSchema>;

/** A designer's ratings of their own proxy's messages in one run (the whole file is rewritten). */
const SaveRatingsRequestSchema = request('saveRatings', {
  runId: text(200),
  designer: text(200),
  ratings: z.array(z.object({ message: text(100), score, comment: text(4000).optional() })).max(2000),
});
export type SaveRatingsRequest = z.infer<typeof SaveRatingsRequestSchema>;

/** A designer's answers to the three study questions about one run. */
const SaveSurveyRequestSchema = request('saveSurvey', {
  runId: text(200),
  designer: text(200),
  representative: score.optional(),
  clarity: score.optional(),
  satisfied: score.optional(),
  comment: text(4000).optional(),
});
export type SaveSurveyRequest = z.infer<typeof SaveSurveyRequestSchema>;

/** A member confirms or corrects what the agent says became of each of their own points (the last revised brief's coverage). */
const SaveCoverageRequestSchema = request('saveCoverage', {
  runId: text(200),
  designer: text(200),
  points: z
    .array(
      z.object({
        point: text(2000),
        agree: z.boolean(),
        status: z.enum(['kept', 'changed', 'left-out']).optional(),
        comment: text(4000).optional(),
      }),
    )
    .max(200),
});
export type SaveCoverageRequest = z.infer<typeof SaveCoverageRequestSchema>;

/** A designer speaks in the run (taken in at the next turn boundary; answers their turn when the run waits for them). */
const SayRequestSchema = request('say', { runId: text(200), as: text(200), text: text(4000) });

/** Pins (or unpins) a message of the run. */
const PinRequestSchema = request('pin', { runId: text(200), message: text(100), as: text(200), remove: z.boolean().optional() });

/** A member's vote on a fork of the run: the side (remix id) they prefer (written to their own votes file). */
const VoteRequestSchema = request('vote', {
  runId: text(200),
  as: text(200),
  iteration: z.number().int().min(1).max(100),
  decisionPoint: z.number().int().min(1).max(100),
  choice: text(200),
});
export type VoteRequest = z.infer<typeof VoteRequestSchema>;

// ── Replies ──────────────────────────────────────────────────────────────────────────────────────────────────────

const SaveRankingReplySchema = reply('saveRankingResult', {
  ok: z.boolean(),
  /** Written file, relative to the review root, when ok. */
  file: z.string().optional(),
  designerId: z.string().optional(),
  diagnostics: z.array(DiagnosticSchema),
});
type SaveRankingReply = z.infer<typeof SaveRankingReplySchema>;

/** The answer to saveRatings / saveSurvey / saveCoverage: the file written, or why not (one sentence). */
const SaveFeedbackReplySchema = reply('saveFeedbackResult', {
  ok: z.boolean(),
  file: z.string().optional(),
  message: z.string().optional(),
});
export type SaveFeedbackReply = z.infer<typeof SaveFeedbackReplySchema>;

/** The answer to a say or pin: done (recorded now, or handed to the process running the run), or why not. */
const PeopleReplySchema = reply('peopleResult', { ok: z.boolean(), message: z.string() });
export type PeopleReply = z.infer<typeof PeopleReplySchema>;

// ── The map ──────────────────────────────────────────────────────────────────────────────────────────────────────

type Declared = {
  [K in RequestKind]: {
    params: z.ZodType<{ type: K; requestId: number }>;
    reply: z.ZodType<{ type: (typeof REQUEST_REPLIES)[K]; requestId: number }>;
    /** The reply that says the request was not done, and why (one sentence): a refusal, or a failure of the host. */
    refused(requestId: number, message: string): { type: (typeof REQUEST_REPLIES)[K]; requestId: number };
  };
};

const rankingRefused = (requestId: number, message: string): SaveRankingReply => ({
  type: 'saveRankingResult',
  requestId,
  ok: false,
  diagnostics: [{ file: 'rankings', line: 0, column: 0, severity: 'error', message }],
});
const feedbackRefused = (requestId: number, message: string): SaveFeedbackReply => ({
  type: 'saveFeedbackResult',
  requestId,
  ok: false,
  message,
});
const peopleRefused = (requestId: number, message: string): PeopleReply => ({ type: 'peopleResult', requestId, ok: false, message });

/** Request name → its message schema (params with type and requestId), its reply's schema, and its refusal. */
export const PANEL_REQUESTS = {
  saveRanking: { params: SaveRankingRequestSchema, reply: SaveRankingReplySchema, refused: rankingRefused },
  saveRatings: { params: SaveRatingsRequestSchema, reply: SaveFeedbackReplySchema, refused: feedbackRefused },
  saveSurvey: { params: SaveSurveyRequestSchema, reply: SaveFeedbackReplySchema, refused: feedbackRefused },
  saveCoverage: { params: SaveCoverageRequestSchema, reply: SaveFeedbackReplySchema, refused: feedbackRefused },
  say: { params: SayRequestSchema, reply: PeopleReplySchema, refused: peopleRefused },
  pin: { params: PinRequestSchema, reply: PeopleReplySchema, refused: peopleRefused },
  vote: { params: VoteRequestSchema, reply: PeopleReplySchema, refused: peopleRefused },
} as const satisfies Declared;

/** The request messages, for the union of what the webview posts. */
export const REQUEST_SCHEMAS = [
  SaveRankingRequestSchema,
  SaveRatingsRequestSchema,
  SaveSurveyRequestSchema,
  SaveCoverageRequestSchema,
  SayRequestSchema,
  PinRequestSchema,
  VoteRequestSchema,
] as const;
/** Each reply type once, for the union of what the host posts. */
export const REPLY_SCHEMAS = [SaveRankingReplySchema, SaveFeedbackReplySchema, PeopleReplySchema] as const;

/** The typed map: request name → its request message, its params (what the caller gives) and its reply. */
export type PanelRequests = {
  [K in RequestKind]: {
    message: z.infer<(typeof PANEL_REQUESTS)[K]['params']>;
    params: DistributiveOmit<z.infer<(typeof PANEL_REQUESTS)[K]['params']>, 'type' | 'requestId'>;
    reply: z.infer<(typeof PANEL_REQUESTS)[K]['reply']>;
  };
};
export type RequestMessage = PanelRequests[RequestKind]['message'];

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export {
  REQUEST_REPLIES,
  REQUEST_KINDS,
  REQUEST_TIMEOUT_MS,
  isReplyType,
  isRequestKind,
  type ReplyType,
  type RequestKind,
} from './requestKinds';
