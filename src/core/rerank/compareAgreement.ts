/**
 * compareAgreement: Kendall's W of the team before a run (the review's own rankings) and after it (the re-rankings of
 * the run's final candidates in runs/<run-id>/rerank/). Both sides come from analyzeReview, so the numbers are the ones
 * `teamfusion analyze` prints for each folder.
 */
import * as path from 'node:path';
import { pathExists } from '../fsUtil';
import { formatDiagnostic } from '../review/diagnostics';
import { loadReview } from '../review/loadReview';
import { readRunRecord } from '../run/store';
import { analyzeReview, type AnalyzeOptions } from '../stats/analysis';
import type { AgreementBand } from '../stats/kendallW';
import { rerankDir } from './paths';

export interface AgreementSide {
  w: number;
  band: AgreementBand;
  pValue: number;
  pPermutation: number;
  /** Designers whose rankings counted. */
  designers: number;
  /** Options ranked. */
  options: number;
}

export interface AgreementComparison {
  before: AgreementSide;
  /** Present when the re-ranking folder has at least two valid rankings. */
  after?: AgreementSide;
  /** W after > W before; present with `after`. */
  converged?: boolean;
  /** Absolute path of runs/<run-id>/rerank (it may not exist yet). */
  rerankDir: string;
  /** Whether the re-ranking folder exists. */
  rerankExists: boolean;
  /** Valid re-rankings found so far (0 when the folder is missing). */
  rerankings: number;
  /** Why there is no `after` although the folder exists (e.g. a ranking file with an error), in words. */
  waiting?: string;
}

function side(review: Parameters<typeof analyzeReview>[0], opts: AnalyzeOptions): AgreementSide {
  const k = analyzeReview(review, opts).kendall;
  return { w: k.w, band: k.band, pValue: k.pValue, pPermutation: k.pPermutation, designers: review.designers.length, options: review.options.length };
}

/**
 * Throws a plain sentence when the run does not exist or the parent review cannot be analysed (errors, fewer than two designers). Problems in the
 * re-ranking folder never throw: the comparison then waits, and says why in `waiting`.
 */
export async function compareAgreement(reviewRoot: string, runId: string, opts: AnalyzeOptions = {}): Promise<AgreementComparison> {
  const root = path.resolve(reviewRoot);
  const dir = rerankDir(root, runId);
  await readRunRecord(root, runId); // "There is no run …" for a mistyped id
  const parent = await loadReview(root, { requireRankings: true, decodeImages: false });
  if (!parent.review) {
    const first = parent.diagnostics.find((d) => d.severity === 'error');
    throw new Error(`The review cannot be analysed${first ? `: ${formatDiagnostic(first)}` : '.'}`);
  }
  if (parent.review.designers.length < 2) throw new Error(`Agreement needs rankings from two or more designers; the review has ${parent.review.designers.length}.`);
  const before = side(parent.review, opts);
  if (!(await pathExists(dir))) return { before, rerankDir: dir, rerankExists: false, rerankings: 0 };

  const after = await loadReview(dir, { requireRankings: true, decodeImages: false, partial: true });
  const valid = after.review?.designers.length ?? 0;
  const errors = after.diagnostics.filter((d) => d.severity === 'error');
  const out: AgreementComparison = { before, rerankDir: dir, rerankExists: true, rerankings: valid };
  if (after.review && valid >= 2) {
    out.after = side(after.review, opts);
    out.converged = out.after.w > before.w;
  }
  if (errors.length > 0) {
    out.waiting = `${errors.length} problem${errors.length === 1 ? '' : 's'} in the re-ranking folder (first: ${formatDiagnostic(errors[0])})`;
  }
  return out;
}
