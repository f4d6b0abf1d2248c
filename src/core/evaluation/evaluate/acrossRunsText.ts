/**
 * Measures across runs in words and text bars (evaluation.md and the terminal): the grouped table of `evaluate --by`, the
 * histogram of agreement bands before and after (the paper's Fig. 3), top 1 / top 2 of a generated option by team size
 * (Fig. 4), coverage, grounding and forks. Tables come back as rows of cells; `markdownTable` and `textTable` lay them
 * out, the caller escapes (Markdown: escapeMarkdown; terminal: printable). Pure.
 */
import { AGREEMENT_BANDS } from '../../stats/agreement/kendallW';
import { bandWords } from '../../stats/summary/sentence';
import type { AcrossRuns, ForkSideMeasures, RunMeasureSummary, WBands } from './acrossRuns';
import { FEW_RUNS, type GroupHead } from './groups';
import { kappaCell, kappaWords } from '../checks/coverageCheck';
import { GROUP_BY_WORDS, type GroupBy } from './groupBy';

/** The widest bar, in characters. */
const BAR = 20;

function bar(share: number): string {
  const k = Math.round(Math.max(0, Math.min(1, share)) * BAR);
  return '█'.repeat(share > 0 ? Math.max(1, k) : 0);
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;
}

function pct(x: number | null): string {
  return x === null ? '—' : `${Math.round(x * 100)}%`;
}

/** A mean with its 95% interval and n: "+0.12 [−0.05, +0.30] (n 4)", "—" without runs. */
export function withInterval(m: RunMeasureSummary, format: (x: number) => string = signed): string {
  if (m.mean === null) return '—';
  const interval = m.low !== null && m.high !== null ? ` [${format(m.low)}, ${format(m.high)}]` : '';
  return `${format(m.mean)}${interval} (n ${m.n})`;
}

export type Rows = { head: string[]; rows: string[][] };

/** The measures of each group (groups.ts) as one table. */
export function groupRows(groups: readonly (GroupHead & AcrossRuns & { totalCostUsd: number | null })[]): Rows {
  const by = groups[0]?.by;
  return {
    head: [
      by ?? 'group',
      'runs',
      'W change [95%]',
      'top 1 [95%]',
      'top 2 [95%]',
      'fidelity lift [95%]',
      'coverage verified / agreed / κ',
      'ungrounded per 100',
      'pool diversity [95%]',
      're-asked [95%]',
      'first proposal elected [95%]',
      'checklist pass [95%]',
      'cost',
      '',
    ],
    rows: groups.map((g) => [
      g.value,
      String(g.n),
      withInterval(g.perRun.wChange),
      withInterval(g.perRun.top1, pct),
      withInterval(g.perRun.top2, pct),
      withInterval(g.perRun.fidelityLift),
      g.coverageCheck.runs
        ? `${pct(g.coverageCheck.verifiedShare)} of ${g.coverageCheck.quotes} / ${pct(g.coverageCheck.confirmations.agreement)} of ${g.coverageCheck.confirmations.n} / ${kappaCell(g.coverageCheck.confirmations)}`
        : '—',
      g.grounding.per100 === null ? '—' : `${g.grounding.per100.toFixed(1)} (${g.grounding.messages} messages)`,
      withInterval(g.perRun.poolDiversity, (x) => x.toFixed(2)),
      withInterval(g.perRun.poolReasked, pct),
      withInterval(g.perRun.poolFirstElected, pct),
      withInterval(g.perRun.checklistPass, pct),
      g.totalCostUsd === null ? '—' : `$${g.totalCostUsd.toFixed(2)}`,
      g.tooFew ? `too few runs (< ${FEW_RUNS})` : '',
    ]),
  };
}

/** What a grouping means, in one sentence. */
export function groupSentence(by: GroupBy, groups: number): string {
  const words = GROUP_BY_WORDS[by];
  if (groups === 0) return `Runs grouped by ${words}: no run to group.`;
  return `Runs grouped by ${words}: ${groups} group${groups === 1 ? '' : 's'}. Intervals are 95% (t over runs; Wilson for top 1 / top 2); a group of fewer than ${FEW_RUNS} runs describes those runs only.`;
}

/** Fig. 3: re-ranked runs by the band of W before and after. */
export function bandRows(b: WBands): Rows {
  const max = Math.max(1, ...AGREEMENT_BANDS.flatMap((x) => [b.before[x.band], b.after[x.band]]));
  return {
    head: ['band', 'W', 'before', 'after'],
    rows: AGREEMENT_BANDS.map((x, i) => {
      const next = AGREEMENT_BANDS[i + 1];
      return [
        bandWords(x.band),
        next ? `${x.from.toFixed(1)}–${next.from.toFixed(1)}` : `${x.from.toFixed(1)}–1`,
        `${bar(b.before[x.band] / max)} ${b.before[x.band]}`,
        `${bar(b.after[x.band] / max)} ${b.after[x.band]}`,
      ];
    }),
  };
}

