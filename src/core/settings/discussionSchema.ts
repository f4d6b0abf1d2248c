/** The run.json fields of the discussion settings (values: discussionSettings.ts, bounds: settingBounds.ts). */
import * as z from 'zod';
import {
  CONSENSUS_METHODS,
  DISCUSSION_MODES,
  FORK_MODES,
  HIERARCHIES,
  IMAGE_QUALITIES,
  IMAGE_SIZES,
  PERSONA_ROLES,
  SPEAKING_ORDERS,
  type PromptLayers,
} from './discussionSettings';
import { OTHER_BOUNDS as B, wholeSetting } from './settingBounds';

export const PromptLayersSchema = z
  .object({
    goal: z.string().trim().min(B.promptLayer.min).max(B.promptLayer.max).optional(),
    style: z.string().trim().min(B.promptLayer.min).max(B.promptLayer.max).optional(),
    collaborativeMove: z.string().trim().min(B.promptLayer.min).max(B.promptLayer.max).optional(),
  })
  .strict() satisfies z.ZodType<PromptLayers>;

/** The run.json fields for all of the above (optional: records written before these existed lack them). */
export const discussionSettingFields = {
  mode: z.enum(DISCUSSION_MODES).optional(),
  order: z.enum(SPEAKING_ORDERS).optional(),
  orderSeed: wholeSetting('orderSeed').optional(),
  /** Designer id of the lead when the run started (placed last in the order; decides under lead-decides). */
  lead: z.string().optional(),
  leadSpeaksLast: z.boolean().optional(),
  maxConcurrency: wholeSetting('maxConcurrency').optional(),
  hierarchy: z.enum(HIERARCHIES).optional(),
  personaRole: z.enum(PERSONA_ROLES).optional(),
  /** The consensus order of the team's own rankings the remix agent falls back on; absent = borda. */
  consensus: z.enum(CONSENSUS_METHODS).optional(),
  /** Forks (issue 33): off | auto | ask; absent (records from before it) = off. */
  forks: z.enum(FORK_MODES).optional(),
  temperature: z.number().min(B.temperature.min).max(B.temperature.max).optional(),
  imageSize: z.enum(IMAGE_SIZES).optional(),
  imageQuality: z.enum(IMAGE_QUALITIES).optional(),
  /** The team's own prompt layers (review.yaml `prompts:`), exactly as used. */
  prompts: PromptLayersSchema.optional(),
  /** The designers taking part (`run --designers`); all of the review's designers when absent. */
  designers: z.array(z.string()).min(2).optional(),
};
