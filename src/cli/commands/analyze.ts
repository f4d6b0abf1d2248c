/**
 * `teamfusion analyze <review> [--json] [--permutations N] [--seed N]` (contract §3): agreement analysis without any model.
 * `--permutations` / `--seed` set the Monte Carlo permutation test (defaults 10,000 and a fixed seed: reproducible).
 * Invalid review → its diagnostics on stderr, exit 1. `--json` prints one JSON object (2-space indented).
 */
import { analyzeReview, formatAnalysisTable } from '../../core/stats';
import { hasErrors, loadReview } from '../../core/review';
import { printable, printableLines, safeJson, writeDiagnostic } from '../output';
import { UsageError, exactPositionals } from '../usage';
import { parseStrict } from './validate';
import { criteriaSummary } from '../../core/criteria/summary';

export async function runAnalyze(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, {
    json: { type: 'boolean' },
    permutations: { type: 'string' },
    seed: { type: 'string' },
  });
  const permutations = wholeNumberFlag('permutations', values.permutations, 1, 10_000_000);
  const seed = wholeNumberFlag('seed', values.seed, 0, 0xffffffff);
  const [folder] = exactPositionals(positionals, 1, (given) => (given === 0 ? 'give the review folder to analyse, e.g. teamfusion analyze samples/lumen-perfume' : 'give exactly one review folder.'));
  const { review, diagnostics } = await loadReview(folder, { requireRankings: true });
  for (const d of diagnostics) writeDiagnostic(process.stderr, d);
  if (!review || hasErrors(diagnostics)) {
    process.stderr.write(`${printable(folder)}: fix the errors above, then analyse again (teamfusion validate shows them too).\n`);
    return 1;
  }
  if (review.designers.length === 0 && review.comments.length > 0) {
    // A brief review: nothing to rank, so no agreement statistics; the team's comments are reported instead.
    const comments = review.comments.map((c) => ({ designer: c.designer, name: c.name, ...(c.role ? { role: c.role } : {}), weight: c.weight, words: wordCount(c.body), file: c.file }));
    const briefCriteria = await criteriaSummary(review);
    const { lines: briefCriteriaLines, ...briefCriteriaJson } = briefCriteria ?? { lines: [] as string[] };
    if (values.json === true) {
      process.stdout.write(`${safeJson({ task: 'brief', options: [], designers: [], comments, kendall: null, borda: [], ...(briefCriteria ? { criteria: briefCriteriaJson } : {}) })}\n`);
    } else {
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
      process.stdout.write(`${printableLines(lines.join('\n'))}\n`);
    }
    return 0;
  }
  if (review.designers.length < 2) {
    process.stderr.write(`${printable(folder)}: agreement needs rankings from two or more designers; found ${review.designers.length}.\n`);
    return 1;
  }
  const analysis = analyzeReview(review, { permutations, seed });
  // The team's criteria (teamfusion criteria), when criteria.json is there: shown when current, said when out of date.
  const criteria = await criteriaSummary(review);
  const { lines: criteriaLines, ...criteriaJson } = criteria ?? { lines: [] as string[] };
  process.stdout.write(
    values.json === true
      ? `${safeJson(criteria ? { ...analysis, criteria: criteriaJson } : analysis)}\n`
      : `${printableLines([formatAnalysisTable(analysis).replace(/\n+$/, ''), ...criteriaLines].join('\n'))}\n`,
  );
  return 0;
}

function wholeNumberFlag(name: string, raw: unknown, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw.trim()) || n < min || n > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (found "${String(raw)}").`);
  }
  return n;
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
