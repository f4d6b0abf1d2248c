/**
 * The suites' one way to wait (unit and integration): poll a condition until it holds (not undefined, not false), under
 * a ceiling generous enough for a loaded machine. A test never waits on a clock tuned to a quiet one; a condition that
 * holds at once returns at once. The ceiling only keeps a broken run from hanging the suite. The last error the probe
 * threw, and what `detail` says, go into the failure message.
 */
export const WAIT_CEILING_MS = Number(process.env.TEAMFUSION_WAIT_CEILING_MS ?? 120_000);

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = WAIT_CEILING_MS,
  detail?: () => string,
): Promise<T> {
  const t0 = Date.now();
  let last: unknown;
  for (let every = 10; ; every = Math.min(every * 2, 150)) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) {
      last = e;
    }
    if (Date.now() - t0 > timeoutMs)
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : '.'}${detail ? `\n${detail()}` : ''}`,
      );
    await new Promise((r) => setTimeout(r, every));
  }
}

/**
 * A getter that turns true once `p` has settled, either way: for a probe that stops waiting when the work it watches
 * ended early (the caller then awaits `p` and its assertions say what went wrong).
 */
export function hasSettled(p: Promise<unknown>): () => boolean {
  let settled = false;
  const mark = (): void => void (settled = true);
  p.then(mark, mark);
  return () => settled;
}
