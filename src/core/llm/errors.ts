/** Model and network errors as one plain sentence for users (no stack traces, never the key). */
import { ImagesUnavailableError } from '../images/sharp';
import { ModelRequestError, isModelRequestError } from './backend';
import { ModelConfigError } from './client';
import { ReviewFileError } from '../files/reviewFiles';
import { CancelledError, StepError, errorMessage } from '../kernel/errors';

export function isAbort(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  return isModelRequestError(err, 'aborted') || err instanceof CancelledError || (err instanceof Error && err.name === 'AbortError');
}

/** What a timeout says: the setting that raises it, in VS Code and on the command line, and when to raise it. */
export const TIMEOUT_ADVICE =
  'A slow model (a local one above all: Ollama, LM Studio, llama.cpp) needs a longer timeout: raise the VS Code setting ' +
  'teamfusion.requestTimeoutSeconds, or the environment variable TEAMFUSION_REQUEST_TIMEOUT_SECONDS on the command line ' +
  '(seconds; 120 by default), then resume the run.';

/** HTTP statuses by which an endpoint says it cannot answer this request at all (asking again would meet the same). */
const CANNOT_ANSWER = [400, 404, 405, 415, 422, 501];

/**
 * Why the endpoint cannot answer this request, or undefined when it is a passing failure a resume may get past (cancelled,
 * timed out, unreachable, refused key, rate limit, a server error). The optional requests of a run (a pool's rankings and
 * re-ask, the checklist and its checks, issue 41) go on without an answer the endpoint cannot give, such as a server that
 * does not know them.
 */
export function cannotAnswer(err: unknown): string | undefined {
  if (!(err instanceof ModelRequestError) || err.status === undefined || !CANNOT_ANSWER.includes(err.status)) return undefined;
  return `the endpoint could not answer it: HTTP ${err.status}, ${tidy(err.detail)}`;
}

export function describeError(err: unknown, what: string): string {
  if (err instanceof ModelRequestError) return err.said ? err.message : requestSentence(err, what);
  if (err instanceof StepError || err instanceof ImagesUnavailableError || err instanceof ModelConfigError) return err.message;
  // A file of the review that cannot be used says what to do itself (a resume would meet it again).
  if (err instanceof ReviewFileError) return err.message;
  return `The run stopped: ${tidy(errorMessage(err))}. Resume the run to try again.`;
}

/** A failed request's sentence, naming the step (`what`), from the kind its backend gave it. */
function requestSentence(err: ModelRequestError, what: string): string {
  switch (err.kind) {
    case 'timeout':
      return `${what} timed out, also after retries. ${TIMEOUT_ADVICE}`;
    case 'connection':
      return `${what} could not reach the model endpoint (${tidy(err.detail)}). Resume the run to try again.`;
    case 'auth':
      return `${what} was refused: the API key was not accepted (401).`;
    case 'permission':
      return `${what} was refused: no permission for this model (403).`;
    case 'not-found':
      return `${what} failed: the endpoint or model was not found (404). Check the model name and base URL.`;
    case 'rate-limit':
      return `${what} was rate-limited (429), also after retries. Resume the run later.`;
    case 'status':
      return `${what} failed with HTTP ${err.status}: ${tidy(err.detail)}. Resume the run to try again.`;
    default:
      return `${what} failed: ${tidy(err.detail)}. Resume the run to try again.`;
  }
}

function tidy(s: string): string {
  const oneLine = s
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.\s]+$/, '');
  return oneLine.length > 300 ? `${oneLine.slice(0, 300)}…` : oneLine;
}
