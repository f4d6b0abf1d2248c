/**
 * `teamfusion forecast <review> <run-id> [--yes] [--text-only]` (contract §8): makes the missing or failed forecasts of a
 * run that has a blind set (the same step `rerank` calls once it made the set, forecastStep.ts); a forecast once sealed is
 * never asked again. Exit 0 made or nothing to do, 1 refused (no such run, no blind set, another forecast step at work)
 * or failed, 2 usage, 130 cancelled (what was sealed stays).
 */
import { exactPositionals } from '../../usage';
import { parseStrict } from '../validate';
import { forecastOnCli } from './forecastStep';

export async function runForecast(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, { yes: { type: 'boolean' }, 'text-only': { type: 'boolean' } });
  const [review, runId] = exactPositionals(
    positionals,
    2,
    'give the review folder and the run id, e.g. teamfusion forecast samples/lumen-perfume 2026-11-21T22-40-05Z-3f9c',
  );
  return forecastOnCli(review, runId, values.yes === true, values['text-only'] === true, 'forecast');
}
