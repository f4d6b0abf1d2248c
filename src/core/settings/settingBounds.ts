/**
 * THE bounds of the run settings, in one place: review.yaml, the command line and the run-record check all take their
 * limits from here (a record is validated through RunSettingsSchema, which is built from these, so a new bounded setting
 * added there is checked everywhere at once).
 */
import * as z from 'zod';
import { shown } from '../kernel/text';

export const SETTING_BOUNDS = {
  /** Turns each proxy takes per iteration. */
  turnsPerAgent: { min: 1, max: 10 },
  /** Iterations of a run (a refinement adds two, up to this many). */
  iterations: { min: 1, max: 10 },
  /** Longest side, in pixels, of the images the chat model sees. */
  imageMaxSide: { min: 256, max: 4096 },
  /** Independent first assessments sent at the same time. */
  maxConcurrency: { min: 1, max: 16 },
  /** Remixes each remix round makes (issue 19): the remix agent proposes this many, each its own image edit. */
  remixesPerIteration: { min: 1, max: 4 },
  /** Sets of editing directions the remix agent proposes a remix round (issue 41); the proxies elect the round's remixes among them. */
  pool: { min: 1, max: 8 },
  /** Speaking-order seed: an unsigned 32-bit integer. */
  orderSeed: { min: 0, max: 4294967295 },
} as const;

/** Bounds of the settings that are not whole numbers of something to count. */
export const OTHER_BOUNDS = {
  /** Sampling temperature of every chat request. */
  temperature: { min: 0, max: 2 },
  /** Characters in one prompt layer (review.yaml prompts:). */
  promptLayer: { min: 1, max: 4000 },
  /** Independent checks of each remix against each checklist item (issue 41, `checklist: { repeat }`): with 2 or more, each item's agreement is said. */
  checklistRepeat: { min: 1, max: 3 },
} as const;

/** `checklist: { repeat }` (issue 41): a whole number within its bounds, one sentence on failure. */
export function checklistRepeatSetting(): z.ZodNumber {
  const { min, max } = OTHER_BOUNDS.checklistRepeat;
  const message = (iss: { input?: unknown }): string =>
    `checklist repeat must be a whole number from ${min} to ${max} (found ${shown(iss.input)}).`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
}

export type BoundedSetting = keyof typeof SETTING_BOUNDS;

/** A whole number within the setting's bounds; every failure is one sentence naming the field and its range. */
export function wholeSetting(field: BoundedSetting, name: string = field): z.ZodNumber {
  const { min, max } = SETTING_BOUNDS[field];
  const message = (iss: { input?: unknown }): string => `${name} must be a whole number from ${min} to ${max} (found ${shown(iss.input)}).`;
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });
}
