/**
 * compareBriefRun: what "did it help?" knows about one brief run (issue 17) — which of the blind pair (rerank/A.md,
 * rerank/B.md) each member preferred, mapped through key.json to `teamfusion` or `direct`, with a two-sided exact sign
 * test over the members who did not tie; the survey means beside the study's; and the coverage of every member's points
 * in the last round. Missing preference or survey files are listed as missing, never an error. Never writes.
 */
import { scriptedFields } from '../checks/scripted';
import * as path from 'node:path';
import type { AuthorshipReport } from '../../authorship/door';
import { DRIVER_MADE, assertDriversRecord, driversFilesRefusal } from '../../record/recordAuthor';
import { formatDiagnostic } from '../../diagnostics/diagnostics';
import { statInReview, ReviewFileError } from '../../files/reviewFiles';
import { loadReview } from '../../review/loadReview';
import type { RunRecord } from '../../record/record';
import { readKey, type RerankKey } from '../../rerank/key';
import { rerankRel } from '../../rerank/paths';
import { loadPreferences, loadSurvey } from '../evaluate/feedback';
import { REFERENCE } from '../evaluate/reference';
import { summarizeSurvey, type SurveySummary } from './summaries';
import { confirmableCoverage, loadCoverageConfirmations } from '../checks/coverageConfirmations';
import { confirmationTableOf, coverageCheckOf, type ConfirmationTable, type CoverageCheck } from '../checks/coverageCheck';
import { groundingOf, type Grounding } from '../../grounding/citations';
import { runFidelity } from '../../forecast/runFidelity';
import { editedForkPassages } from '../../fork/briefFork';
import type { Fidelity } from '../../forecast/fidelity';

export interface PreferenceSummary {
  /** Members with a valid preference file. */
  n: number;
  teamfusion: number;
  direct: number;
  tie: number;
  /** Two-sided exact sign test over the members who did not tie; null when all tied (or nobody answered). */
  signTestP: number | null;
}

export interface BriefCompareResult {
  runId: string;
  task: 'brief';
  team: string[];
  /** null until the blind pair exists and its key can be read. */
  preference: PreferenceSummary | null;
  survey: SurveySummary;
  reference: { survey: typeof REFERENCE.survey };
  /** Over all members' points of the last round. */
  coverage: { kept: number; changed: number; leftOut: number };
  /** The last round's quotes checked against its revised brief, and the members' confirmations (agreement, Cohen's κ). */
  coverageCheck: CoverageCheck;
  /** Citations of images, ids and members the round did not show, per 100 model-written messages. */
  grounding: Grounding;
  /** Members without a preference / survey file (not an error). */
  missing: { preference: string[]; survey: string[] };
  /** Each proxy's sealed forecast against its member's blind choice (hit, control, lift); null without forecasts. */
  fidelity: Fidelity | null;
  fidelityNote: string | null;
  /** What stops the preference counts, in words; null when they are there. */
  note: string | null;
  problems: string[];
  /** Who wrote each member's file (issue 39): the files not counted, or why nothing is checked. */
  authorship: AuthorshipReport;
  /** The run was answered (in any part) by the bundled scripted server (evaluation/checks/scripted.ts): never part of a total. */
  scripted?: true;
  /** When only some parts were scripted: which part came from where, in one sentence (record/endpoints.ts). */
  scriptedParts?: string;
}

function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/** Two-sided exact sign test: P(|X − n/2| ≥ |k − n/2|) for X ~ Binomial(n, ½); null when n = 0. */
export function signTestP(k: number, n: number): number | null {
  if (n === 0) return null;
  const low = Math.min(k, n - k);
  let tail = 0;
  for (let i = 0; i <= low; i++) tail += choose(n, i);
  return Math.min(1, (2 * tail) / 2 ** n);
}

function coverageOf(record: RunRecord): BriefCompareResult['coverage'] {
  const last = [...record.iterations].reverse().find((it) => it.brief);
  const out = { kept: 0, changed: 0, leftOut: 0 };
  for (const c of last?.brief?.coverage ?? []) {
    if (c.status === 'kept') out.kept++;
    else if (c.status === 'changed') out.changed++;
    else out.leftOut++;
  }
  return out;
}

export async function compareBriefRun(reviewRoot: string, record: RunRecord): Promise<BriefCompareResult> {
  return (await compareBriefRunWithTable(reviewRoot, record)).result;
}

