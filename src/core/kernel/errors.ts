/** The errors every step may throw or meet, and how any thrown value reads as one sentence. */

/** What a thrown value says: its message when it is an Error, else the value as text. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class CancelledError extends Error {
  constructor() {
    super('The run was cancelled.');
    this.name = 'CancelledError';
  }
}

/** A step failed in a way the user should read; the run stays resumable. */
export class StepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StepError';
  }
}

/**
 * Runs `fn` with a signal of its own that follows `parent`, and unhooks it afterwards. The SDK adds an abort listener to
 * the signal of every request; one long-lived run signal would collect hundreds of them.
 */
export async function withChildSignal<T>(parent: AbortSignal | undefined, fn: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (!parent) return fn(undefined);
  const child = new AbortController();
  const onAbort = (): void => child.abort(parent.reason);
  if (parent.aborted) child.abort(parent.reason);
  else parent.addEventListener('abort', onAbort, { once: true });
  try {
    return await fn(child.signal);
  } finally {
    parent.removeEventListener('abort', onAbort);
  }
}
