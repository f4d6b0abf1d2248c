/**
 * `teamfusion validate <review>` (contract §3): one line per problem on stdout,
 * `<path relative to review>:<line>:<col>: error|warning: <message>`; then one line: "valid — …" on stdout, or the count
 * of errors on stderr.
 * Exit 0 valid (warnings allowed), 1 errors (a review path that does not exist is an error diagnostic `.:0:0`),
 * 2 usage (missing or extra argument, unknown option).
 */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { hasErrors } from '../../core/review';
import { validateFolder, validSummary } from '../../core/questions/validate';
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
  const [target] = exactPositionals(positionals, 1, (given) =>
    given === 0 ? 'give the review folder to check, e.g. teamfusion validate samples/lumen-perfume' : 'give exactly one review folder.',
  );
  // The same function answers the `validate` question of `teamfusion mcp` and VS Code (core/questions).
  const { review, diagnostics, authorship: report } = await validateFolder(target);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  if (values.json === true) {
    const valid = !hasErrors(diagnostics) && review !== undefined;
    process.stdout.write(`${safeJson({ review: target, valid, errors, warnings, diagnostics, authorship: report })}\n`);
    return valid ? 0 : 1;
  }
  for (const d of diagnostics) writeDiagnostic(process.stdout, d);
  // Said on stderr: the files not counted are already warnings above; a check asked for (e-mails named) that cannot be made is said here.
  for (const line of authorshipSentences(report, { quietWithoutEmails: true })) process.stderr.write(`${printable(line)}\n`);
  if (hasErrors(diagnostics) || !review) {
    process.stderr.write(
      `${printable(target)}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.\n`,
    );
    return 1;
  }
  // Success is not a problem: it goes to stdout (the summary of errors above goes to stderr).
  process.stdout.write(
    `${printable(target)}: valid — ${validSummary(review)}` +
      `${warnings > 0 ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}.\n`,
  );
  return 0;
}
