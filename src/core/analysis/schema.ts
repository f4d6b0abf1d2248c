/**
 * The shape of runs/<run-id>/analysis.json (zod only, no Node imports: the panel's protocol and webview use it too).
 */
import * as z from 'zod';
import { RunStatusSchema, UsageSchema, MessageKindSchema } from '../record/record';
import { BALES_CATEGORIES } from './bales';
import { StanceTableSchema } from './stance';

export const ANALYSIS_VERSION = 1;

const category = z.number().int().min(1).max(BALES_CATEGORIES.length);

export const BalesCodeSchema = z.object({
  /** The run record's message id, `i<iteration>-m<index>`. */
  message: z.string(),
  speaker: z.string(),
  kind: MessageKindSchema.optional(),
  iteration: z.number().int().positive(),
  category,
  label: z.string(),
});
export type BalesCode = z.infer<typeof BalesCodeSchema>;

export const RoundMixSchema = z.object({
  iteration: z.number().int().positive(),
  coded: z.number().int().nonnegative(),
  agrees: z.number().int().nonnegative(),
  disagrees: z.number().int().nonnegative(),
});
export type RoundMix = z.infer<typeof RoundMixSchema>;

/** A Batch API job of this coding that has not been collected yet (resumed by the next code-discussion). */
/** What an id the API gave back may look like (`batch_abc123`, `file-abc123`): it is put into request paths, so never
 * `..`, a slash or anything else a file could slip in. */
const API_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$/;
const apiId = (what: string) =>
  z.string().regex(API_ID, {
    error: `${what} must be an id the API gave (letters, digits, _ and -, like batch_abc123); this one is not, so the file is not used`,
  });

export const PendingBatchSchema = z.object({
  id: apiId('The batch id'),
  inputFileId: apiId('The batch input file id'),
  status: z.string(),
  createdAt: z.string(),
  /** custom_id → the message ids that request codes. */
  requests: z.record(z.string(), z.array(z.string())),
});
export type PendingBatch = z.infer<typeof PendingBatchSchema>;

export const CodingPromptSchema = z.object({
  /** The system message, identical for every request. */
  system: z.string(),
  /** How each request's user message is laid out. */
  layout: z.string(),
  /** Messages shown before and after each coded message (at most). */
  context: z.number().int().nonnegative(),
  /** Messages coded per request (at most). */
  messagesPerRequest: z.number().int().positive(),
  responseFormat: z.string(),
});

export const AnalysisFileSchema = z.object({
  version: z.literal(ANALYSIS_VERSION),
  runId: z.string(),
  /** Status of the run when it was coded (a running run is coded as far as it is on disk). */
  runStatus: RunStatusSchema,
  codedAt: z.string(),
  model: z.string(),
  /** Coded by the bundled scripted server, not `model` (llm/scripted.ts): said wherever the codes are. */
  scripted: z.literal(true).optional(),
  /** How the current codes were obtained: chat requests, the Batch API, or both. */
  mode: z.enum(['direct', 'batch', 'mixed']),
  prompt: CodingPromptSchema,
  /** Requests (and tokens, cost) of the coding that produced the current codes. */
  requests: z.number().int().nonnegative(),
  usage: UsageSchema,
  bales: z.array(BalesCodeSchema),
  /** speaker id (guests included) → category number as a string → count. */
  byDesigner: z.record(z.string(), z.record(z.string(), z.number().int().nonnegative())),
  /** Agrees (3) and Disagrees (10) per round. */
  rounds: z.array(RoundMixSchema),
  /** Agrees are at least COMPLIANT_SHARE of the coded messages (see summary.ts). */
  possiblyTooCompliant: z.boolean(),
  /** Messages that stayed without a valid code after the bounded retries (never guessed). */
  uncoded: z.array(z.string()),
  batch: PendingBatchSchema.optional(),
  /** The last batch that expired, failed or was cancelled, in words; its requests can be sent again. */
  batchProblem: z.string().optional(),
  stance: StanceTableSchema.optional(),
});
export type AnalysisFile = z.infer<typeof AnalysisFileSchema>;