/** compareBriefRun, and the run's confirmed points as a table (evaluate pools them over runs for one κ). */
export async function compareBriefRunWithTable(
  reviewRoot: string,
  record: RunRecord,
): Promise<{ result: BriefCompareResult; confirmationTable: ConfirmationTable }> {
  const root = path.resolve(reviewRoot);
  const runId = record.id;
  const loaded = await loadReview(root, { requireRankings: false, decodeImages: false });
  if (!loaded.review) {
    const first = loaded.diagnostics.find((d) => d.severity === 'error');
    throw new Error(`The review cannot be read${first ? `: ${formatDiagnostic(first)}` : '.'}`);
  }
  await assertDriversRecord(root, runId, loaded.authorship);
  const chosen = record.settings.designers;
  const team = loaded.review.comments.map((c) => c.designer).filter((id) => !chosen || chosen.includes(id));
  const problems: string[] = [];
  const door = loaded.authorship;
  const prefs = await loadPreferences(root, runId, team, door);
  const survey = await loadSurvey(root, runId, team, door);
  const confirmed = await loadCoverageConfirmations(root, record, team, door);
  for (const d of [...prefs.diagnostics, ...survey.diagnostics]) if (d.severity === 'error') problems.push(formatDiagnostic(d));
  // A coverage file's warnings say what of it is ignored (an unknown field): said too, not only its errors.
  for (const d of confirmed.diagnostics) problems.push(formatDiagnostic(d));
  // A fork passage edited after the run is said (the panel shows the vote without it).
  problems.push(...(await editedForkPassages(root, record)));

  let key: RerankKey | undefined;
  let note: string | null = null;
  // The blind pair counts only as its maker, the run's driver, committed it (issue 39, item 3).
  const unmade = (await statInReview(root, rerankRel(runId)))
    ? await driversFilesRefusal(root, runId, DRIVER_MADE.rerank.owned, door, DRIVER_MADE.rerank.alone)
    : undefined;
  if (!(await statInReview(root, rerankRel(runId)))) {
    note = `There is no blind pair yet: make it with "teamfusion rerank <review> ${runId}", then each member writes preference/<designer-id>.yaml.`;
  } else if (unmade) {
    problems.push(`${unmade.file}:0:0: error: ${unmade.sentence}`);
    note = `The blind pair is not counted: ${unmade.sentence}`;
  } else {
    try {
      key = await readKey(root, runId, record.rerankKeySha256);
    } catch (err) {
      if (!(err instanceof ReviewFileError)) throw err;
      problems.push(/:\d+:\d+: error: /.test(err.message) ? err.message : `${err.file}:0:0: error: ${err.message}`);
      note = 'The key of the blind pair cannot be read, so the letters cannot be told apart.';
    }
  }
  let preference: PreferenceSummary | null = null;
  if (key) {
    const p = { n: 0, teamfusion: 0, direct: 0, tie: 0 };
    for (const a of prefs.answers) {
      const kind = a.prefer === 'tie' ? 'tie' : key[a.prefer]?.kind;
      if (kind === 'teamfusion' || kind === 'direct' || kind === 'tie') {
        p.n++;
        p[kind]++;
      } else problems.push(`${a.file}:1:1: error: prefer: ${a.prefer} is not a letter of this run's blind pair.`);
    }
    preference = { ...p, signTestP: signTestP(p.teamfusion, p.teamfusion + p.direct) };
  }
  const f = key
    ? await runFidelity(root, record, { task: 'brief', preferences: prefs.answers }, { letters: Object.keys(key).sort(), team }, door)
    : { fidelity: null, note: null, problem: null, ignored: [] };
  if (f.problem) problems.push(f.problem);
  problems.push(...f.ignored);
  const answered = (xs: { designer: string }[]) => new Set(xs.map((x) => x.designer));
  // A member whose preference file is broken has one: its problem is said, not "no preference file yet".
  const hasPref = new Set([
    ...answered(prefs.answers),
    ...team.filter((id) => prefs.diagnostics.some((d) => d.severity === 'error' && d.file.endsWith(`/${id}.yaml`))),
  ]);
  const hasSurvey = answered(survey.answers);
  const coverage = confirmableCoverage(record);
  const result: BriefCompareResult = {
    runId,
    task: 'brief',
    team,
    preference,
    survey: summarizeSurvey(survey.answers),
    reference: { survey: REFERENCE.survey },
    coverage: coverageOf(record),
    coverageCheck: coverageCheckOf(coverage, team, confirmed.confirmations),
    grounding: groundingOf(record),
    fidelity: f.fidelity,
    fidelityNote: f.note,
    missing: { preference: team.filter((id) => !hasPref.has(id)), survey: team.filter((id) => !hasSurvey.has(id)) },
    note,
    problems,
    authorship: door?.report() ?? { checked: false, why: "Who wrote each member's file was not asked.", notCounted: [] },
    ...scriptedFields(record),
  };
  return { result, confirmationTable: confirmationTableOf(coverage, confirmed.confirmations) };
}

