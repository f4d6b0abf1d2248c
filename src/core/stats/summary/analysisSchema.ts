/**
 * zod schema of the Analysis object, for consumers that receive it across a boundary (a webview message, a
 * JSON file written by `analyze --json`). `analyzeReview` itself produces it directly.
 */
import * as z from 'zod';

const bordaEntry = z.object({ option: z.string(), points: z.number(), position: z.number().int().min(1) });

export const analysisSchema = z.object({
  options: z.array(z.string()),
  designers: z.array(z.object({ id: z.string(), name: z.string(), weight: z.number().positive(), role: z.string().optional() })),
  kendall: z.object({
    w: z.number(),
    wUncorrected: z.number(),
    chiSquare: z.number(),
    df: z.number().int(),
    pValue: z.number().min(0).max(1),
    pPermutation: z.number().min(0).max(1),
    permutations: z.number().int().min(1),
    seed: z.number().int(),
    band: z.enum(['slight', 'fair', 'moderate', 'substantial', 'almost-perfect']),
    sentence: z.string(),
  }),
  borda: z.array(bordaEntry),
  weightedBorda: z.array(bordaEntry),
  schulze: z
    .object({
      ranking: z.array(z.array(z.string())),
      winners: z.array(z.string()),
      differsFromBorda: z.boolean(),
      condorcetWinner: z.string().nullable(),
      sentence: z.string().nullable(),
    })
    .optional(), // an analysis made before Schulze was added has none
  pairwise: z.object({ designers: z.array(z.string()), tau: z.array(z.array(z.number())) }),
  perOption: z.array(
    z.object({
      option: z.string(),
      meanRank: z.number(),
      sd: z.number(),
      min: z.number(),
      max: z.number(),
      contested: z.boolean(),
    }),
  ),
  outlier: z.object({ designer: z.string(), meanTau: z.number() }).nullable(),
});
