/**
 * The pool and the checklist in the evaluation (issue 41, items 2 and 4): per pooled round its diversity, whether it was
 * asked again and whether the election chose the agent's own first proposal (letter "a" among the elected); per run the
 * same over its pooled rounds; and the final pick's checks against the brief's checklist, with the failed items' quotes.
 * Pure: read from the run record only.
 */
import type { RunRecord } from '../../record/record';
import { remixesOf } from '../../record/remixes';

/** The letter of the remix agent's own first proposal in a pool. */
export const FIRST_PROPOSAL = 'a';

/** One pooled round, as compare reports it. */
export interface PoolRoundReport {
  iteration: number;
  candidates: number;
  elected: string[];
  diversity: number;
  reasked: boolean;
  /** The election chose the agent's own first proposal: "a" is among the elected. */
  firstElected: boolean;
}

/** A run's pooled rounds in one line of figures: the per-run values `evaluate` averages over runs. */
export interface PoolSummary {
  rounds: number;
  meanDiversity: number;
  /** Share of the pooled rounds asked again for directions that differ. */
  reaskRate: number;
  /** Share of the pooled rounds whose election chose the agent's own first proposal. */
  firstElectedRate: number;
}

/** The final pick's checks against the run's checklist; `passRate` is passes over the checklist's items. */
export interface FinalPickChecks {
  remix: string;
  items: number;
  pass: number;
  fail: number;
  unclear: number;
  passRate: number;
  failed: { item: string; text: string; quote: string; reason: string }[];
}

/** Every round of the run that elected from a pool, in round order. */
export function poolRoundsOf(record: Pick<RunRecord, 'iterations'>): PoolRoundReport[] {
  return record.iterations.flatMap((it) => {
    const p = it.pool;
    if (!p?.elected.length) return [];
    return [
      {
        iteration: it.index,
        candidates: p.candidates.length,
        elected: [...p.elected],
        diversity: p.diversity,
        reasked: p.reasked,
        firstElected: p.elected.includes(FIRST_PROPOSAL),
      },
    ];
  });
}

/** The run's pooled rounds summed up; null when no round was pooled. */
export function poolSummaryOf(record: Pick<RunRecord, 'iterations'>): PoolSummary | null {
  const rounds = poolRoundsOf(record);
  if (!rounds.length) return null;
  const share = (f: (r: PoolRoundReport) => boolean): number => rounds.filter(f).length / rounds.length;
  return {
    rounds: rounds.length,
    meanDiversity: rounds.reduce((s, r) => s + r.diversity, 0) / rounds.length,
    reaskRate: share((r) => r.reasked),
    firstElectedRate: share((r) => r.firstElected),
  };
}

/**
 * The final pick's remix checked against the checklist; null when the run has no checklist with items, no final pick, or
 * the final pick is not a remix with checks (an original option is never checked). An item without a check counts as
 * not passed.
 */
export function finalPickChecksOf(record: Pick<RunRecord, 'iterations' | 'checklist' | 'finalPick'>): FinalPickChecks | null {
  const items = record.checklist?.items ?? [];
  if (!items.length || record.finalPick === undefined) return null;
  const remix = record.iterations.flatMap((it) => remixesOf(it)).find((m) => m.id === record.finalPick);
  if (!remix?.checks?.length) return null;
  const resultOf = (id: string) => remix.checks!.find((c) => c.item === id);
  const count = (result: string) => items.filter((i) => resultOf(i.id)?.result === result).length;
  const pass = count('pass');
  return {
    remix: remix.id,
    items: items.length,
    pass,
    fail: count('fail'),
    unclear: count('unclear'),
    passRate: pass / items.length,
    failed: items.flatMap((i) => {
      const c = resultOf(i.id);
      return c?.result === 'fail' ? [{ item: i.id, text: i.text, quote: i.quote, reason: c.reason }] : [];
    }),
  };
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** compare's sentences on the pool and the final pick's checklist (none when the run has neither). */
export function poolCheckSentences(c: { pool: readonly PoolRoundReport[]; checklist: FinalPickChecks | null }): string[] {
  const out = c.pool.map(
    (r) =>
      `Round ${r.iteration} elected ${r.elected.join(', ')} of a pool of ${r.candidates} (diversity ${r.diversity.toFixed(2)}${r.reasked ? ', asked again for directions that differ' : ''}); ` +
      `${r.firstElected ? 'the election chose' : 'the election did not choose'} the agent's own first proposal (a).`,
  );
  const k = c.checklist;
  if (k) {
    out.push(
      `The final pick ${k.remix} passed ${k.pass} of the brief's ${k.items} checklist items (${pct(k.passRate)}; ${k.fail} failed, ${k.unclear} unclear).`,
    );
    for (const f of k.failed) out.push(`Failed: ${f.text} — the brief: "${f.quote}" (${f.reason})`);
  }
  return out;
}
