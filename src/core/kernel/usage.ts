/**
 * Tokens, images and cost a run (or a command) spent: the one shape and the one sum. Every model call's usage is added
 * here, whether it goes into run.json, a coding file or a judge's verdict.
 */
import * as z from 'zod';

export const UsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  images: z.number().int().nonnegative(),
  /** Image-model tokens (image edits), billed at the image model's prices: text prompt, input images, generated image. */
  imageTextInputTokens: z.number().int().nonnegative().optional(),
  imageInputTokens: z.number().int().nonnegative().optional(),
  imageOutputTokens: z.number().int().nonnegative().optional(),
  /** Estimate from the configured price table, US dollars. */
  costUsd: z.number().nonnegative().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** Nothing spent yet. */
export function zeroUsage(): Usage {
  return { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, images: 0 };
}

/** Adds `u` to `total` (the cost is not summed: it is estimated from the totals). */
export function addUsage(total: Usage, u: Partial<Usage> | undefined): void {
  if (!u) return;
  total.inputTokens += u.inputTokens ?? 0;
  total.cachedInputTokens += u.cachedInputTokens ?? 0;
  total.outputTokens += u.outputTokens ?? 0;
  total.images += u.images ?? 0;
  for (const k of ['imageTextInputTokens', 'imageInputTokens', 'imageOutputTokens'] as const) {
    const v = u[k];
    if (v !== undefined) total[k] = (total[k] ?? 0) + v;
  }
}
