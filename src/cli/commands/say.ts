/**
 * `teamfusion say <review> <run-id> --as <designer-id> <text…>`: a designer speaks in a run — running (taken in by the
 * process that drives it at its next turn), waiting, failed or cancelled (written into run.json now). "/pass" at the
 * person's own turn lets their proxy speak it. Exit 0 accepted, 1 refused (completed run, unknown designer, empty text,
 * an @mention of nobody), 2 usage.
 */
import * as path from 'node:path';
import { printable } from '../../core/files/reviewFiles';
import { PeopleInputError, submitSay } from '../../core/run/people/submit';
import { UsageError } from '../usage';
import { parseStrict } from './validate';

export async function runSay(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, { as: { type: 'string' } });
  if (positionals.length < 2) {
    throw new UsageError('give the review folder, the run id and the message, e.g. teamfusion say samples/lumen-perfume <run-id> --as ana "Keep the serif"');
  }
  if (typeof values.as !== 'string' || !values.as.trim()) throw new UsageError('say who speaks with --as <designer-id>.');
  const [review, runId, ...words] = positionals as [string, string, ...string[]];
  try {
    const r = await submitSay({ reviewRoot: path.resolve(review), runId, as: values.as.trim(), text: words.join(' '), onNote: (line) => process.stderr.write(`${printable(line)}\n`) });
    const where = r.applied
      ? `recorded in run ${runId} as ${r.message?.id}${r.message?.turn ? ` (turn ${r.message.turn})` : ''}`
      : `sent to run ${runId}; the process running it takes it in at the next turn`;
    process.stderr.write(`${printable(values.as.trim())}: ${where}.\n`);
    if (r.record.status === 'waiting' || r.record.status === 'failed' || r.record.status === 'cancelled') {
      process.stderr.write(`Go on with: teamfusion run ${review} --resume ${runId}\n`);
    }
    return 0;
  } catch (err) {
    if (err instanceof PeopleInputError) {
      process.stderr.write(`teamfusion say: ${printable(err.message)}\n`);
      return 1;
    }
    throw err;
  }
}
