/**
 * The integration suites' one way to wait: poll a condition until it holds (not undefined, not false), under a ceiling
 * generous enough for a loaded machine. A test never waits on a clock tuned to a quiet one; a condition that holds at
 * once returns at once. The last error the probe threw is kept for the failure message.
 */
export const WAIT_CEILING_MS = Number(process.env.TEAMFUSION_WAIT_CEILING_MS ?? 120_000);

export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = WAIT_CEILING_MS): Promise<T> {
  const t0 = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) {
      last = e;
    }
    if (Date.now() - t0 > timeoutMs) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : '.'}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
