/**
 * Stance kept or yielded. At the end of every round the remix agent reports, per designer, the candidate their proxy backed
 * last (`iteration.backed`). Against the designer's own top choice before the run (rank 1 in their ranking file; ties at
 * rank 1 all count as the top choice):
 *   - moved: in some round, what the proxy backed differs from the top choice; `movedAt` is the first such round and the
 *     id of that proxy's last message in it;
 *   - kept: what it backed at the end of the last reported round is the top choice; otherwise yielded (also when the top
 *     choice was narrowed out), to what it backed last (null: nothing).
 * A designer with no report in any round is 'unknown' (older runs), never counted as kept or yielded.
 */
import * as z from 'zod';
import type { RunRecord } from '../record/record';

export const StanceRowSchema = z.object({
  designer: z.string(),
  /** Option ids at rank 1 in the designer's ranking before the run. */
  topChoice: z.array(z.string()),
  /** What the proxy backed at the end of each round (null = none; rounds without a report are left out). */
  backed: z.array(z.object({ iteration: z.number().int().positive(), candidate: z.string().nullable() })),
  moved: z.boolean(),
  movedAt: z.object({ iteration: z.number().int().positive(), message: z.string().nullable() }).optional(),
  outcome: z.enum(['kept', 'yielded', 'unknown']),
  /** What it backed last (for yielded: what it yielded to). */
  last: z.string().nullable(),
});
export type StanceRow = z.infer<typeof StanceRowSchema>;

export const StanceTableSchema = z.object({
  rows: z.array(StanceRowSchema),
  kept: z.number().int().nonnegative(),
  yielded: z.number().int().nonnegative(),
  unknown: z.number().int().nonnegative(),
  /** candidate id (or "none") → designers whose proxy yielded to it. */
  yieldedTo: z.record(z.string(), z.array(z.string())),
});
export type StanceTable = z.infer<typeof StanceTableSchema>;

export interface DesignerTop {
  id: string;
  /** Rank-1 option ids of the designer's ranking. */
  topChoice: string[];
}

/** Rank-1 option ids of a ranking (all of them when several share rank 1). */
export function topChoiceOf(entries: readonly { option: string; rank: number }[]): string[] {
  if (entries.length === 0) return [];
  const best = entries.reduce((m, e) => Math.min(m, e.rank), Infinity);
  return entries.filter((e) => e.rank === best).map((e) => e.option);
}

export function stanceTable(record: Pick<RunRecord, 'iterations'>, designers: readonly DesignerTop[]): StanceTable {
  const rows: StanceRow[] = designers.map((d) => {
    const backed: StanceRow['backed'] = [];
    for (const it of record.iterations) {
      if (it.backed && Object.prototype.hasOwnProperty.call(it.backed, d.id)) {
        backed.push({ iteration: it.index, candidate: it.backed[d.id] ?? null });
      }
    }
    const isTop = (c: string | null): boolean => c !== null && d.topChoice.includes(c);
    const firstOff = backed.find((b) => !isTop(b.candidate));
    let movedAt: StanceRow['movedAt'];
    if (firstOff) {
      const it = record.iterations.find((x) => x.index === firstOff.iteration);
      const own = (it?.messages ?? []).filter((m) => m.speaker === d.id && (m.kind ?? 'proxy') === 'proxy');
      movedAt = { iteration: firstOff.iteration, message: own.at(-1)?.id ?? null };
    }
    const lastReport = backed.at(-1);
    const outcome: StanceRow['outcome'] = !lastReport ? 'unknown' : isTop(lastReport.candidate) ? 'kept' : 'yielded';
    return {
      designer: d.id,
      topChoice: [...d.topChoice],
      backed,
      moved: firstOff !== undefined,
      ...(movedAt ? { movedAt } : {}),
      outcome,
      last: lastReport?.candidate ?? null,
    };
  });
  const yieldedTo: Record<string, string[]> = {};
  for (const r of rows) {
    if (r.outcome !== 'yielded') continue;
    const key = r.last ?? 'none';
    (yieldedTo[key] ??= []).push(r.designer);
  }
  return {
    rows,
    kept: rows.filter((r) => r.outcome === 'kept').length,
    yielded: rows.filter((r) => r.outcome === 'yielded').length,
    unknown: rows.filter((r) => r.outcome === 'unknown').length,
    yieldedTo,
  };
}

/** "2 kept their designer's top choice, 1 yielded (ben → r2)." */
export function stanceSentence(
  t: StanceTable,
  nameOf: (id: string) => string = (id) => id,
  labelOf: (id: string) => string = (id) => id,
): string {
  if (t.rows.length === 0 || t.unknown === t.rows.length)
    return 'No stance reports in this run (the remix agent did not report what each proxy backed).';
  const parts = [`${t.kept} kept their designer's top choice`, `${t.yielded} yielded`];
  const to = Object.entries(t.yieldedTo).map(([c, ds]) => `${ds.map(nameOf).join(', ')} → ${c === 'none' ? 'nothing' : labelOf(c)}`);
  const unknown = t.unknown ? `; ${t.unknown} not reported` : '';
  return `${parts.join(', ')}${to.length ? ` (${to.join('; ')})` : ''}${unknown}.`;
}
