/**
 * The forecasts "Make Blind Re-rank Set" makes once the set exists (core/forecast makeForecasts, as `teamfusion rerank`
 * does): on the runs' chat (textChatFor: the workspace-trust and key guard, then the VS Code language model or the
 * OpenAI-compatible endpoint), with a cancellable progress notification and the cost question as a modal. Returns one
 * sentence for the user — never a forecast's answer, which stays sealed until the re-rank is saved.
 */
import * as vscode from 'vscode';
import { forecastDone, makeForecasts } from '../../core/forecast/forecast';
import { CancelledError, errorMessage } from '../../core/kernel/errors';
import { chatBackendOf, textChatFor, withCancellableProgress } from '../analysis/textChat';
import { confirmInModal } from '../costModal';
import { redactSecrets } from '../run/keys/redact';
import { resolveRunSettings } from '../run/runSettings';
import type { Services } from '../services';

const NONE = 'No forecasts were made';

/**
 * Makes the proxies' missing or failed forecasts of run `runId`; the sentence that says what happened (after the set was
 * just made, that the set stands either way).
 */
export async function forecastInVsCode(
  services: Services,
  reviewRoot: string,
  runId: string,
  after: 'rerank' | 'forecast' = 'rerank',
): Promise<string> {
  const stands = after === 'rerank' ? '; the set stands' : '';
  const log = services.log;
  const redact = (line: string): string => redactSecrets(line, services.runs.apiKeys.knownSecrets());
  const text = await textChatFor(services, 'Proxy forecasts', reviewRoot);
  const chat = chatBackendOf(text);
  if (!chat) return `${NONE} (no model is available)${stands}.`;
  const prices = resolveRunSettings((k) => vscode.workspace.getConfiguration('teamfusion').inspect(k)).prices;
  const controller = new AbortController();
  try {
    const done = await withCancellableProgress(`TeamFusion: proxy forecasts for run ${runId}`, controller, (report) =>
      makeForecasts({
        reviewRoot,
        runId,
        chat,
        ...(prices ? { prices } : {}),
        confirm: confirmInModal(`Forecasting run ${runId}'s blind answers`, 'Make the forecasts'),
        signal: controller.signal,
        log: (line) => {
          report(redact(line));
          log.info(redact(line));
        },
      }),
    );
    const sentence = forecastDone(done);
    log.info(sentence);
    return sentence;
  } catch (e) {
    const why = redact(errorMessage(e));
    const sentence =
      e instanceof CancelledError || controller.signal.aborted
        ? `${NONE} (cancelled; what was sealed stays)${stands}.`
        : `${NONE} (${why.replace(/\.$/, '')})${stands}.`;
    log.warn(`Proxy forecasts: ${sentence}`);
    return sentence;
  }
}
