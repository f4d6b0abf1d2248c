/**
 * The analysis of a review (`teamfusion analyze`, the `analyze` question): one function for the CLI, the MCP server and
 * VS Code. A design review: Kendall's W with its band and p, weighted Borda and Schulze, the outlier, the contested options
 * (analyzeReview), plus the criteria when criteria.json is there. A brief review: the comments and no agreement.
 * Never sends anything.
 */
import type { Diagnostic } from '../diagnostics/diagnostics';
import { hasErrors } from '../diagnostics/diagnostics';
import { loadReview } from '../review/loadReview';
import { analyzeReview, formatAnalysisTable, type AnalyzeOptions } from '../stats';
import { criteriaSummary } from '../criteria/summary';

export interface AnalyzeOutcome {
  /** The review's diagnostics (warnings too, on success). */
  diagnostics: Diagnostic[];
  /** When there is no analysis: the review has errors (`invalid`), or a sentence says why. */
  failure?: 'invalid' | string;
  /** The object `analyze --json` prints. */
  json?: Record<string, unknown>;
  /** The lines `analyze` prints without --json. */
  lines?: string[];
}

export async function analyzeFolder(folder: string, opts: AnalyzeOptions = {}): Promise<AnalyzeOutcome> {
  const { review, diagnostics } = await loadReview(folder, { requireRankings: true });
  if (!review || hasErrors(diagnostics)) return { diagnostics, failure: 'invalid' };
  if (review.designers.length === 0 && review.comments.length > 0) {
    // A brief review: nothing to rank, so no agreement statistics; the team's comments are reported instead.
    const comments = review.comments.map((c) => ({
      designer: c.designer,
      name: c.name,
      ...(c.role ? { role: c.role } : {}),
      weight: c.weight,
      words: wordCount(c.body),
      file: c.file,
    }));
    const briefCriteria = await criteriaSummary(review);
    const { lines: briefCriteriaLines, ...briefCriteriaJson } = briefCriteria ?? { lines: [] as string[] };
    const json = {
      task: 'brief',
      options: [],
      designers: [],
      comments,
      kendall: null,
      borda: [],
      ...(briefCriteria ? { criteria: briefCriteriaJson } : {}),
    };
    // One row per member, the id and name columns padded to their widest entry so the word counts line up.
    const named = comments.map((c) => ({ ...c, shown: `${c.name}${c.role ? ` (${c.role})` : ''}` }));
    const idWidth = Math.max(...comments.map((c) => c.designer.length));
    const nameWidth = Math.max(...named.map((c) => c.shown.length));
    const wordsWidth = Math.max(...comments.map((c) => String(c.words).length));
    const lines = [
      `A brief review: ${comments.length} comment${comments.length === 1 ? '' : 's'} on the brief and no rankings, so there is no agreement to analyse.`,
      ...named.map((c) => `  ${c.designer.padEnd(idWidth)}  ${c.shown.padEnd(nameWidth)}  ${String(c.words).padStart(wordsWidth)} words`),
      `Run it with: teamfusion run ${folder} --task brief`,
      ...briefCriteriaLines,
    ];
    return { diagnostics, json, lines };
  }
  if (review.designers.length < 2)
    return { diagnostics, failure: `agreement needs rankings from two or more designers; found ${review.designers.length}.` };
  const analysis = analyzeReview(review, opts);
  // The team's criteria (teamfusion criteria), when criteria.json is there: shown when current, said when out of date.
  const criteria = await criteriaSummary(review);
  const { lines: criteriaLines, ...criteriaJson } = criteria ?? { lines: [] as string[] };
  return {
    diagnostics,
    json: (criteria ? { ...analysis, criteria: criteriaJson } : analysis) as unknown as Record<string, unknown>,
    lines: [formatAnalysisTable(analysis).replace(/\n+$/, ''), ...criteriaLines],
  };
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
