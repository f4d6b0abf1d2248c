/**
 * Measures across runs (issue 32, items 3 and 6; issue 33): the agreement bands before and after (the paper's Fig. 3),
 * acceptance by team size (Fig. 4), coverage and grounding summed over runs, the final pick's rank by its lowest-ranking
 * member with and without forks, and every per-run measure (RUN_MEASURES) as a mean with its 95% interval and n. Pure:
 * the runs come in already collected (scripted runs never do: evaluate lists them apart). A missing value is null, never 0.
 */
import { AGREEMENT_BANDS, type AgreementBand } from '../../stats/agreement/kendallW';
import { meanOrNull, tInterval95 } from '../../stats/mean';
import { pooledKappa, type ConfirmationTable, type CoverageCheck } from '../checks/coverageCheck';
import type { Grounding } from '../../grounding/citations';
import type { FinalPickRank } from '../compare/finalPick';
import type { GroupBy } from './groupBy';

/** What a run brings to these measures (structurally evaluate's RunEvaluation). */
export interface RunMeasured {
  costUsd: number | null;
  grounding: Grounding;
  groupValues: Record<GroupBy, string>;
  compare: {
    before: { w: number; band: AgreementBand; designers: string[] };
    after: { w: number; band: AgreementBand } | null;
    acceptance: { top1: boolean; top2: boolean } | null;
    finalPick: FinalPickRank | null;
    survey: Survey;
  } | null;
  brief: { coverageCheck?: CoverageCheck; confirmationTable?: ConfirmationTable; survey: Survey } | null;
}

type Survey = { representative: number | null; answered: { representative: number } };

export type BandCounts = Record<AgreementBand, number>;
export interface WBands {
  before: BandCounts;
  after: BandCounts;
}

/** A per-run measure over runs: its mean with a 95% interval (t over runs; Wilson for a yes/no), null below two runs. */
export interface RunMeasureSummary {
  n: number;
  mean: number | null;
  low: number | null;
  high: number | null;
}

type Reading = number | boolean | undefined;

/** The value at `path` in a run's evaluation when it is a finite number or a boolean, else undefined. */
function at(...path: string[]): (run: unknown) => Reading {
  return (run) => {
    let v: unknown = run;
    for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    return typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) ? v : undefined;
  };
}

/**
 * THE per-run measures evaluate summarises and `--by` groups: a name and where a run's evaluation holds it (a run without
 * it does not count). A measure added to a run's evaluation (compare's `fidelity`, say) is one row here; a yes/no reads as
 * a share.
 */
export const RUN_MEASURES = [
  { name: 'wChange', of: at('compare', 'paired', 'change'), words: 'W change (mean Spearman after − before)' },
  { name: 'top1', of: at('compare', 'acceptance', 'top1'), words: 'a generated option is the blind top 1' },
  { name: 'top2', of: at('compare', 'acceptance', 'top2'), words: 'a generated option is in the blind top 2' },
  {
    name: 'fidelityLift',
    of: (r: unknown) => at('compare', 'fidelity', 'meanLift')(r) ?? at('brief', 'fidelity', 'meanLift')(r),
    words: 'proxy fidelity lift (persona − control)',
  },
  {
    name: 'coverageVerified',
    of: (r: unknown) => {
      const quotes = at('brief', 'coverageCheck', 'quotes')(r);
      const verified = at('brief', 'coverageCheck', 'verified')(r);
      return typeof quotes === 'number' && typeof verified === 'number' && quotes > 0 ? verified / quotes : undefined;
    },
    words: 'share of coverage quotes found in the revised brief',
  },
  {
    name: 'coverageAgreed',
    of: at('brief', 'coverageCheck', 'confirmations', 'agreement'),
    words: 'share of confirmed points whose status the member agreed with',
  },
  { name: 'ungroundedPer100', of: at('grounding', 'per100'), words: 'ungrounded citations per 100 messages' },
  { name: 'costUsd', of: at('costUsd'), words: 'cost of a run (USD)' },
  { name: 'poolDiversity', of: at('pool', 'meanDiversity'), words: "a pooled run's mean pool diversity (0–1)" },
  { name: 'poolReasked', of: at('pool', 'reaskRate'), words: "share of a pooled run's rounds asked again for directions that differ" },
  {
    name: 'poolFirstElected',
    of: at('pool', 'firstElectedRate'),
    words: "share of a pooled run's rounds whose election chose the agent's own first proposal",
  },
  { name: 'checklistPass', of: at('checklist', 'passRate'), words: 'share of the checklist items the final pick passed' },
] as const;
export type RunMeasureName = (typeof RUN_MEASURES)[number]['name'];

export interface AcrossRuns {
  /** Re-ranked runs by the agreement band of W before (all who ranked) and after (the blind re-rankings). */
  wBands: WBands;
  /** Re-ranked runs by team size: how often a generated option is the blind top 1 / in the top 2. */
  acceptanceByTeamSize: Record<string, { runs: number; top1: number; top2: number; top1Rate: number; top2Rate: number }>;
  /**
   * Brief runs' coverage checks summed: quotes found in the revised brief, members reported nothing for, confirmations —
   * with Cohen's κ pooled over every confirmed point of these runs (null with `kappaNote` saying why: too few to say).
   */
  coverageCheck: {
    runs: number;
    quotes: number;
    verified: number;
    unverified: number;
    verifiedShare: number | null;
    unreported: number;
    confirmations: { n: number; agreed: number; agreement: number | null; kappa: number | null; kappaNote: string | null };
  };
  /** Ungrounded citations summed over every run's model-written messages. */
  grounding: { runs: number; messages: number; ungrounded: number; per100: number | null };
  /** Runs with and without forks: the final pick's rank by its lowest-ranking member, and the survey's representative. */
  forks: Record<'with' | 'without', ForkSideMeasures>;
  /** Every RUN_MEASURES row over the runs. */
  perRun: Record<RunMeasureName, RunMeasureSummary>;
}

