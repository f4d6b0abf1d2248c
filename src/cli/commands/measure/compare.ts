/**
 * `teamfusion compare <review> <run-id> [--json]`: did the run help? Agreement before and after (blind re-ranking), the
 * paired change with a calibrated verdict, acceptance of the generated options, ratings and survey. A brief run: the
 * blind pair's preference counts with a sign test, the survey beside the study's, and coverage. Exit 0 with an
 * "after", 1 when it cannot be computed yet (what is missing is said) or when an evaluation file has an error (a warning —
 * something ignored, said on stderr — does not change the exit), 2 usage.
 */
import { briefComparisonSentences, compareBriefRun, compareRun } from '../../../core/evaluation';
import { taskOf } from '../../../core/record/record';
import { readRunRecord } from '../../../core/record/store';
import { comparisonSentences } from '../../../core/evaluation/format';
import { poolCheckSentences } from '../../../core/evaluation/checks/poolChecks';
import { printable } from '../../../core/kernel/text';
import { exactPositionals } from '../../usage';
import { safeJson } from '../../output';
import { parseStrict } from '../validate';
import { scriptedRunSentences } from '../../../core/evaluation/checks/scripted';
import { fidelitySentences } from '../../../core/forecast/fidelity';
import { authorshipSentences } from '../../../core/authorship/words';

/** A problem that stops the exit at 0: every one but a warning (what is ignored, said: an unknown field, a stray file). */
function isError(problem: string): boolean {
  return !/^[^\n]*?:\d+:\d+: warning: /.test(problem);
}

/** A scripted run's comparison opens with the sentence saying so. */
function scriptedLine(c: { scripted?: true; scriptedParts?: string }): string[] {
  return scriptedRunSentences(c);
}

export async function runCompare(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, { json: { type: 'boolean' } });
  const [review, runId] = exactPositionals(
    positionals,
    2,
    'give the review folder and the run id, e.g. teamfusion compare samples/lumen-perfume 2026-11-21T22-40-05Z-3f9c',
  );
  const record = await readRunRecord(review, runId);
  if (taskOf(record) === 'brief') {
    // A brief run: the blind pair's preference counts, the survey and coverage; exit 0 once the counts can be given.
    const b = await compareBriefRun(review, record);
    for (const p of b.problems) process.stderr.write(`${printable(p)}\n`);
    if (values.json === true) process.stdout.write(`${safeJson(b)}\n`);
    // What is missing is a problem, said once, on stderr (the sentences only say "not yet").
    else
      process.stdout.write(
        `${[...scriptedLine(b), ...briefComparisonSentences({ ...b, note: null }), ...fidelitySentences(b.fidelity, b.fidelityNote), ...authorshipSentences(b.authorship, { quietWithoutEmails: true })].map(printable).join('\n')}\n`,
      );
    if (!b.preference) process.stderr.write(`teamfusion compare: ${printable(b.note ?? 'no preference counts yet.')}\n`);
    return b.preference && !b.problems.some(isError) ? 0 : 1;
  }
  const c = await compareRun(review, runId);
  for (const p of c.problems) process.stderr.write(`${printable(p)}\n`);
  if (values.json === true) process.stdout.write(`${safeJson(c)}\n`);
  else
    process.stdout.write(
      `${[...scriptedLine(c), ...comparisonSentences({ ...c, missing: null }), ...poolCheckSentences(c), ...fidelitySentences(c.fidelity, c.fidelityNote), ...authorshipSentences(c.authorship, { quietWithoutEmails: true })].map(printable).join('\n')}\n`,
    );
  if (!c.after) process.stderr.write(`teamfusion compare: ${printable(c.missing ?? 'nothing to compare yet.')}\n`);
  return c.after && !c.problems.some(isError) ? 0 : 1;
}
