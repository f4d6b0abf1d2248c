/**
 * Counts derived from the codes: per speaker (byDesigner), per round (Agrees vs Disagrees), and the "possibly too
 * compliant" flag. Pure functions; analysis.json stores their results so readers need not recompute them.
 */
import { AGREES, DISAGREES, categoryArea, type BalesArea } from './bales';
import type { BalesCode, RoundMix } from './schema';

/** A discussion whose coded messages are at least this share "Agrees" is flagged as possibly too compliant. */
export const COMPLIANT_SHARE = 0.8;
/** …provided at least this many messages are coded (a handful of messages says nothing). */
export const COMPLIANT_MIN_CODED = 5;

/** speaker → category number (as a string) → count; every speaker of `speakers` appears, even with nothing coded. */
export function byDesigner(codes: readonly BalesCode[], speakers: readonly string[] = []): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const s of speakers) out[s] ??= {};
  for (const c of codes) {
    const row = (out[c.speaker] ??= {});
    row[String(c.category)] = (row[String(c.category)] ?? 0) + 1;
  }
  return out;
}

export function roundMix(codes: readonly BalesCode[], iterations: readonly number[]): RoundMix[] {
  return iterations.map((iteration) => {
    const mine = codes.filter((c) => c.iteration === iteration);
    return {
      iteration,
      coded: mine.length,
      agrees: mine.filter((c) => c.category === AGREES).length,
      disagrees: mine.filter((c) => c.category === DISAGREES).length,
    };
  });
}

export function possiblyTooCompliant(codes: readonly BalesCode[]): boolean {
  if (codes.length < COMPLIANT_MIN_CODED) return false;
  return codes.filter((c) => c.category === AGREES).length / codes.length >= COMPLIANT_SHARE;
}

/** Counts per area (task answers, task questions, social positive, social negative, none) of one speaker's row. */
export function areaTotals(row: Record<string, number>): Record<BalesArea, number> {
  const out: Record<BalesArea, number> = { positive: 0, 'task-answer': 0, 'task-question': 0, negative: 0, none: 0 };
  for (const [k, n] of Object.entries(row)) out[categoryArea(Number(k))] += n;
  return out;
}
