/**
 * `teamfusion rerank <review> <run-id> [--top N] [--no-forecast] [--yes] [--text-only]`: makes runs/<run-id>/rerank/, the blind re-rank
 * set (the review's Borda top N options + every remix, under neutral letters); on a brief run, the revised brief and the
 * baseline as A.md and B.md. Then (unless --no-forecast) each proxy forecasts its designer's blind answer and one
 * persona-free control the same, sealed in runs/<run-id>/forecast.json (forecastStep.ts). Exit 0 made, 1 refused (run not
 * completed, folder exists, no such run) or the forecasts failed, 2 usage, 130 cancelled.
 */
import * as path from 'node:path';
import { makeRerankSet } from '../../../core/evaluation';
import { UsageError, exactPositionals } from '../../usage';
import { writeLine } from '../../output';
import { parseStrict } from '../validate';
import { forecastOnCli } from '../run/forecastStep';
import { checkForecastWritable } from '../../../core/forecast/forecast';

export async function runRerank(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, {
    top: { type: 'string' },
    'no-forecast': { type: 'boolean' },
    yes: { type: 'boolean' },
    'text-only': { type: 'boolean' },
  });
  const [review, runId] = exactPositionals(
    positionals,
    2,
    'give the review folder and the run id, e.g. teamfusion rerank samples/lumen-perfume 2026-11-21T22-40-05Z-3f9c',
  );
  let top: number | undefined;
  if (values.top !== undefined) {
    top = Number(values.top);
    if (!/^\d+$/.test(String(values.top)) || top < 1 || top > 50) throw new UsageError('--top must be a whole number from 1 to 50.');
  }
  // What the forecasts will write is checked first: a link there refuses the whole command before anything is made.
  if (values['no-forecast'] !== true) await checkForecastWritable(review, runId);
  const { dir, key, notes } = await makeRerankSet(review, runId, top === undefined ? {} : { top });
  const shown = path.relative(process.cwd(), dir) || dir;
  writeLine(process.stdout, shown);
  for (const note of notes ?? []) writeLine(process.stderr, note);
  const forecast =
    values['no-forecast'] === true ? 0 : await forecastOnCli(review, runId, values.yes === true, values['text-only'] === true);
  if (Object.values(key).some((e) => e.kind === 'teamfusion' || e.kind === 'direct')) {
    writeLine(
      process.stderr,
      `Made ${shown}: two revisions of the brief (A.md, B.md), one TeamFusion's and one written directly, in an order drawn for this run.`,
    );
    writeLine(
      process.stderr,
      `Next: each member writes runs/${runId}/preference/<designer-id>.yaml (designer:, prefer: A, B or tie, why: optional),`,
    );
    writeLine(process.stderr, `then: teamfusion compare ${review} ${runId}`);
    return forecast;
  }
  writeLine(process.stderr, `Made ${shown}: ${Object.keys(key).length} candidates (${Object.keys(key).join(', ')}) to rank again, blind.`);
  writeLine(process.stderr, 'Next: each designer writes rankings/<designer-id>.yaml there (or uses "My ranking" in the review panel),');
  writeLine(process.stderr, `then: teamfusion compare ${review} ${runId}`);
  return forecast;
}
