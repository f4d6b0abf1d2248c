/**
 * `analyzeReview`: the whole agreement analysis of a review (the `analyze --json` object of the contract,
 * plus extras). Nothing is rounded; printing decides the precision.
 */
import type { Review } from '../../review/model';
import { bordaCount, type BordaEntry } from '../election/borda';
import { schulzeSummary, type SchulzeSummary } from '../election/consensus';
import { agreementBand, kendallW, type AgreementBand } from '../agreement/kendallW';
import { permutationPValue, resolvePermutationOptions } from '../agreement/permutation';
import { summarizeOptions, type OptionSummary } from '../election/perOption';
import { averageRankMatrix } from '../ranks';
import { agreementSentence } from './sentence';
import { lowestMeanTau, tauBMatrix } from '../agreement/tauB';

export interface AnalysisDesigner {
  id: string;
  name: string;
  weight: number;
  role?: string;
}

export interface KendallSummary {
  /** Tie-corrected W. */
  w: number;
  wUncorrected: number;
  /** m (n − 1) W. */
  chiSquare: number;
  df: number;
  /** Upper tail of chi-square(df). */
  pValue: number;
  /** Seeded Monte Carlo permutation p-value. */
  pPermutation: number;
  permutations: number;
  seed: number;
  band: AgreementBand;
  /** One plain sentence, e.g. "Agreement is fair and not significant (W = 0.31, p = 0.21)." */
  sentence: string;
}

export interface Analysis {
  /** Option ids in review order. */
  options: string[];
  /** Designers in review order. */
  designers: AnalysisDesigner[];
  kendall: KendallSummary;
  /** Unweighted Borda consensus, best first. */
  borda: BordaEntry[];
  /** Borda with each designer's points multiplied by the designer's weight. */
  weightedBorda: BordaEntry[];
  /** Schulze order of the same rankings, designers counted with their weights, beside the weighted Borda order. */
  schulze: SchulzeSummary;
  /** Kendall's tau-b between designers (ids in review order); symmetric, 1 on the diagonal. */
  pairwise: { designers: string[]; tau: number[][] };
  perOption: OptionSummary[];
  /** Designer id with the lowest mean tau-b to the others; null with fewer than 3 designers or nobody standing out. */
  outlier: { designer: string; meanTau: number } | null;
}

export interface AnalyzeOptions {
  /** Monte Carlo permutations (default 10,000). */
  permutations?: number;
  /** Generator seed (default 20261121). */
  seed?: number;
}

/**
 * Rank matrix of a review: one row per designer (review order), one column per option (review order), ranks
 * as written. Throws an Error with a plain sentence when a designer has not ranked some option (loadReview
 * reports that as a diagnostic, so a loaded review never triggers it).
 */
export function reviewRankMatrix(review: Review): number[][] {
  return review.designers.map((d) => {
    const byOption = new Map<string, number>();
    for (const e of d.entries) byOption.set(e.option, e.rank);
    return review.options.map((o) => {
      const rank = byOption.get(o.id);
      if (rank === undefined) throw new Error(`${d.name} has not ranked option "${o.id}" (${d.file}).`);
      return rank;
    });
  });
}

export function analyzeReview(review: Review, opts: AnalyzeOptions = {}): Analysis {
  const { permutations, seed } = resolvePermutationOptions(opts);
  if (review.designers.length < 1) throw new Error('The review has no rankings yet, so there is nothing to analyse.');
  if (review.options.length < 2) throw new Error('The review needs at least two options to analyse agreement.');
  const options = review.options.map((o) => o.id);
  const ranks = reviewRankMatrix(review);
  const avg = averageRankMatrix(ranks);

  const k = kendallW(ranks);
  const perm = permutationPValue(avg, { permutations, seed });
  const band = agreementBand(k.w);
  const tau = tauBMatrix(avg);
  const low = lowestMeanTau(tau);
  const designerIds = review.designers.map((d) => d.id);
  const weights = review.designers.map((d) => d.weight);

  return {
    options,
    designers: review.designers.map((d) => {
      const out: AnalysisDesigner = { id: d.id, name: d.name, weight: d.weight };
      if (d.role !== undefined) out.role = d.role;
      return out;
    }),
    kendall: {
      w: k.w,
      wUncorrected: k.wUncorrected,
      chiSquare: k.chiSquare,
      df: k.df,
      pValue: k.pValue,
      pPermutation: perm.pValue,
      permutations,
      seed,
      band,
      sentence: agreementSentence({ w: k.w, band, p: perm.pValue, raters: k.m }),
    },
    borda: bordaCount(avg, options),
    weightedBorda: bordaCount(avg, options, weights),
    schulze: schulzeSummary(avg, options, weights),
    pairwise: { designers: designerIds, tau },
    perOption: summarizeOptions(avg, options),
    outlier: low ? { designer: designerIds[low.index]!, meanTau: low.meanTau } : null,
  };
}