/** Fig. 4: a generated option in the blind top 1 / top 2, by team size (one row saying so without a re-ranked run). */
export function acceptanceRows(bySize: AcrossRuns['acceptanceByTeamSize']): Rows {
  const rows = Object.entries(bySize).map(([size, a]) => [
    size,
    String(a.runs),
    `${bar(a.top1Rate)} ${pct(a.top1Rate)}`,
    `${bar(a.top2Rate)} ${pct(a.top2Rate)}`,
  ]);
  return { head: ['team size', 're-ranked runs', 'top 1', 'top 2'], rows: rows.length ? rows : [['—', '0', 'no re-ranked run', '']] };
}

function forkWords(label: string, f: ForkSideMeasures): string {
  const pick = f.finalPickLowestRank;
  const rank =
    pick.mean === null
      ? 'no final pick in a blind re-rank set'
      : `the final pick's rank by its lowest-ranking member ${withInterval(pick, (x) => x.toFixed(2))} of ${pick.meanOptions!.toFixed(1)} options on average`;
  const rep =
    f.representative.mean === null
      ? 'no survey answer on "represents my view"'
      : `"represents my view" ${f.representative.mean.toFixed(2)} / 5 (n ${f.representative.n})`;
  return `${label}: ${f.runs} run${f.runs === 1 ? '' : 's'}; ${rank}; ${rep}.`;
}

/** The pool (issue 41): means over pooled runs of each run's figure over its pooled rounds. */
function poolWords(m: AcrossRuns['perRun']): string {
  const d = m.poolDiversity;
  if (d.n === 0) return 'Pools: no pooled run.';
  return `Pools over ${d.n} pooled run${d.n === 1 ? '' : 's'} (each run's share of its pooled rounds, averaged): diversity ${withInterval(d, (x) => x.toFixed(2))}; asked again ${withInterval(m.poolReasked, pct)}; the election chose the agent's own first proposal ${withInterval(m.poolFirstElected, pct)}.`;
}

/** The brief as a checklist (issue 41): the final picks' pass rate over the runs with checks. */
function checklistWords(m: RunMeasureSummary): string {
  return m.n === 0
    ? 'Checklist: no final pick checked against a checklist.'
    : `Checklist: the final picks passed ${withInterval(m, pct)} of the brief's checklist items (mean over runs).`;
}

/** Coverage, grounding, pools, the checklist and forks across runs, in sentences. */
export function acrossRunsSentences(a: AcrossRuns): string[] {
  const c = a.coverageCheck;
  const g = a.grounding;
  return [
    c.runs === 0
      ? 'Coverage checks: no brief run.'
      : `Coverage checks over ${c.runs} brief run${c.runs === 1 ? '' : 's'}: ${c.verified} of ${c.quotes} quotes found in the revised brief; ${c.unreported} member${c.unreported === 1 ? '' : 's'} the agent reported nothing for; members agreed with the agent's status on ${c.confirmations.agreed} of ${c.confirmations.n} confirmed points; pooled over them, ${kappaWords(c.confirmations)}.`,
    g.per100 === null
      ? 'Grounding: no model-written messages.'
      : `Grounding: ${g.ungrounded} ungrounded citation${g.ungrounded === 1 ? '' : 's'} in ${g.messages} model-written messages of ${g.runs} run${g.runs === 1 ? '' : 's'} (${g.per100.toFixed(1)} per 100 messages).`,
    poolWords(a.perRun),
    checklistWords(a.perRun.checklistPass),
    forkWords('Runs with forks', a.forks.with),
    forkWords('Runs without forks', a.forks.without),
  ];
}

/** Rows as a Markdown table (`cell` escapes each cell). */
export function markdownTable(t: Rows, cell: (s: string) => string): string[] {
  return [
    `| ${t.head.map(cell).join(' | ')} |`,
    `|${t.head.map(() => '---').join('|')}|`,
    ...t.rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ];
}

/** Rows as padded columns for a terminal (`cell` makes each cell printable). */
export function textTable(t: Rows, cell: (s: string) => string): string[] {
  const all = [t.head, ...t.rows].map((r) => r.map(cell));
  const widths = t.head.map((_, i) => Math.max(...all.map((r) => [...(r[i] ?? '')].length)));
  return all.map((r) =>
    r
      .map((c, i) => c + ' '.repeat((widths[i] ?? 0) - [...c].length))
      .join('  ')
      .trimEnd(),
  );
}