export interface ForkSideMeasures {
  runs: number;
  /** Over runs whose final pick is in their blind re-rank set. */
  finalPickLowestRank: RunMeasureSummary & { meanOptions: number | null };
  /** The survey's "represents my view" (1–5), pooled over the members who answered it. */
  representative: { n: number; mean: number | null };
}

function emptyBands(): BandCounts {
  return Object.fromEntries(AGREEMENT_BANDS.map((b) => [b.band, 0])) as BandCounts;
}

export function wBandsOf(runs: readonly RunMeasured[]): WBands {
  const out = { before: emptyBands(), after: emptyBands() };
  for (const r of runs) {
    if (!r.compare?.after) continue;
    out.before[r.compare.before.band]++;
    out.after[r.compare.after.band]++;
  }
  return out;
}

/** The share of yeses with its 95% Wilson interval (null below two). */
export function shareInterval(yes: number, n: number): RunMeasureSummary {
  if (n === 0) return { n, mean: null, low: null, high: null };
  const p = yes / n;
  if (n < 2) return { n, mean: p, low: null, high: null };
  const z = 1.959963984540054;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { n, mean: p, low: Math.max(0, c - h), high: Math.min(1, c + h) };
}

function summaryOf(runs: readonly unknown[], of: (run: unknown) => Reading): RunMeasureSummary {
  const values = runs.flatMap((r) => {
    const v = of(r);
    return v === undefined ? [] : [v];
  });
  if (values.length && values.every((v) => typeof v === 'boolean')) return shareInterval(values.filter((v) => v).length, values.length);
  return tInterval95(values.map(Number));
}

function forkSide(runs: readonly RunMeasured[]): ForkSideMeasures {
  const picks = runs.flatMap((r) => (r.compare?.finalPick ? [r.compare.finalPick] : []));
  let sum = 0;
  let n = 0;
  for (const s of runs.flatMap((r) => [r.compare?.survey, r.brief?.survey])) {
    if (!s || s.representative === null) continue;
    sum += s.representative * s.answered.representative;
    n += s.answered.representative;
  }
  return {
    runs: runs.length,
    finalPickLowestRank: { ...tInterval95(picks.map((p) => p.lowestRank)), meanOptions: meanOrNull(picks.map((p) => p.options)) },
    representative: { n, mean: n ? sum / n : null },
  };
}

export function acrossRunsOf(runs: readonly RunMeasured[]): AcrossRuns {
  const bySize: AcrossRuns['acceptanceByTeamSize'] = {};
  for (const r of runs) {
    const a = r.compare?.acceptance;
    if (!a) continue;
    const k = String(r.compare!.before.designers.length);
    const cur = bySize[k] ?? { runs: 0, top1: 0, top2: 0, top1Rate: 0, top2Rate: 0 };
    cur.runs++;
    if (a.top1) cur.top1++;
    if (a.top2) cur.top2++;
    cur.top1Rate = cur.top1 / cur.runs;
    cur.top2Rate = cur.top2 / cur.runs;
    bySize[k] = cur;
  }
  const checks = runs.flatMap((r) => (r.brief?.coverageCheck ? [r.brief.coverageCheck] : []));
  const quotes = checks.reduce((s, c) => s + c.quotes, 0);
  const verified = checks.reduce((s, c) => s + c.verified, 0);
  const confirmed = checks.reduce((s, c) => s + c.confirmations.n, 0);
  const agreed = checks.reduce((s, c) => s + Math.round((c.confirmations.agreement ?? 0) * c.confirmations.n), 0);
  // One κ on every confirmed point of these runs (not a mean of the runs' κ): the tables summed.
  const kappa = pooledKappa(runs.flatMap((r) => (r.brief?.confirmationTable ? [r.brief.confirmationTable] : [])));
  const messages = runs.reduce((s, r) => s + r.grounding.messages, 0);
  const ungrounded = runs.reduce((s, r) => s + r.grounding.ungrounded, 0);
  return {
    wBands: wBandsOf(runs),
    acceptanceByTeamSize: Object.fromEntries(Object.entries(bySize).sort(([a], [b]) => Number(a) - Number(b))),
    coverageCheck: {
      runs: checks.length,
      quotes,
      verified,
      unverified: quotes - verified,
      verifiedShare: quotes ? verified / quotes : null,
      unreported: checks.reduce((s, c) => s + c.unreported.length, 0),
      confirmations: {
        n: confirmed,
        agreed,
        agreement: confirmed ? agreed / confirmed : null,
        kappa: kappa.kappa,
        kappaNote: kappa.kappaNote,
      },
    },
    grounding: { runs: runs.length, messages, ungrounded, per100: messages ? Math.round((ungrounded / messages) * 100 * 100) / 100 : null },
    forks: {
      with: forkSide(runs.filter((r) => r.groupValues.forks === 'with')),
      without: forkSide(runs.filter((r) => r.groupValues.forks !== 'with')),
    },
    perRun: Object.fromEntries(RUN_MEASURES.map((m) => [m.name, summaryOf(runs, m.of)])) as AcrossRuns['perRun'],
  };
}
