/**
 * THE price table. Prices are US dollars per million tokens, taken from OpenAI's public price list at the time of writing;
 * they change, so the table is configurable (VS Code setting `teamfusion.prices`, CLI `TEAMFUSION_PRICES`, merged over this
 * one). A model missing from the table gives `undefined`, never a made-up 0.
 * Image models are billed by tokens too: text input (`inputPerMTok`), image input (`imageInputPerMTok`) and image output
 * (`imageOutputPerMTok`); the output tokens of one image depend on its quality and size as OpenAI publishes them
 * (IMAGE_OUTPUT_TOKENS). `perImage` is only a fallback for records without image token counts.
 */
import * as z from 'zod';
import type { Usage } from '../kernel/usage';

export const ModelPriceSchema = z.object({
  inputPerMTok: z.number().nonnegative().optional(),
  cachedInputPerMTok: z.number().nonnegative().optional(),
  outputPerMTok: z.number().nonnegative().optional(),
  perImage: z.number().nonnegative().optional(),
  imageInputPerMTok: z.number().nonnegative().optional(),
  imageOutputPerMTok: z.number().nonnegative().optional(),
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
  // gpt-image-1: text input $5, image input $10, image output $40 per 1M tokens.
  'gpt-image-1': { inputPerMTok: 5, cachedInputPerMTok: 1.25, imageInputPerMTok: 10, imageOutputPerMTok: 40, perImage: 0.042 },
  'gpt-image-1-mini': { inputPerMTok: 2, cachedInputPerMTok: 0.2, imageInputPerMTok: 2.5, imageOutputPerMTok: 8, perImage: 0.011 },
};

/**
 * OpenAI's Batch API bills a request at half the normal price (input, cached input and output alike): the discount is a
 * factor on this table, not a second table.
 */
export const BATCH_DISCOUNT = 0.5;

/**
 * Output tokens of one generated image by quality and size, as OpenAI publishes them for gpt-image-1
 * (low / medium / high: 272 / 1056 / 4160 at 1024×1024; 408 / 1584 / 6240 at 1024×1536 and 1536×1024).
 */
export const IMAGE_OUTPUT_TOKENS: Record<'low' | 'medium' | 'high', Record<'1024x1024' | '1024x1536' | '1536x1024', number>> = {
  low: { '1024x1024': 272, '1024x1536': 408, '1536x1024': 408 },
  medium: { '1024x1024': 1056, '1024x1536': 1584, '1536x1024': 1584 },
  high: { '1024x1024': 4160, '1024x1536': 6240, '1536x1024': 6240 },
};

/**
 * Output tokens of one image when the server did not report them: by the quality asked for (`auto` counts as high, the
 * upper bound) and the size of the image actually returned (the nearest of the three published shapes).
 */
export function imageOutputTokens(quality: string | undefined, width: number, height: number): number {
  const q = quality === 'low' || quality === 'medium' ? quality : 'high';
  const shape = width > height * 1.2 ? '1536x1024' : height > width * 1.2 ? '1024x1536' : '1024x1024';
  return IMAGE_OUTPUT_TOKENS[q][shape];
}

export interface ImageTokens {
  imageTextInputTokens?: number;
  imageInputTokens?: number;
  imageOutputTokens?: number;
  images: number;
}

/** Cost of image-model usage: by tokens when they are known, else `perImage`; undefined when the model has no price. */
export function imageCost(u: ImageTokens, imageModel: string, prices: PriceTable = DEFAULT_PRICES): number | undefined {
  if (u.images <= 0 && !u.imageOutputTokens) return 0;
  const p = prices[imageModel];
  if (!p) return undefined;
  if (u.imageOutputTokens && p.imageOutputPerMTok !== undefined) {
    const text = (u.imageTextInputTokens ?? 0) * (p.inputPerMTok ?? 0);
    const images = (u.imageInputTokens ?? 0) * (p.imageInputPerMTok ?? p.inputPerMTok ?? 0);
    return (text + images + u.imageOutputTokens * p.imageOutputPerMTok) / 1e6;
  }
  return p.perImage === undefined ? undefined : u.images * p.perImage;
}

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
  if (usage.images > 0 || usage.imageOutputTokens) {
    const c = imageCost(usage, models.imageModel, prices);
    if (c === undefined) return undefined;
    cost += c;
  }
  if (opts.batch) cost *= BATCH_DISCOUNT;
  return Math.round(cost * 1e6) / 1e6;
}
