/**
 * Where the e2e stage spends its time: the shared helpers add up how long each kind of step took (starting a server,
 * launching Chromium, loading the workbench, switching the colour theme…). With TEAMFUSION_E2E_TIMING=1 each suite
 * prints its totals when it ends; otherwise nothing is printed.
 */

const totals = new Map<string, { ms: number; n: number }>();

/** Adds `ms` to the total of `what`. */
export function addTime(what: string, ms: number): void {
  const t = totals.get(what) ?? { ms: 0, n: 0 };
  t.ms += ms;
  t.n += 1;
  totals.set(what, t);
}

/** Runs `fn` and adds how long it took to the total of `what` (also when it throws). */
export async function timed<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  try {
    return await fn();
  } finally {
    addTime(what, Date.now() - t0);
  }
}

/** The totals so far, one line each ("what: 12.3 s in 4"), largest first; then clears them. */
export function takeTimings(): string[] {
  const lines = [...totals.entries()]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([what, t]) => `${what}: ${(t.ms / 1000).toFixed(1)} s in ${t.n}`);
  totals.clear();
  return lines;
}

/** Whether the suites print their totals (TEAMFUSION_E2E_TIMING=1). */
export function timingOn(): boolean {
  return process.env.TEAMFUSION_E2E_TIMING === '1';
}
