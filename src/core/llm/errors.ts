/** Model and network errors as one plain sentence for users (no stack traces, never the key). */
import type { APIError } from 'openai';
import { openaiSdk } from './sdk';
import { ImagesUnavailableError } from '../images/sharp';
import { ModelRequestError } from './backend';
import { ModelConfigError } from './client';
import { ReviewFileError } from '../files/reviewFiles';
import { CancelledError, StepError, errorMessage } from '../kernel/errors';

export function isAbort(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  return (err instanceof Error && err instanceof openaiSdk().APIUserAbortError) || err instanceof CancelledError || (err instanceof Error && err.name === 'AbortError');
}

/** What a timeout says: the setting that raises it, in VS Code and on the command line, and when to raise it. */
export const TIMEOUT_ADVICE =
  'A slow model (a local one above all: Ollama, LM Studio, llama.cpp) needs a longer timeout: raise the VS Code setting ' +
  'teamfusion.requestTimeoutSeconds, or the environment variable TEAMFUSION_REQUEST_TIMEOUT_SECONDS on the command line ' +
  '(seconds; 120 by default), then resume the run.';

export function describeError(err: unknown, what: string): string {
  if (err instanceof StepError || err instanceof ImagesUnavailableError || err instanceof ModelRequestError || err instanceof ModelConfigError) return err.message;
  // A file of the review that cannot be used says what to do itself (a resume would meet it again).
  if (err instanceof ReviewFileError) return err.message;
  const OpenAI = openaiSdk();
  if (err instanceof OpenAI.APIConnectionTimeoutError) return `${what} timed out, also after retries. ${TIMEOUT_ADVICE}`;
  if (err instanceof OpenAI.APIConnectionError) return `${what} could not reach the model endpoint (${tidy(err.message)}). Resume the run to try again.`;
  if (err instanceof OpenAI.AuthenticationError) return `${what} was refused: the API key was not accepted (401).`;
  if (err instanceof OpenAI.PermissionDeniedError) return `${what} was refused: no permission for this model (403).`;
  if (err instanceof OpenAI.NotFoundError) return `${what} failed: the endpoint or model was not found (404). Check the model name and base URL.`;
  if (err instanceof OpenAI.RateLimitError) return `${what} was rate-limited (429), also after retries. Resume the run later.`;
  if (err instanceof OpenAI.APIError && err.status !== undefined) {
    return `${what} failed with HTTP ${err.status}: ${tidy(apiMessage(err))}. Resume the run to try again.`;
  }
  const message = errorMessage(err);
  if (err instanceof OpenAI.OpenAIError) return `${what} failed: ${tidy(message)}. Resume the run to try again.`;
  return `The run stopped: ${tidy(message)}. Resume the run to try again.`;
}

function apiMessage(err: APIError): string {
  const e = err.error as { message?: unknown } | undefined;
  return typeof e?.message === 'string' ? e.message : err.message;
}

function tidy(s: string): string {
  const oneLine = s.replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '');
  return oneLine.length > 300 ? `${oneLine.slice(0, 300)}…` : oneLine;
}


/*
 * The SDK's error classes are read only in this room: the rooms above ask these questions instead.
 */
/** Any error the OpenAI SDK raised for a request (status, connection, timeout, abort). */
export const isModelSdkError = (err: unknown): boolean => err instanceof openaiSdk().OpenAIError;
/** The request timed out, after the SDK's own retries. */
export const isRequestTimeout = (err: unknown): boolean => err instanceof openaiSdk().APIConnectionTimeoutError;
/** The endpoint answered 404 (for example, it has no such API). */
export const isNotFoundAnswer = (err: unknown): boolean => err instanceof openaiSdk().NotFoundError;
/** The endpoint answered with an error status, or could not be reached. */
export function isApiOrConnectionError(err: unknown): boolean {
  const OpenAI = openaiSdk();
  return err instanceof OpenAI.APIConnectionError || err instanceof OpenAI.APIError;
}
