/**
 * `teamfusion vote <review> <run-id> --as <id> [--iteration <k>] <decision-point> <choice>` and
 * `teamfusion vote <review> <run-id> --as <lead> --close [--iteration <k>] <decision-point> [<choice>]` (contract §7): a
 * member's vote on a fork (the fork's remix id or letter), kept in runs/<run-id>/votes/<id>.yaml; when every member has
 * voted, or the lead closes, the decision goes into that fork round's `decisions`. Exit 0 done, 1 refused, 2 usage.
 */
import * as path from 'node:path';
import { printable } from '../../core/kernel/text';
import { castVote, VoteError } from '../../core/evaluation/votes/cast';
import { RunRecordError } from '../../core/record/store';
import { UsageError } from '../usage';
import { parseStrict } from './validate';

export async function runVote(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, { as: { type: 'string' }, iteration: { type: 'string' }, close: { type: 'boolean' } });
  const close = values.close === true;
  const [review, runId, pointText, choice] = positionals;
  if (review === undefined || runId === undefined || pointText === undefined || positionals.length > 4 || (choice === undefined && !close)) {
    throw new UsageError('give the review folder, the run id, the decision point and your choice, e.g. teamfusion vote samples/lumen-perfume <run-id> --as ana 1 r1a');
  }
  if (typeof values.as !== 'string' || values.as.trim() === '') throw new UsageError('--as needs your designer id: each member votes only as themselves.');
  const point = wholeNumber('decision point', pointText);
  const iteration = values.iteration === undefined ? undefined : wholeNumber('--iteration', String(values.iteration));
  try {
    const r = await castVote({
      reviewRoot: path.resolve(review),
      runId,
      as: values.as.trim(),
      ...(iteration !== undefined ? { iteration } : {}),
      decisionPoint: point,
      ...(choice !== undefined ? { choice } : {}),
      close,
    });
    if (r.file) process.stderr.write(`Vote saved (${printable(r.file)}).\n`);
    process.stderr.write(`${printable(r.note)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof VoteError || err instanceof RunRecordError) {
      process.stderr.write(`teamfusion vote: ${printable(err.message)}\n`);
      return 1;
    }
    throw err;
  }
}

function wholeNumber(what: string, raw: string): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw new UsageError(`${what} must be a whole number of 1 or more (found "${raw}").`);
  return Number(raw);
}
