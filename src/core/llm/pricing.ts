/**
 * Cost estimates. Prices are US dollars per million tokens (chat) and per generated image (image edits), taken from
 * OpenAI's public price list at the time of writing; they change, so the table is configurable (VS Code setting
 * `teamfusion.prices`, merged over this one). A model missing from the table gives `undefined`, never a made-up 0.
 * gpt-image-1's per-image price is the medium-quality 1024×1024 price; its input-image tokens are not counted.
 */
import { z } from 'zod';
import type { Usage } from '../run/record';

export const ModelPriceSchema = z.object({
  inputPerMTok: z.number().nonnegative().optional(),
  cachedInputPerMTok: z.number().nonnegative().optional(),
  outputPerMTok: z.number().nonnegative().optional(),
  perImage: z.number().nonnegative().optional(),
});
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

export const PriceTableSchema = z.record(z.string(), ModelPriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

export const DEFAULT_PRICES: PriceTable = {
  'gpt-4o': { inputPerMTok: 2.5, cachedInputPerMTok: 1.25, outputPerMTok: 10 },
  'gpt-4o-mini': { inputPerMTok: 0.15, cachedInputPerMTok: 0.075, outputPerMTok: 0.6 },
  'gpt-4.1': { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, cachedInputPerMTok: 0.1, outputPerMTok: 1.6 },
  'gpt-4.1-nano': { inputPerMTok: 0.1, cachedInputPerMTok: 0.025, outputPerMTok: 0.4 },
  'gpt-5': { inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10 },
  'gpt-5-mini': { inputPerMTok: 0.25, cachedInputPerMTok: 0.025, outputPerMTok: 2 },
  'gpt-image-1': { perImage: 0.042 },
  'gpt-image-1-mini': { perImage: 0.011 },
};

/**
 * OpenAI's Batch API bills a request at half the normal price (input, cached input and output alike): the discount is a
 * factor on this table, not a second table.
 */
export const BATCH_DISCOUNT = 0.5;

/** The built-in table with `overrides` merged over it, model by model. */
export function mergePrices(overrides?: PriceTable): PriceTable {
  const out: PriceTable = { ...DEFAULT_PRICES };
  for (const [model, p] of Object.entries(overrides ?? {})) out[model] = { ...out[model], ...p };
  return out;
}

/**
 * Estimated cost of a run's usage (`batch`: requests sent through the Batch API, at BATCH_DISCOUNT). Cached input tokens are part of `inputTokens` (as OpenAI reports them) and are billed
 * at the cached price when the table has one. `undefined` when a model that was used has no price.
 */
export function estimateCost(
  usage: Usage,
  models: { chatModel: string; imageModel: string },
  prices: PriceTable = DEFAULT_PRICES,
  opts: { batch?: boolean } = {},
): number | undefined {
  let cost = 0;
  const chatUsed = usage.inputTokens + usage.outputTokens > 0;
  if (chatUsed) {
    const p = prices[models.chatModel];
    if (!p || p.inputPerMTok === undefined || p.outputPerMTok === undefined) return undefined;
    const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
    const cachedPrice = p.cachedInputPerMTok ?? p.inputPerMTok;
    cost += ((usage.inputTokens - cached) * p.inputPerMTok + cached * cachedPrice + usage.outputTokens * p.outputPerMTok) / 1e6;
  }
  if (usage.images > 0) {
    const p = prices[models.imageModel];
    if (!p || p.perImage === undefined) return undefined;
    cost += usage.images * p.perImage;
  }
  if (opts.batch) cost *= BATCH_DISCOUNT;
  return Math.round(cost * 1e6) / 1e6;
}
