/**
 * `teamfusion compare <review> <run-id> [--json]`: Kendall's W of the team before the run and after it (the
 * re-rankings in runs/<run-id>/rerank/). Exit 0 (also while waiting for re-rankings), 1 invalid input, 2 usage.
 */
import * as path from 'node:path';
import { compareAgreement, formatAgreementLine, verdictWords, type AgreementSide } from '../../core/rerank';
import { bandWords, formatP } from '../../core/stats/sentence';
import { UsageError } from '../usage';
import { parseStrict } from './validate';


function sideLine(label: string, s: AgreementSide): string {
  return `${label}W = ${s.w.toFixed(2)} (${bandWords(s.band)}), p ${formatP(s.pPermutation)} (permutation), p ${formatP(s.pValue)} (chi-square); ${s.designers} designers, ${s.options} options`;
}

export async function runCompare(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, { json: { type: 'boolean' } });
  if (positionals.length !== 2) {
    throw new UsageError('give the review folder and the run id, e.g. teamfusion compare samples/lumen-perfume 2026-11-21T22-40-05Z-3f9c');
  }
  const [review, runId] = positionals;
  const c = await compareAgreement(review, runId);
  if (values.json === true) {
    const { rerankExists: _exists, ...rest } = c;
    void _exists;
    process.stdout.write(`${JSON.stringify({ ...rest, rerankDir: path.relative(path.resolve(review), c.rerankDir).split(path.sep).join('/'), verdict: verdictWords(c) }, null, 2)}\n`);
    return 0;
  }
  const lines = [formatAgreementLine(c), sideLine('Before: ', c.before)];
  if (c.after) lines.push(sideLine('After:  ', c.after));
  else if (!c.rerankExists) lines.push(`No re-ranking yet: teamfusion rerank ${review} ${runId}`);
  if (c.waiting) lines.push(`Note: ${c.waiting}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
