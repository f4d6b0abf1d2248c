/**
 * Brief runs in `evaluate` (issue 17): per brief run what compare knows (the blind pair's preference counts with the sign
 * test, coverage of the last round, the survey) and the judge's verdicts when judge.json is there; pooled over the brief
 * runs: preference counts with one sign test over every member's choice that was not a tie, and coverage summed. Shown in
 * evaluate's table, its JSON and a chart (brief.svg) next to the design runs' numbers. Never writes.
 */
import type { RunRecord } from '../../record/record';
import { ReviewFileError } from '../../files/reviewFiles';
import { readJudgeFile, SIDES, type Side } from '../../judge/judgeFile';
import { DIMENSION_NAMES, JUDGE_DIMENSIONS, type JudgeDimension } from '../../judge/judgePrompts';
import { compareBriefRunWithTable, signTestP, type PreferenceSummary } from '../compare/briefCompare';
import type { SurveySummary } from '../compare/summaries';
import type { ConfirmationTable, CoverageCheck } from '../checks/coverageCheck';
import type { BriefFidelity } from '../../forecast/fidelity';

export interface BriefRunEvaluation {
  members: number;
  /** null until the run has its blind pair (rerank). */
  preference: PreferenceSummary | null;
  coverage: { kept: number; changed: number; leftOut: number };
  /** compare's check of the last round's coverage quotes and the members' confirmations (coverageCheck.ts). */
  coverageCheck: CoverageCheck;
  /** The confirmed points: the agent's status → the member's → how many (pooled over runs for one κ). */
  confirmationTable: ConfirmationTable;
  survey: SurveySummary;
  /** The judge's verdict per dimension (judge.json), null when the run was not judged. */
  judge: Record<JudgeDimension, Side> | null;
  /** Each proxy's sealed forecast against its member's blind choice (compare's `fidelity`); null without forecasts. */
  fidelity: BriefFidelity | null;
}

export interface BriefOverall {
  runs: number;
  /** Brief runs with a blind pair (their preference files are counted). */
  withBlindPair: number;
  /** Every member's choice over the brief runs; the sign test over the choices that were not ties. */
  preference: { n: number; teamfusion: number; direct: number; tie: number; signTestP: number | null };
  /** Over every member's points of each brief run's last round. */
  coverage: { kept: number; changed: number; leftOut: number };
  judged: number;
  /** Per dimension: in how many judged runs each side won (or it was a tie). */
  judge: Record<JudgeDimension, Record<Side, number>>;
}

/** A brief run's part of evaluate; problems of its files are returned beside it, never thrown. */
export async function collectBriefRun(reviewRoot: string, record: RunRecord): Promise<{ brief: BriefRunEvaluation; problems: string[] }> {
  const { result: c, confirmationTable } = await compareBriefRunWithTable(reviewRoot, record);
  const problems = [...c.problems];
  let judge: BriefRunEvaluation['judge'] = null;
  try {
    judge = (await readJudgeFile(reviewRoot, record.id))?.dimensions ?? null;
  } catch (err) {
    if (!(err instanceof ReviewFileError)) throw err;
    problems.push(/:\d+:\d+: error: /.test(err.message) ? err.message : `${err.file}:0:0: error: ${err.message}`);
  }
  return {
    brief: {
      members: c.team.length,
      preference: c.preference,
      coverage: c.coverage,
      coverageCheck: c.coverageCheck,
      confirmationTable,
      survey: c.survey,
      judge,
      fidelity: c.fidelity?.task === 'brief' ? c.fidelity : null,
    },
    problems,
  };
}

export function briefOverallOf(briefs: readonly BriefRunEvaluation[]): BriefOverall {
  const p = { n: 0, teamfusion: 0, direct: 0, tie: 0 };
  const coverage = { kept: 0, changed: 0, leftOut: 0 };
  const judge = Object.fromEntries(DIMENSION_NAMES.map((d) => [d, Object.fromEntries(SIDES.map((s) => [s, 0]))])) as BriefOverall['judge'];
  for (const b of briefs) {
    if (b.preference) for (const k of ['n', 'teamfusion', 'direct', 'tie'] as const) p[k] += b.preference[k];
    for (const k of ['kept', 'changed', 'leftOut'] as const) coverage[k] += b.coverage[k];
    if (b.judge) for (const d of DIMENSION_NAMES) judge[d][b.judge[d]]++;
  }
  return {
    runs: briefs.length,
    withBlindPair: briefs.filter((b) => b.preference).length,
    preference: { ...p, signTestP: signTestP(p.teamfusion, p.teamfusion + p.direct) },
    coverage,
    judged: briefs.filter((b) => b.judge).length,
    judge,
  };
}

const pValue = (x: number | null): string => (x === null ? '—' : x.toFixed(3));

/** The pooled brief-run numbers in one sentence (or none without brief runs). */
export function briefSentences(b: BriefOverall): string[] {
  if (b.runs === 0) return [];
  const p = b.preference;
  const c = b.coverage;
  const prefs =
    p.n === 0
      ? 'no member has said which revision they prefer yet'
      : `of ${p.n} blind choices, ${p.teamfusion} preferred TeamFusion's revised brief, ${p.direct} the direct revision and ${p.tie} tied (sign test p = ${pValue(p.signTestP)})`;
  return [
    `${b.runs} brief run${b.runs === 1 ? '' : 's'} (${b.withBlindPair} with a blind pair): ${prefs}; coverage ${c.kept} kept, ${c.changed} changed, ${c.leftOut} left out.`,
  ];
}

/** evaluation.md rows for the measures table (beside the design runs' numbers). */
export function briefMeasureRows(b: BriefOverall): string[] {
  const p = b.preference;
  const c = b.coverage;
  return [
    `| Brief runs: blind choices TeamFusion / direct / tie (sign test p) | ${b.runs ? `${p.teamfusion} / ${p.direct} / ${p.tie} (${pValue(p.signTestP)})` : '—'} | |`,
    `| Brief runs: members' points kept / changed / left out | ${b.runs ? `${c.kept} / ${c.changed} / ${c.leftOut}` : '—'} | |`,
  ];
}

/** evaluation.md's section of brief runs: one row per run (`cell` escapes file-controlled text). */
export function briefRunTable(
  rows: readonly { review: string; run: string; brief: BriefRunEvaluation }[],
  cell: (s: string) => string,
): string[] {
  if (!rows.length) return [];
  const out = [
    '## Brief runs',
    '',
    "Blind choices between the revised brief and the direct revision (preference files after `rerank`), the two-sided exact sign test over the members who did not tie, the coverage of every member's points in the last round, and the judge's verdicts (`judge`; a proxy for people's judgement, not a substitute).",
    '',
    '| review | run | members | TeamFusion / direct / tie | sign test p | kept / changed / left out | judge: TeamFusion / direct / tie |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const { review, run, brief: b } of rows) {
    const p = b.preference;
    const j = b.judge ? SIDES.map((s) => DIMENSION_NAMES.filter((d) => b.judge![d] === s).length).join(' / ') : '—';
    out.push(
      `| ${cell(review)} | ${cell(run)} | ${b.members} | ${p ? `${p.teamfusion} / ${p.direct} / ${p.tie}` : '—'} | ${p ? pValue(p.signTestP) : '—'} | ${b.coverage.kept} / ${b.coverage.changed} / ${b.coverage.leftOut} | ${j} |`,
    );
  }
  out.push('', `The judge's dimensions: ${DIMENSION_NAMES.map((d) => JUDGE_DIMENSIONS[d].label).join(', ')}.`, '');
  return out;
}
