/** What `evaluate` takes from a run's analysis.json: the Bales category counts, pooled into shares per review and per mode. */
import { readAnalysisFile } from './analysisFile';
import { BALES_CATEGORIES } from './bales';

export interface CodedCategories {
  /** Messages with a code. */
  coded: number;
  /** Category number as a string → messages. */
  counts: Record<string, number>;
}

/** The run's codes, or null when it has no analysis.json (a broken one throws, naming the file). */
export async function codedCategories(reviewRoot: string, runId: string): Promise<CodedCategories | null> {
  const a = await readAnalysisFile(reviewRoot, runId);
  if (!a || a.bales.length === 0) return null;
  const counts: Record<string, number> = {};
  for (const b of a.bales) counts[String(b.category)] = (counts[String(b.category)] ?? 0) + 1;
  return { coded: a.bales.length, counts };
}

/** Share of each category over all the given runs' coded messages (each message counts once), in 1…13 order, 3 decimals. */
export function categoryMixOf(runs: readonly CodedCategories[]): Record<string, number> {
  const total = runs.reduce((k, r) => k + r.coded, 0);
  const out: Record<string, number> = {};
  if (!total) return out;
  for (const c of BALES_CATEGORIES) {
    const n = runs.reduce((k, r) => k + (r.counts[String(c.number)] ?? 0), 0);
    if (n) out[String(c.number)] = Math.round((n / total) * 1000) / 1000;
  }
  return out;
}

/** "5 Gives opinion 40%, 3 Agrees 30%, …": the mix in words, largest first. */
export function mixWords(mix: Record<string, number>): string {
  const parts = Object.entries(mix)
    .sort((a, b) => b[1] - a[1] || Number(a[0]) - Number(b[0]))
    .map(([k, v]) => `${k} ${BALES_CATEGORIES[Number(k) - 1]?.label ?? k} ${Math.round(v * 100)}%`);
  return parts.join(', ') || '—';
}
