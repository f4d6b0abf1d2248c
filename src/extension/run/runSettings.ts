/**
 * Which run settings the user set explicitly in VS Code. Precedence agreed with the engine:
 * explicit settings > review.yaml > environment > defaults — so a setting still at its default is NOT passed on
 * (review.yaml can then decide). Command arguments (iterations, turns) count as explicit. No `vscode` import: the
 * configuration is read through a small `inspect` function so this stays unit-testable.
 */
import * as z from 'zod';
import type { RunSettings } from '../../core/record/record';
import { ModelPriceSchema, type PriceTable } from '../../core/llm/pricing';
import { OTHER_BOUNDS, SETTING_BOUNDS, wholeSetting, type BoundedSetting } from '../../core/settings/settingBounds';
import {
  DISCUSSION_MODES,
  HIERARCHIES,
  FORK_MODES,
  IMAGE_QUALITIES,
  IMAGE_SIZES,
  PERSONA_ROLES,
  SPEAKING_ORDERS,
  oneOf,
} from '../../core/settings/discussionSettings';

/** The part of `WorkspaceConfiguration.inspect()` used here. */
export interface InspectedValue<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

export type InspectFn = (key: string) => InspectedValue<unknown> | undefined;

/** The value the user set at the most specific level, or undefined when it is only the default. */
export function explicitValue(inspected: InspectedValue<unknown> | undefined): unknown {
  if (!inspected) return undefined;
  return inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue;
}

const ModelName = z.string().trim().min(1);

/** The engine's price table shape; unknown keys inside a model's entry are rejected so typos are reported. */
export const PricesSettingSchema = z.record(z.string(), ModelPriceSchema.strict());
export type PricesSetting = PriceTable;

export interface RunOverrides {
  iterations?: number;
  turns?: number;
  /** A subset of the review's designers (the picker, or a command argument). */
  designers?: readonly string[];
}

export interface ResolvedRunSettings {
  /** Only the settings the user chose; the engine fills the rest from review.yaml, env and defaults. */
  settings: Partial<RunSettings>;
  /** User-set price table, if any and valid. */
  prices?: PricesSetting;
  /** Problems with set values, in words (the value is then ignored). */
  warnings: string[];
}

/** Reads the explicit run settings; `inspect` gets keys relative to the `teamfusion` section. */
export function resolveRunSettings(inspect: InspectFn, overrides: RunOverrides = {}): ResolvedRunSettings {
  const settings: Partial<RunSettings> = {};
  const warnings: string[] = [];

  const take = <T>(key: string, schema: z.ZodType<T>, describe: string): T | undefined => {
    const raw = explicitValue(inspect(key));
    if (raw === undefined) return undefined;
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      warnings.push(`The setting teamfusion.${key} (${JSON.stringify(raw)}) is not ${describe}; it is ignored.`);
      return undefined;
    }
    return parsed.data;
  };

  const chatModel = take('chatModel', ModelName, 'a model name');
  if (chatModel !== undefined) settings.chatModel = chatModel;
  const imageModel = take('imageModel', ModelName, 'a model name');
  if (imageModel !== undefined) settings.imageModel = imageModel;
  const bounded = (key: BoundedSetting, unit = ''): number | undefined =>
    take(key, wholeSetting(key), `a whole number${unit} from ${SETTING_BOUNDS[key].min} to ${SETTING_BOUNDS[key].max}`);
  const turns = bounded('turnsPerAgent');
  if (turns !== undefined) settings.turnsPerAgent = turns;
  const iterations = bounded('iterations');
  if (iterations !== undefined) settings.iterations = iterations;
  const maxSide = bounded('imageMaxSide', ' of pixels');
  if (maxSide !== undefined) settings.imageMaxSide = maxSide;
  const remixes = bounded('remixesPerIteration');
  if (remixes !== undefined) settings.remixesPerIteration = remixes;
  const pool = bounded('pool');
  if (pool !== undefined) settings.pool = pool;
  const concurrency = bounded('maxConcurrency');
  if (concurrency !== undefined) settings.maxConcurrency = concurrency;
  const seed = bounded('orderSeed');
  if (seed !== undefined) settings.orderSeed = seed;
  const pick = <T extends readonly [string, ...string[]]>(key: string, values: T): T[number] | undefined =>
    take(key, z.enum(values), oneOf(values.map((v) => `"${v}"`)));
  const mode = pick('mode', DISCUSSION_MODES);
  if (mode !== undefined) settings.mode = mode;
  const order = pick('order', SPEAKING_ORDERS);
  if (order !== undefined) settings.order = order;
  const hierarchy = pick('hierarchy', HIERARCHIES);
  if (hierarchy !== undefined) settings.hierarchy = hierarchy;
  const forks = pick('forks', FORK_MODES);
  if (forks !== undefined) settings.forks = forks;
  const personaRole = pick('personaRole', PERSONA_ROLES);
  if (personaRole !== undefined) settings.personaRole = personaRole;
  const imageSize = pick('imageSize', IMAGE_SIZES);
  if (imageSize !== undefined) settings.imageSize = imageSize;
  const imageQuality = pick('imageQuality', IMAGE_QUALITIES);
  if (imageQuality !== undefined) settings.imageQuality = imageQuality;
  const { min, max } = OTHER_BOUNDS.temperature;
  const temperature = take('temperature', z.number().min(min).max(max), `a number from ${min} to ${max}`);
  if (temperature !== undefined) settings.temperature = temperature;

  if (overrides.iterations !== undefined) settings.iterations = overrides.iterations;
  if (overrides.turns !== undefined) settings.turnsPerAgent = overrides.turns;
  if (overrides.designers !== undefined) settings.designers = [...overrides.designers];

  const prices = take('prices', PricesSettingSchema, 'a price table ({ "model": { "inputPerMTok": 2.5, … } })');
  const result: ResolvedRunSettings = { settings, warnings };
  if (prices !== undefined && Object.keys(prices).length > 0) result.prices = prices;
  return result;
}

export interface ConnectionSettings {
  baseURL?: string;
  /** The image endpoint when it is not the chat one: `teamfusion.imageBaseUrl`, else TEAMFUSION_IMAGE_BASE_URL. */
  imageBaseURL?: string;
  timeoutMs: number;
  maxRetries: number;
}

/**
 * Endpoint and retry behaviour: the base URL setting, else OPENAI_BASE_URL, else the SDK default.
 * `get` returns the effective value (default included) of a `teamfusion.*` key.
 */
export function resolveConnection(get: (key: string) => unknown, env: NodeJS.ProcessEnv): ConnectionSettings {
  const baseSetting = get('baseUrl');
  const base = typeof baseSetting === 'string' && baseSetting.trim() !== '' ? baseSetting.trim() : env.OPENAI_BASE_URL?.trim();
  const timeout = z.number().positive().safeParse(get('requestTimeoutSeconds'));
  const retries = z.number().int().min(0).max(10).safeParse(get('maxRetries'));
  const out: ConnectionSettings = {
    timeoutMs: Math.round((timeout.success ? timeout.data : 120) * 1000),
    maxRetries: retries.success ? retries.data : 3,
  };
  if (base) out.baseURL = base;
  const imageSetting = get('imageBaseUrl');
  const imageBase =
    typeof imageSetting === 'string' && imageSetting.trim() !== '' ? imageSetting.trim() : env.TEAMFUSION_IMAGE_BASE_URL?.trim();
  if (imageBase) out.imageBaseURL = imageBase;
  return out;
}
