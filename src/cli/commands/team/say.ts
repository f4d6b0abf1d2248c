/**
 * `teamfusion say <review> <run-id> --as <designer-id> [--sync] <text…>`: a designer speaks in a run — the message becomes an
 * entry of the run's inbox, a file of that person only; the process that drives the run takes it in at its next turn, or,
 * when nobody drives it now (waiting, failed, cancelled), the next `run --resume` does. "/pass" at the
 * person's own turn lets their proxy speak it. `--sync`: through the team's git remote (cli/personSync.ts). Exit 0 accepted, 1 refused (completed run, unknown designer, empty text,
 * an @mention of nobody), 2 usage.
 */
import * as path from 'node:path';
import { printable } from '../../../core/kernel/text';
import { PeopleInputError, driverWords, submitSay } from '../../../core/people/submit';
import { UsageError } from '../../usage';
import { forkChoiceCheck } from '../../../core/fork/choice';
import { parseStrict } from '../validate';
import { personCommandExit, throughRemote } from '../../personSync';

export async function runSay(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, { as: { type: 'string' }, sync: { type: 'boolean' } });
  const [review, runId, ...words] = positionals;
  if (review === undefined || runId === undefined) {
    throw new UsageError(
      'give the review folder, the run id and the message, e.g. teamfusion say samples/lumen-perfume <run-id> --as ana "Keep the serif"',
    );
  }
  if (typeof values.as !== 'string' || !values.as.trim()) throw new UsageError('say who speaks with --as <designer-id>.');
  try {
    const root = path.resolve(review);
    const as = values.as.trim();
    const submit = () =>
      submitSay({
        reviewRoot: root,
        runId,
        as,
        text: words.join(' '),
        checkAnswer: forkChoiceCheck,
        onNote: (line) => process.stderr.write(`${printable(line)}\n`),
      });
    const r = values.sync ? await throughRemote(root, 'say', `TeamFusion ${runId}: ${as} says`, submit) : await submit();
    const turn = r.message?.turn ? ` (it answers turn ${r.message.turn})` : '';
    const where = values.sync
      ? `sent to run ${runId} as ${r.file}${turn}; the process driving it takes it in after its next pull`
      : r.driven
        ? `sent to run ${runId}; ${driverWords(r, runId)}`
        : `sent to run ${runId} as ${r.file}${turn}; nobody drives the run now, so it is taken in when the run goes on`;
    // Typed here for another member (issue 39): kept and shown as typed on this machine for them, never as their own words.
    const who = r.typed !== undefined ? `${capitalized(r.typed)} (never shown as their own words)` : values.as.trim();
    process.stderr.write(`${printable(who)}: ${where}.\n`);
    if (!values.sync && !r.driven) process.stderr.write(`Go on with: teamfusion run ${review} --resume ${runId}\n`);
    return 0;
  } catch (err) {
    return personCommandExit('say', err, [PeopleInputError]);
  }
}

function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
