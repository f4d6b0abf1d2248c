/**
 * Pure definitions of the evaluation's numbers (no file access): acceptance of the generated options in the blind
 * re-ranking, ratings of proxy commentary, survey means. A missing value is null, never 0.
 */
import { bordaCount } from '../../stats/election/borda';
import { averageRankMatrix } from '../../stats/ranks';
import type { DesignerRatings, SurveyAnswer, SurveyQuestion } from '../evaluate/feedback';
import { SURVEY_QUESTIONS } from '../evaluate/feedback';
import type { RerankKey } from '../../rerank/key';
import { meanOrNull } from '../../stats/mean';

export interface Acceptance {
  /** Letters, best first (unweighted Borda of the re-rankings; equal points keep letter order). */
  ranking: string[];
  /** Shared positions (1-based) of `ranking`, ties share a position. */
  positions: number[];
  /** Letters that are remixes, in ranking order. */
  generated: string[];
  /** A generated option is at position 1 / within the first two positions. */
  top1: boolean;
  top2: boolean;
  bestGenerated: { letter: string; id: string; position: number } | null;
}

/** `ranks`: one row per re-ranker, one column per letter in `letters` order. */
export function acceptance(ranks: readonly (readonly number[])[], letters: readonly string[], key: RerankKey): Acceptance {
  const borda = bordaCount(averageRankMatrix(ranks), letters);
  const generated = borda.filter((b) => key[b.option]?.kind === 'remix');
  const best = generated[0];
  return {
    ranking: borda.map((b) => b.option),
    positions: borda.map((b) => b.position),
    generated: generated.map((b) => b.option),
    top1: generated.some((b) => b.position === 1),
    top2: generated.some((b) => b.position <= 2),
    bestGenerated: best ? { letter: best.option, id: key[best.option]!.id, position: best.position } : null,
  };
}

export interface RatingsSummary {
  n: number;
  mean: number | null;
  /** Sample SD (n − 1); null below two ratings. */
  sd: number | null;
  /** Share of scores 4 or 5. */
  positiveShare: number | null;
  byDesigner: Record<string, { n: number; mean: number }>;
  /** The lowest designer mean and whose it is. */
  lowestDesigner: { designer: string; mean: number } | null;
  /** How many ratings gave each score: index 0 = score 1 … index 4 = score 5. */
  distribution: [number, number, number, number, number];
}

function sampleSd(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const m = meanOrNull(xs)!;
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) * (x - m), 0) / (xs.length - 1));
}

export function summarizeRatings(files: readonly DesignerRatings[]): RatingsSummary {
  const scores = files.flatMap((f) => f.ratings.map((r) => r.score));
  const byDesigner: Record<string, { n: number; mean: number }> = {};
  let lowest: { designer: string; mean: number } | null = null;
  for (const f of files) {
    const m = meanOrNull(f.ratings.map((r) => r.score));
    if (m === null) continue;
    byDesigner[f.designer] = { n: f.ratings.length, mean: m };
    if (!lowest || m < lowest.mean) lowest = { designer: f.designer, mean: m };
  }
  const distribution: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  for (const s of scores) distribution[s - 1]!++;
  return {
    n: scores.length,
    mean: meanOrNull(scores),
    sd: sampleSd(scores),
    positiveShare: scores.length ? scores.filter((s) => s >= 4).length / scores.length : null,
    byDesigner,
    lowestDesigner: lowest,
    distribution,
  };
}

export type SurveySummary = { n: number } & Record<SurveyQuestion, number | null> & { answered: Record<SurveyQuestion, number> };

/** Means over the designers who answered each question; n = designers with a survey file; `answered` per question. */
export function summarizeSurvey(answers: readonly SurveyAnswer[]): SurveySummary {
  const out = { n: answers.length, answered: {} } as SurveySummary;
  for (const q of SURVEY_QUESTIONS) {
    const xs = answers.flatMap((a) => (a[q] === undefined ? [] : [a[q]!]));
    out[q] = meanOrNull(xs);
    out.answered[q] = xs.length;
  }
  return out;
}
