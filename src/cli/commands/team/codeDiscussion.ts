/**
 * `teamfusion code-discussion <review> <run-id> [--json] [--force] [--batch] [--yes] [--poll-interval S] [--max-wait S]`:
 * every message of the run gets one Bales IPA category (runs/<run-id>/analysis.json); `--json` prints that object.
 * Exit 0 coded (or a batch still pending, said in words), 1 invalid input / messages left uncoded / batch expired or failed,
 * 2 usage, 130 cancelled.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  BALES_CATEGORIES,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_POLL_INTERVAL_MS,
  MIN_POLL_INTERVAL_MS,
  MAX_ATTEMPTS,
  analysisPath,
  codeDiscussion,
  stanceSentence,
  topChoiceOf,
  type DesignerTop,
} from '../../../core/analysis';
import { printable } from '../../../core/kernel/text';
import { loadReview } from '../../../core/review/loadReview';
import { UsageError, exactPositionals } from '../../usage';
import { safeJson } from '../../output';
import { parseStrict } from '../validate';
import { cliModelClient, pricesOrSay, withCtrlC } from '../../modelCommand';
import { SCRIPTED_SERVER, answeredBy } from '../../../core/llm/scripted';
import { confirmOnCli } from '../../costQuestion';
import { errorMessage } from '../../../core/kernel/errors';

function seconds(flag: string, v: unknown, fallbackMs: number): number {
  if (v === undefined) return fallbackMs;
  const n = Number(v);
  if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new UsageError(`${flag} needs a number of seconds, not "${String(v)}".`);
  return Math.round(n * 1000);
}

export async function runCodeDiscussion(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, {
    json: { type: 'boolean' },
    force: { type: 'boolean' },
    batch: { type: 'boolean' },
    yes: { type: 'boolean' },
    'poll-interval': { type: 'string' },
    'max-wait': { type: 'string' },
  });
  const [review, runId] = exactPositionals(
    positionals,
    2,
    'give the review folder and the run id, e.g. teamfusion code-discussion samples/lumen-perfume 2026-11-21T22-40-05Z-3f9c',
  );
  const pollIntervalMs = seconds('--poll-interval', values['poll-interval'], DEFAULT_POLL_INTERVAL_MS);
  if (pollIntervalMs < MIN_POLL_INTERVAL_MS)
    throw new UsageError(
      `--poll-interval must be at least ${MIN_POLL_INTERVAL_MS / 1000} second (found "${String(values['poll-interval'])}"); a batch is not asked after more often.`,
    );
  const maxWaitMs = seconds('--max-wait', values['max-wait'], DEFAULT_MAX_WAIT_MS);
  const root = path.resolve(review);
  const st = await fs.stat(root).catch(() => undefined);
  if (!st?.isDirectory()) {
    process.stderr.write(
      `teamfusion code-discussion: ${printable(review)} is not a review folder (${st ? 'it is a file' : 'it does not exist'}); nothing was written or sent.\n`,
    );
    return 1;
  }

  const prices = await pricesOrSay();
  if (prices === false) return 1;

  // The designers' top choices (for the stance table); a review whose rankings do not load is coded without it.
  let designers: DesignerTop[] | undefined;
  const loaded = await loadReview(root, { decodeImages: false }).catch(() => undefined);
  if (loaded?.review) designers = loaded.review.designers.map((d) => ({ id: d.id, topChoice: topChoiceOf(d.entries) }));

  let result;
  try {
    result = await withCtrlC('what is coded is kept', (signal) =>
      codeDiscussion({
        reviewRoot: root,
        runId,
        client: cliModelClient,
        force: values.force === true,
        batch: values.batch === true,
        pollIntervalMs,
        maxWaitMs,
        prices,
        designers,
        // The one cost question: --yes, a terminal's y/N, otherwise no (said in words either way).
        confirm: confirmOnCli(values.yes === true),
        signal,
        onProgress: (p) => {
          if (values.json !== true) process.stderr.write(`${printable(p.message)}\n`);
        },
        log: (line) => process.stderr.write(`${printable(line)}\n`),
      }),
    );
  } catch (err) {
    const cause = errorMessage(err);
    process.stderr.write(`teamfusion code-discussion: ${printable(cause)}\n`);
    return 1;
  }

  const a = result.analysis;
  for (const n of result.notes) process.stderr.write(`${printable(n)}\n`);
  if (values.json === true) {
    process.stdout.write(`${safeJson(a)}\n`);
  } else {
    const total = a.bales.length + a.uncoded.length;
    const cost =
      a.usage.costUsd === undefined ? 'cost unknown (model not in the price table)' : `estimated cost $${a.usage.costUsd.toFixed(4)}`;
    const lines = [
      ...(a.scripted
        ? [`Scripted: these codes came from ${SCRIPTED_SERVER}; they show the pipeline, not a coding of the discussion.`]
        : []),
      `Coded ${a.bales.length} messages of run ${a.runId} with ${printable(answeredBy(a.model, a.scripted))} (${result.newRequests} new requests, ${result.reused} codes reused; ${a.requests} requests in all, ${cost}${a.mode !== 'direct' ? `, ${a.mode}` : ''}).`,
    ];
    for (const [speaker, row] of Object.entries(a.byDesigner)) {
      const parts = BALES_CATEGORIES.filter((c) => row[String(c.number)]).map((c) => `${c.label} ${row[String(c.number)]}`);
      lines.push(`  ${printable(speaker)}: ${parts.join(', ') || 'nothing coded'}`);
    }
    if (a.rounds.length)
      lines.push(
        `Agrees / disagrees per round: ${a.rounds.map((r) => `round ${r.iteration} ${r.agrees}/${r.disagrees}`).join(', ')}${a.possiblyTooCompliant ? ' — possibly too compliant (almost all Agrees)' : ''}.`,
      );
    if (a.stance) lines.push(`Stance: ${printable(stanceSentence(a.stance))}`);
    if (total === 0) lines.push('The run has no messages yet.');
    lines.push(`Written: ${analysisPath(a.runId)}`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  switch (result.state) {
    case 'coded':
    case 'pending':
      return 0;
    case 'cancelled':
      return 130;
    case 'uncoded':
      process.stderr.write(
        `${a.uncoded.length} message${a.uncoded.length === 1 ? '' : 's'} could not be coded after ${MAX_ATTEMPTS} attempts and ${a.uncoded.length === 1 ? 'is' : 'are'} listed as uncoded: ${printable(a.uncoded.join(', '))}.\n`,
      );
      return 1;
    case 'batch-problem':
      return 1;
  }
}
