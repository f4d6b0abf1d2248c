/**
 * `teamfusion import <spreadsheet.csv> <review> [--force]`: one ranking file per CSV row in <review>/rankings/.
 * Written/skipped files on stdout, diagnostics (`<csv>:<line>:<column>: …`) on stderr.
 * Exit 0 when there is no error (skipped existing files are warnings), 1 on errors (then nothing is written), 2 usage.
 * The CSV format is described at the top of src/core/review/csvImport.ts.
 */
import { promises as fs } from 'node:fs';
import { formatDiagnostic, hasErrors, importRankingsCsv } from '../../core/review';
import { UsageError } from '../usage';
import { parseStrict } from './validate';

export async function runImport(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, { force: { type: 'boolean' } });
  if (positionals.length !== 2) {
    throw new UsageError('give the CSV file and the review folder, e.g. teamfusion import rankings.csv samples/lumen-perfume');
  }
  const [csv, review] = positionals;
  try {
    if (!(await fs.stat(review)).isDirectory()) throw new Error('not a folder');
  } catch {
    process.stderr.write(`${formatDiagnostic({ file: '.', line: 0, column: 0, severity: 'error', message: `The review folder ${review} does not exist.` })}\n`);
    return 1;
  }
  const result = await importRankingsCsv(csv, review, { force: values.force === true });
  for (const d of result.diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  for (const f of result.written) process.stdout.write(`wrote ${f}\n`);
  for (const f of result.skipped) process.stdout.write(`skipped ${f} (exists; --force replaces it)\n`);
  return hasErrors(result.diagnostics) ? 1 : 0;
}
