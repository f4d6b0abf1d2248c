/**
 * Schulze consensus (a Condorcet method): pairwise majorities, then the strongest path between every two options.
 *
 * - `d[a][b]`: the summed weight of the designers who rank a strictly better than b (a designer who ties a and b counts for
 *   neither side). Without weights every designer weighs 1.
 * - A link a → b exists when `d[a][b] > d[b][a]`; its strength is `d[a][b]` (winning votes). A path's strength is its
 *   weakest link; `p[a][b]` is the strength of the strongest path from a to b (0 when there is none), found by the
 *   widest-path variant of Floyd–Warshall.
 * - a beats b when `p[a][b] > p[b][a]`; that relation is transitive (Schulze 2011), so the options fall into tiers: the
 *   first tier is every option no other option beats, the next tier the same among the rest, and so on. Options in one
 *   tier are tied: the ranking reports the tie and breaks nothing. Where a strict order is needed (a round's top
 *   candidates), `strictOrder` breaks a tie by the higher Borda points (same weights), then by the options' given order.
 * - Sums of weights are floats, so two strengths within a relative 1e-9 of each other count as equal (as in Borda).
 */
import { at, cell, num } from '../../kernel/arrays';

export interface SchulzeResult {
  /** Tiers best first; each tier lists its options in the given order. */
  ranking: string[][];
  /** The first tier. */
  winners: string[];
  /** The option a (weighted) majority prefers to every other option, or null. */
  condorcetWinner: string | null;
  /** `preferences[a][b]`: summed weight preferring option a to option b (indices in the given order). */
  preferences: number[][];
  /** `strongestPaths[a][b]`: strength of the strongest path from a to b. */
  strongestPaths: number[][];
}

const EQUAL = 1e-9;

/** a > b beyond float noise. */
export function strictlyGreater(a: number, b: number): boolean {
  return a - b > EQUAL * Math.max(1, Math.abs(a), Math.abs(b));
}

/** `d[a][b]` from a rank matrix (rows = designers, ranks as written; only their order counts). */
export function pairwisePreferences(ranks: readonly (readonly number[])[], weights?: readonly number[]): number[][] {
  const n = ranks[0]?.length ?? 0;
  if (weights && weights.length !== ranks.length) throw new RangeError('There must be one weight per rater.');
  // One flat matrix, summed designer by designer (so each cell adds the same weights in the same order as row arrays would).
  const d = new Float64Array(n * n);
  const row = new Float64Array(n);
  ranks.forEach((ranking, j) => {
    if (ranking.length !== n) throw new RangeError('Every rater must rank every item.');
    const w = weights ? num(weights, j) : 1;
    for (let i = 0; i < n; i++) row[i] = num(ranking, i);
    for (let a = 0; a < n; a++) {
      const ra = row[a]!;
      const off = a * n;
      for (let b = 0; b < n; b++) if (ra < row[b]!) d[off + b] = d[off + b]! + w;
    }
  });
  return rowsOf(d, n);
}

/** The n × n flat matrix as n row arrays. */
function rowsOf(flat: Float64Array, n: number): number[][] {
  return Array.from({ length: n }, (_, a) => Array.from(flat.subarray(a * n, a * n + n)));
}

/** Widest paths over the majority links of `d`. */
export function strongestPaths(d: readonly (readonly number[])[]): number[][] {
  const n = d.length;
  const p = new Float64Array(n * n);
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      const v = cell(d, a, b);
      if (a !== b && strictlyGreater(v, cell(d, b, a))) p[a * n + b] = v;
    }
  }
  for (let k = 0; k < n; k++) {
    const pk = k * n;
    for (let a = 0; a < n; a++) {
      if (a === k) continue;
      const pa = a * n;
      const ak = p[pa + k]!;
      for (let b = 0; b < n; b++) {
        if (b === k || b === a) continue;
        const via = Math.min(ak, p[pk + b]!);
        if (via > p[pa + b]!) p[pa + b] = via;
      }
    }
  }
  return rowsOf(p, n);
}

export function schulzeRanking(
  ranks: readonly (readonly number[])[],
  options: readonly string[],
  weights?: readonly number[],
): SchulzeResult {
  const n = options.length;
  if ((ranks[0]?.length ?? n) !== n) throw new RangeError('There must be one option id per ranked item.');
  const d = pairwisePreferences(ranks, weights);
  const p = strongestPaths(d);
  // Who beats whom, decided once per pair (the tiers below ask it again for every option left).
  const beatsFlat = new Uint8Array(n * n);
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) if (strictlyGreater(cell(p, a, b), cell(p, b, a))) beatsFlat[a * n + b] = 1;
  const beats = (a: number, b: number) => beatsFlat[a * n + b] === 1;
  const ranking: string[][] = [];
  let rest = options.map((_, i) => i);
  while (rest.length) {
    const tier = rest.filter((b) => !rest.some((a) => beats(a, b)));
    // The relation is transitive, so some option is always unbeaten; the guard only stops a loop on impossible input.
    const take = tier.length ? tier : rest;
    ranking.push(take.map((i) => at(options, i)));
    rest = rest.filter((i) => !take.includes(i));
  }
  const condorcet = options.findIndex((_, a) => options.every((__, b) => a === b || strictlyGreater(cell(d, a, b), cell(d, b, a))));
  return {
    ranking,
    winners: ranking[0] ?? [],
    condorcetWinner: condorcet >= 0 ? at(options, condorcet) : null,
    preferences: d,
    strongestPaths: p,
  };
}

/**
 * One strict order from tiers: within a tier the higher `points` first (e.g. Borda points with the same weights), then the
 * order of `options`.
 */
export function strictOrder(
  tiers: readonly (readonly string[])[],
  options: readonly string[],
  points: ReadonlyMap<string, number>,
): string[] {
  const at = new Map(options.map((o, i) => [o, i] as const));
  return tiers.flatMap((tier) =>
    [...tier].sort((a, b) => {
      const pa = points.get(a) ?? 0;
      const pb = points.get(b) ?? 0;
      if (strictlyGreater(pa, pb)) return -1;
      if (strictlyGreater(pb, pa)) return 1;
      return (at.get(a) ?? 0) - (at.get(b) ?? 0);
    }),
  );
}
