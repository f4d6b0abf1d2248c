/**
 * `teamfusion import <spreadsheet.csv> <review> [--force]`: one ranking file per CSV row in <review>/rankings/.
 * Written/skipped files on stdout, diagnostics (`<csv>:<line>:<column>: …`) on stderr.
 * Exit 0 when there is no error (skipped existing files are warnings), 1 on errors (then nothing is written), 2 usage.
 * The CSV format is described at the top of src/core/rankings/csvImport.ts.
 */
import { promises as fs } from 'node:fs';
import { hasErrors, importRankingsCsv } from '../../core/review';
import { writeDiagnostic, writeLine } from '../output';
import { exactPositionals } from '../usage';
import { parseStrict } from './validate';

export async function runImport(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, { force: { type: 'boolean' } });
  const [csv, review] = exactPositionals(
    positionals,
    2,
    'give the CSV file and the review folder, e.g. teamfusion import rankings.csv samples/lumen-perfume',
  );
  try {
    if (!(await fs.stat(review)).isDirectory()) throw new Error('not a folder');
  } catch {
    writeDiagnostic(process.stderr, {
      file: '.',
      line: 0,
      column: 0,
      severity: 'error',
      message: `The review folder ${review} does not exist.`,
    });
    return 1;
  }
  const result = await importRankingsCsv(csv, review, { force: values.force === true });
  for (const d of result.diagnostics) writeDiagnostic(process.stderr, d);
  for (const f of result.written) writeLine(process.stdout, `wrote ${f}`);
  for (const f of result.skipped) writeLine(process.stdout, `skipped ${f} (exists; --force replaces it)`);
  return hasErrors(result.diagnostics) ? 1 : 0;
}
