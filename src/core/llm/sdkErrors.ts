/**
 * The one file that reads the `openai` SDK's error classes: every call the engine makes through the SDK (the chat and image
 * backends, the Batch API) goes through `sdkCall`, so a failed request leaves as a ModelRequestError of one kind, with the
 * SDK's error as its `cause`. Anything that is not an SDK error (a stream cut while reading, our own checks) passes as it is.
 */
import type { APIError } from 'openai';
import { ModelRequestError, type ModelRequestKind } from './backend';
import { openaiSdk } from './sdk';

/** Runs one SDK call; an SDK error it throws becomes a ModelRequestError. */
export async function sdkCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw fromSdkError(err);
  }
}

/** An SDK error as a ModelRequestError of its kind; any other value as it is. */
export function fromSdkError(err: unknown): unknown {
  const sdk = openaiSdk();
  if (!(err instanceof sdk.OpenAIError)) return err;
  const as = (kind: ModelRequestKind, detail = err.message): ModelRequestError =>
    new ModelRequestError(err.message, kind, {
      detail,
      cause: err,
      ...(err instanceof sdk.APIError && err.status !== undefined ? { status: err.status } : {}),
    });
  // The SDK's abort is an APIError without a status, its timeout an APIConnectionError: the narrower classes first.
  if (err instanceof sdk.APIUserAbortError) return as('aborted');
  if (err instanceof sdk.APIConnectionTimeoutError) return as('timeout');
  if (err instanceof sdk.APIConnectionError) return as('connection');
  if (err instanceof sdk.AuthenticationError) return as('auth');
  if (err instanceof sdk.PermissionDeniedError) return as('permission');
  if (err instanceof sdk.NotFoundError) return as('not-found');
  if (err instanceof sdk.RateLimitError) return as('rate-limit');
  if (err instanceof sdk.APIError) return err.status !== undefined ? as('status', apiMessage(err)) : as('failed');
  return as('unreadable');
}

/** The message of the endpoint's error body, else the SDK's. */
function apiMessage(err: APIError): string {
  const e = err.error as { message?: unknown } | undefined;
  return typeof e?.message === 'string' ? e.message : err.message;
}
