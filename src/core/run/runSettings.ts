/**
 * Run settings, resolved once at the start of a run and then frozen in run.json.
 * Precedence (highest first): explicit settings (CLI flags, VS Code settings) > review.yaml >
 * environment (TEAMFUSION_CHAT_MODEL, TEAMFUSION_IMAGE_MODEL) > defaults (DEFAULT_SETTINGS; the only place a new run's
 * defaults are filled in: a recorded run is read with the record's own settings, absent ones as before they existed).
 * Every discussion setting is written into the record (the seed too, drawn here when none was given), so a resume — or a
 * reader — sees exactly how the run was made.
 */
import type { ReviewConfig } from '../review/model';
import { DEFAULT_IMAGE_MAX_SIDE } from '../llm/images';
import { DEFAULT_CHECKLIST, DEFAULT_FORK_MODE, DEFAULT_POOL, DISCUSSION_DEFAULTS } from '../settings/discussionSettings';
import type { RunSettings } from '../record/record';
import { newSeed } from '../discussion/schedule';

export const DEFAULT_SETTINGS: RunSettings = {
  chatModel: 'gpt-4o',
  imageModel: 'gpt-image-1',
  turnsPerAgent: 2,
  iterations: 3,
  imageMaxSide: DEFAULT_IMAGE_MAX_SIDE,
  ...DISCUSSION_DEFAULTS,
  forks: DEFAULT_FORK_MODE,
  // Issue 41: a new run pools directions and checks its remixes against the brief (an older record lacks both: 1 and off).
  pool: DEFAULT_POOL,
  checklist: DEFAULT_CHECKLIST,
};

export function resolveRunSettings(
  explicit: Partial<RunSettings> | undefined,
  config: ReviewConfig,
  env: NodeJS.ProcessEnv = process.env,
): RunSettings {
  const fromEnv: Partial<RunSettings> = {
    chatModel: env.TEAMFUSION_CHAT_MODEL?.trim() || undefined,
    imageModel: env.TEAMFUSION_IMAGE_MODEL?.trim() || undefined,
  };
  const fromReview: Partial<RunSettings> = {
    chatModel: config.chatModel,
    imageModel: config.imageModel,
    turnsPerAgent: config.turnsPerAgent,
    iterations: config.iterations,
    imageMaxSide: config.imageMaxSide,
    remixesPerIteration: config.remixesPerIteration,
    pool: config.pool,
    checklist: config.checklist,
    mode: config.mode,
    order: config.order,
    orderSeed: config.orderSeed,
    lead: config.lead,
    leadSpeaksLast: config.leadSpeaksLast,
    maxConcurrency: config.maxConcurrency,
    hierarchy: config.hierarchy,
    consensus: config.consensus,
    forks: config.forks,
    personaRole: config.personaRole,
    temperature: config.temperature,
    imageSize: config.imageSize,
    imageQuality: config.imageQuality,
    prompts: config.prompts,
  };
  const out: RunSettings = { ...DEFAULT_SETTINGS, checklist: { ...DEFAULT_CHECKLIST } };
  for (const layer of [fromEnv, fromReview, explicit ?? {}]) {
    for (const [k, v] of Object.entries(layer) as [keyof RunSettings, RunSettings[keyof RunSettings]][]) {
      if (v !== undefined && v !== null && v !== '') (out as Record<string, unknown>)[k] = v;
    }
  }
  if (out.orderSeed === undefined) out.orderSeed = newSeed();
  return out;
}
