/**
 * `teamfusion vote <review> <run-id> --as <id> [--iteration <k>] <decision-point> <choice>` and
 * `teamfusion vote <review> <run-id> --as <lead> --close [--iteration <k>] <decision-point> [<choice>]` (contract §7): a
 * member's vote on a fork (the fork's remix id or letter), kept in runs/<run-id>/votes/<id>.yaml; when every member has
 * voted, or the lead closes, the decision goes into that fork round's `decisions` (under `lead-decides`, the lead's close
 * with a choice is the lead deciding in person). `teamfusion vote <review> <run-id> --as <lead> --reopen [--iteration <k>]
 * <decision-point>`: the lead reopens a decision (kept as history, `reopened: { by, at }`). `--sync`: through the team's git remote, like say and pin
 * (cli/personSync.ts). Exit 0 done, 1 refused, 2 usage.
 */
import * as path from 'node:path';
import { printable } from '../../../core/kernel/text';
import { castVote, VoteError } from '../../../core/evaluation/votes/cast';
import { reopenDecision } from '../../../core/evaluation/votes/reopen';
import { RunRecordError } from '../../../core/diagnostics/diagnostics';
import { UsageError } from '../../usage';
import { parseStrict } from '../validate';
import { personCommandExit, throughRemote } from '../../personSync';
import { votesRel } from '../../../core/evaluation/votes/voteFile';

export async function runVote(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, {
    as: { type: 'string' },
    iteration: { type: 'string' },
    close: { type: 'boolean' },
    reopen: { type: 'boolean' },
    sync: { type: 'boolean' },
  });
  const close = values.close === true;
  const [review, runId, pointText, choice] = positionals;
  if (values.reopen === true) return runReopen(positionals, values);
  if (
    review === undefined ||
    runId === undefined ||
    pointText === undefined ||
    positionals.length > 4 ||
    (choice === undefined && !close)
  ) {
    throw new UsageError(
      'give the review folder, the run id, the decision point and your choice, e.g. teamfusion vote samples/lumen-perfume <run-id> --as ana 1 r1a',
    );
  }
  if (typeof values.as !== 'string' || values.as.trim() === '')
    throw new UsageError('--as needs your designer id: each member votes only as themselves.');
  const point = wholeNumber('decision point', pointText);
  const iteration = values.iteration === undefined ? undefined : wholeNumber('--iteration', String(values.iteration));
  const root = path.resolve(review);
  const as = values.as.trim();
  const cast = () =>
    castVote({
      reviewRoot: root,
      runId,
      as,
      ...(iteration !== undefined ? { iteration } : {}),
      decisionPoint: point,
      ...(choice !== undefined ? { choice } : {}),
      close,
      shared: values.sync === true,
    });
  try {
    // --sync: pulled first (the votes as the team has them), then the voter's own file — and run.json when the vote decides
    // on the driver's machine (anyone else's deciding vote leaves run.json to the driver: castVote computes the decision).
    const r = values.sync
      ? await throughRemote(root, 'vote', `TeamFusion ${runId}: ${as} ${close ? 'closes a vote' : 'votes'}`, async () => {
          const o = await cast();
          const files = [o.file, o.recordFile].filter((f): f is string => f !== undefined);
          return { ...o, file: files[0] ?? votesRel(runId, as), also: files.slice(1) };
        })
      : await cast();
    for (const line of r.refused ?? []) process.stderr.write(`${printable(line)}\n`);
    if (r.replaced) process.stderr.write(`${printable(r.replaced)}\n`);
    // Typed here for another member (issue 39): kept, and said not to count as theirs, in one sentence.
    if (r.typed) process.stderr.write(`${printable(r.typed)}\n`);
    else if (r.file && choice !== undefined) process.stderr.write(`Vote saved (${printable(r.file)}).\n`);
    process.stderr.write(`${printable(r.note)}\n`);
    return 0;
  } catch (err) {
    return personCommandExit('vote', err, [VoteError, RunRecordError]);
  }
}

/** `--reopen`: the lead reopens a decision (core/evaluation/votes/reopen.ts). */
async function runReopen(
  positionals: string[],
  values: { as?: unknown; iteration?: unknown; close?: unknown; sync?: unknown },
): Promise<number> {
  const [review, runId, pointText] = positionals;
  if (values.close === true)
    throw new UsageError('--reopen and --close do not go together: reopen a decision, then close the vote again when it is time.');
  if (review === undefined || runId === undefined || pointText === undefined || positionals.length > 3) {
    throw new UsageError(
      'give the review folder, the run id and the decision point, e.g. teamfusion vote samples/lumen-perfume <run-id> --as ana --reopen 1',
    );
  }
  if (typeof values.as !== 'string' || values.as.trim() === '')
    throw new UsageError('--as needs your designer id: only the lead reopens a decision.');
  const point = wholeNumber('decision point', pointText);
  const iteration = values.iteration === undefined ? undefined : wholeNumber('--iteration', String(values.iteration));
  const root = path.resolve(review);
  const as = values.as.trim();
  const reopen = () =>
    reopenDecision({
      reviewRoot: root,
      runId,
      as,
      ...(iteration !== undefined ? { iteration } : {}),
      decisionPoint: point,
      shared: values.sync === true,
    });
  try {
    const r = values.sync
      ? await throughRemote(root, 'vote', `TeamFusion ${runId}: ${as} reopens a decision`, async () => {
          const o = await reopen();
          return { ...o, file: o.recordFile };
        })
      : await reopen();
    process.stderr.write(`${printable(r.note)}\n`);
    return 0;
  } catch (err) {
    return personCommandExit('vote', err, [VoteError, RunRecordError]);
  }
}

function wholeNumber(what: string, raw: string): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1) throw new UsageError(`${what} must be a whole number of 1 or more (found "${raw}").`);
  return Number(raw);
}