const two = (x: number | null): string => (x === null ? 'no answer' : x.toFixed(2));

/** The comparison in sentences. */
export function briefComparisonSentences(c: BriefCompareResult): string[] {
  const out: string[] = [`Brief run ${c.runId}, team of ${c.team.length} (${c.team.join(', ')}).`];
  const p = c.preference;
  if (!p) out.push(c.note ?? 'There are no preference counts yet.');
  else if (p.n === 0) out.push('Nobody has said which brief they prefer yet (preference/<designer-id>.yaml, prefer: A, B or tie).');
  else {
    out.push(
      `Of ${p.n} member${p.n === 1 ? '' : 's'} who chose blind, ${p.teamfusion} preferred TeamFusion's revised brief, ${p.direct} the direct revision, and ${p.tie} called it a tie.`,
    );
    out.push(
      p.signTestP === null
        ? 'Everyone tied, so there is no sign test.'
        : `Two-sided exact sign test over the ${p.teamfusion + p.direct} who did not tie: p = ${p.signTestP.toFixed(3)}.`,
    );
  }
  if (c.survey.n === 0) out.push('Nobody has answered the survey yet.');
  else
    out.push(
      `Survey means (${c.survey.n} answered; the study's in brackets): representative ${two(c.survey.representative)} (${c.reference.survey.representative}), clarity ${two(c.survey.clarity)} (${c.reference.survey.clarity}), satisfied ${two(c.survey.satisfied)} (${c.reference.survey.satisfied}).`,
    );
  const cv = c.coverage;
  out.push(`Coverage of the members' points in the last round: ${cv.kept} kept, ${cv.changed} changed, ${cv.leftOut} left out.`);
  out.push(...coverageCheckSentences(c.coverageCheck));
  out.push(groundingSentence(c.grounding));
  if (c.missing.preference.length) out.push(`No preference file yet from: ${c.missing.preference.join(', ')}.`);
  if (c.missing.survey.length) out.push(`No survey file yet from: ${c.missing.survey.join(', ')}.`);
  return out;
}

/** The coverage check in sentences: quotes found, members reported nothing for, the members' confirmations. */
export function coverageCheckSentences(k: CoverageCheck): string[] {
  const out = [
    `Coverage quotes found in the revised brief: ${k.verified} of ${k.quotes}${k.unverified ? ` (${k.unverified} not found: verified false)` : ''}.`,
  ];
  for (const id of k.unreported) out.push(`The agent reported nothing for ${id}.`);
  const c = k.confirmations;
  if (c.n === 0) out.push('No member has confirmed the coverage of their points yet (coverage/<designer-id>.yaml).');
  else {
    const kappa =
      c.kappa === null
        ? "Cohen's κ cannot be computed (every status is the same, so chance alone explains the agreement)"
        : `Cohen's κ = ${c.kappa.toFixed(2)}`;
    out.push(
      `Members agreed with the agent's status on ${Math.round((c.agreement ?? 0) * 100)}% of ${c.n} confirmed point${c.n === 1 ? '' : 's'}; ${kappa}.`,
    );
  }
  return out;
}

/** Ungrounded citations in a sentence (design and brief runs). */
export function groundingSentence(g: Grounding): string {
  if (g.messages === 0) return 'No model-written messages, so no citations to check.';
  return `Citations of what the round did not show: ${g.ungrounded} in ${g.messages} model-written message${g.messages === 1 ? '' : 's'} (${g.per100!.toFixed(1)} per 100 messages).`;
}
