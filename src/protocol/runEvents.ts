/** Run events as the panel's host forwards them to the webview (src/core/step/events.ts less `record-saved`). Only zod here. */
import * as z from 'zod';
import { RunStatusSchema, IterationSchema, MessageSchema, MessageKindSchema, PinSchema, WaitingForSchema } from '../core/record/record';
import { PHASES } from '../core/settings/discussionSettings';

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
  z.object({
    type: z.literal('image-edit-started'),
    runId: z.string(),
    iteration: z.number(),
    from: z.array(z.string()),
    remixId: z.string().optional(),
  }),
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
    logged: z.literal(true).optional(),
  }),
  z.object({ type: z.literal('run-finished'), runId: z.string(), status: RunStatusSchema, error: z.string().optional() }),
  z.object({ type: z.literal('waiting'), runId: z.string(), waitingFor: WaitingForSchema, speakerName: z.string() }),
  z.object({ type: z.literal('pins-changed'), runId: z.string(), pins: z.array(PinSchema) }),
]);
export type PanelRunEvent = z.infer<typeof PanelRunEventSchema>;
