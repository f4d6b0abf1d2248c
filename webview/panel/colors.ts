/** Colour decisions of the panel, expressed as theme variables and percentages. Pure functions (unit tested). */

/** Theme chart colours, one per proxy agent, in order of designer id; they repeat after six. */
export const SPEAKER_COLORS = [
  '--vscode-charts-blue',
  '--vscode-charts-orange',
  '--vscode-charts-green',
  '--vscode-charts-purple',
  '--vscode-charts-yellow',
  '--vscode-charts-red',
] as const;

export function speakerColor(index: number): string {
  const i = ((index % SPEAKER_COLORS.length) + SPEAKER_COLORS.length) % SPEAKER_COLORS.length;
  return `var(${SPEAKER_COLORS[i]})`;
}

/** The strongest heatmap tint: the cell's number (theme foreground) stays AA-legible over it (see contrast.ts). */
export const HEAT_MAX_PERCENT = 45;
const HEAT_MIN_PERCENT = 8;
/** The strongest agreement-matrix tint, for the same reason. */
export const TAU_MAX_PERCENT = 30;

/**
 * Strength of a heatmap cell: how much of the accent colour to mix in, in percent. Best rank (1) is strongest,
 * the worst rank of `n` options is faint but still visible.
 */
export function heatPercent(rank: number, n: number): number {
  if (n <= 1) return HEAT_MAX_PERCENT;
  const t = Math.min(1, Math.max(0, (rank - 1) / (n - 1)));
  return Math.round(HEAT_MAX_PERCENT - t * (HEAT_MAX_PERCENT - HEAT_MIN_PERCENT));
}

/** Kendall's tau in [-1, 1] → { variable, percent } for a diverging colour (green agrees, red disagrees). */
export function tauColor(tau: number): { variable: string; percent: number } {
  const t = Math.max(-1, Math.min(1, Number.isFinite(tau) ? tau : 0));
  return { variable: t >= 0 ? '--vscode-charts-green' : '--vscode-charts-red', percent: Math.round(Math.abs(t) * TAU_MAX_PERCENT) };
}

/** Average ranks (ties share the mean of their positions) from the ranks as written: [1, 2, 2, 4] → [1, 2.5, 2.5, 4]. */
export function averageRanks(ranks: number[]): number[] {
  const order = ranks.map((r, i) => ({ r, i })).sort((a, b) => a.r - b.r);
  const out = new Array<number>(ranks.length).fill(0);
  let k = 0;
  while (k < order.length) {
    let j = k;
    while (j + 1 < order.length && order[j + 1]!.r === order[k]!.r) j++;
    const avg = (k + 1 + (j + 1)) / 2;
    for (let x = k; x <= j; x++) out[order[x]!.i] = avg;
    k = j + 1;
  }
  return out;
}
