/**
 * The forecast step on the command line (core/forecast makeForecasts), for `rerank` once its blind set exists and for
 * `forecast` on its own: the model client is made here, the cost question asked on the command line (--yes), and what
 * happened said in one line on stderr — never a forecast's answer, which stays sealed until compare. After `rerank`,
 * without a configured model the set stands and the forecasts are said not made (exit 0); `forecast` then fails (exit 1).
 */
import * as path from 'node:path';
import { createModelClient, ModelConfigError } from '../../../core/llm/client';
import { OpenAIChatBackend } from '../../../core/llm/openaiBackend';
import { CostNotConfirmedError } from '../../../core/llm/costQuestion';
import { ReviewFileError } from '../../../core/files/reviewFiles';
import { CancelledError, errorMessage } from '../../../core/kernel/errors';
import { ForecastRefusedError, forecastDone, makeForecasts } from '../../../core/forecast/forecast';
import { writeLine } from '../../output';
import { envNumber, readPriceTable } from '../../environment';
import { confirmOnCli } from '../../costQuestion';

/**
 * Makes the missing or failed forecasts of a run with a blind set (`textOnly`: a model without vision gets the letters as
 * words); the exit code (0 made, nothing to do, or — after rerank — no model; 1 failed or refused; 130 cancelled).
 */
export async function forecastOnCli(
  review: string,
  runId: string,
  yes: boolean,
  textOnly = false,
  command: 'rerank' | 'forecast' = 'rerank',
): Promise<number> {
  let chat: OpenAIChatBackend;
  try {
    chat = new OpenAIChatBackend(
      createModelClient({
        timeoutMs: envNumber('TEAMFUSION_REQUEST_TIMEOUT_SECONDS', 1000),
        maxRetries: envNumber('TEAMFUSION_MAX_RETRIES', 1),
      }),
      { textOnly },
    );
  } catch (err) {
    if (!(err instanceof ModelConfigError)) throw err;
    if (command === 'forecast') {
      writeLine(process.stderr, `teamfusion forecast: no forecast was made (${err.message.replace(/\.$/, '')}).`);
      return 1;
    }
    writeLine(
      process.stderr,
      `No forecasts were made (${err.message.replace(/\.$/, '')}); the set stands. With a model, the proxies' forecasts measure how well each speaks for its designer; --no-forecast says you do not want them.`,
    );
    return 0;
  }
  const controller = new AbortController();
  const onSigint = (): void => {
    process.stderr.write('\nCancelling… (the forecasts sealed so far stay)\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const done = await makeForecasts({
      reviewRoot: path.resolve(review),
      runId,
      chat,
      prices: await readPriceTable(process.env.TEAMFUSION_PRICES),
      confirm: confirmOnCli(yes),
      signal: controller.signal,
      log: (line) => writeLine(process.stderr, line),
    });
    writeLine(process.stderr, forecastDone(done));
    return 0;
  } catch (err) {
    if (err instanceof CancelledError) return 130;
    if (err instanceof ForecastRefusedError || (command === 'forecast' && err instanceof Error)) {
      writeLine(process.stderr, `teamfusion ${command}: ${errorMessage(err)}`);
      return 1;
    }
    if (err instanceof CostNotConfirmedError || err instanceof ReviewFileError || err instanceof Error) {
      writeLine(process.stderr, `teamfusion rerank: the set was made, but no forecast was: ${errorMessage(err)}`);
      return 1;
    }
    throw err;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
