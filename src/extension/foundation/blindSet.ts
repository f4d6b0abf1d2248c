/**
 * A run's blind re-rank set (runs/<run-id>/rerank) belongs to its run (issue 40): it is an ordinary review folder on disk,
 * but the Reviews view lists it under its run as the run's re-rank step ("Blind re-rank: 1 of 4 ranked"), not as a second
 * review, and a set nobody has ranked yet is the normal state of one just made, not an error. No `vscode` import: the
 * tree (reviewsTree.ts), the Problems list (liveDiagnostics.ts) and the panel's state read these and are tested through them.
 */
import * as path from 'node:path';
import { blindSetOf } from '../../protocol/candidateNames';

export interface BlindSetRef {
  /** The blind set's own folder. */
  root: string;
  /** The review it was made from. */
  reviewRoot: string;
  runId: string;
}

/** The blind set a review folder is (runs/<run-id>/rerank of the review three levels up), else undefined. */
export function blindSetRef(root: string): BlindSetRef | undefined {
  const runId = blindSetOf(root);
  return runId ? { root, runId, reviewRoot: path.dirname(path.dirname(path.dirname(path.resolve(root)))) } : undefined;
}

/** The key of a run, for finding its blind set. */
export const runKey = (reviewRoot: string, runId: string): string => `${path.resolve(reviewRoot)}\n${runId}`;

/**
 * The review folders the view lists at the top (in the order found), and the blind sets it lists under their runs
 * (by runKey). A blind set whose review is not among `roots` stays a review of its own: nothing else would show it.
 */
export function placeBlindSets(roots: readonly string[]): { reviews: string[]; blindSets: Map<string, string> } {
  const listed = new Set(roots.map((r) => path.resolve(r)));
  const reviews: string[] = [];
  const blindSets = new Map<string, string>();
  for (const root of roots) {
    const ref = blindSetRef(root);
    if (ref && listed.has(ref.reviewRoot)) blindSets.set(runKey(ref.reviewRoot, ref.runId), root);
    else reviews.push(root);
  }
  return { reviews, blindSets };
}

/** "Blind re-rank: 1 of 4 ranked" (`team`: the review's designers, who each rank the set once). */
export function rerankStepLabel(ranked: number, team: number): string {
  return `Blind re-rank: ${ranked} of ${Math.max(team, ranked)} ranked`;
}

/** The step's tooltip: what it is, who has ranked, and where it lives. */
export function rerankStepTooltip(runId: string, ranked: readonly string[], waiting: readonly string[], folder: string): string {
  return [
    `The blind re-rank step of run ${runId}: each designer ranks the run's final candidates under letters.`,
    ranked.length ? `Ranked: ${ranked.join(', ')}.` : 'Nobody has ranked it yet.',
    waiting.length ? `Waiting for ${waiting.join(', ')}.` : '',
    folder,
  ]
    .filter(Boolean)
    .join('\n');
}

/** A review with no ranking yet: an error for a review, the normal state of a blind set just made. */
const NOT_RANKED_YET = /has no ranking files yet/;

/** A blind set's diagnostics without "rankings/ has no ranking files yet"; any other review's as they are. */
export function blindSetDiagnostics<T extends { message: string }>(root: string, diagnostics: readonly T[]): T[] {
  return blindSetOf(root) ? diagnostics.filter((d) => !NOT_RANKED_YET.test(d.message)) : [...diagnostics];
}
