/**
 * `teamfusion validate <review>` (contract §3): one line per problem on stdout,
 * `<path relative to review>:<line>:<col>: error|warning: <message>`; then one line: "valid — …" on stdout, or the count
 * of errors on stderr.
 * Exit 0 valid (warnings allowed), 1 errors (a review path that does not exist is an error diagnostic `.:0:0`),
 * 2 usage (missing or extra argument, unknown option).
 */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { hasErrors, loadReview } from '../../core/review';
import { usualWayDiagnostics } from '../../core/evaluation/baseline';
import { printable, safeJson, writeDiagnostic } from '../output';
import { authorshipSentences } from '../../core/authorship/words';
import { UsageError, exactPositionals } from '../usage';

/** node:util parseArgs in strict mode; any mistake becomes a UsageError (exit 2). */
export function parseStrict(
  args: string[],
  options: NonNullable<ParseArgsConfig['options']> = {},
): { positionals: string[]; values: Record<string, string | boolean | (string | boolean)[] | undefined> } {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? (err.message.split(/(?<=\.) /)[0] ?? err.message) : String(err));
  }
}

export async function runValidate(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, { json: { type: 'boolean' } });
  const [target] = exactPositionals(positionals, 1, (given) => (given === 0 ? 'give the review folder to check, e.g. teamfusion validate samples/lumen-perfume' : 'give exactly one review folder.'));
  let { review, diagnostics, authorship } = await loadReview(target, { requireRankings: true });
  if (!review) {
    // A usual-way review (condition: usual) may have no rankings: the team decided without ranking first.
    const loose = await loadReview(target, { requireRankings: false });
    if (loose.review?.config.condition === 'usual') ({ review, diagnostics, authorship } = loose);
  }
  if (review?.config.condition === 'usual') diagnostics = [...diagnostics, ...(await usualWayDiagnostics(review.root, review.options.map((o) => o.id)))];
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const report = authorship?.report() ?? { checked: false, why: 'Who wrote each member\'s file could not be asked: the review could not be read.', notCounted: [] };
  if (values.json === true) {
    const valid = !hasErrors(diagnostics) && review !== undefined;
    process.stdout.write(`${safeJson({ review: target, valid, errors, warnings, diagnostics, authorship: report })}\n`);
    return valid ? 0 : 1;
  }
  for (const d of diagnostics) writeDiagnostic(process.stdout, d);
  // Said on stderr: the files not counted are already warnings above; a check asked for (e-mails named) that cannot be made is said here.
  for (const line of authorshipSentences(report, { quietWithoutEmails: true })) process.stderr.write(`${printable(line)}\n`);
  if (hasErrors(diagnostics) || !review) {
    process.stderr.write(`${printable(target)}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.\n`);
    return 1;
  }
  const parts = review.options.length > 0 || review.comments.length === 0
    ? [`${review.options.length} options`, `${review.designers.length} designer${review.designers.length === 1 ? '' : 's'}`]
    : [];
  if (review.comments.length > 0) parts.push(`${review.comments.length} comment${review.comments.length === 1 ? '' : 's'} on the brief`);
  // Success is not a problem: it goes to stdout (the summary of errors above goes to stderr).
  process.stdout.write(
    `${printable(target)}: valid — ${parts.join(', ')}` +
      `${warnings > 0 ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}.\n`,
  );
  return 0;
}
