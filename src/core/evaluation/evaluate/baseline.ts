/**
 * The comparison with the team's usual way (issue 19). A review with `condition: usual` in review.yaml was decided without
 * TeamFusion: it has no run; `decision.yaml` at its root says what the team picked and when (`pick`, `startedAt`,
 * `decidedAt`, ISO times) and its designers answer the same survey in `survey/<designer-id>.yaml` at its root (contract §6).
 * Everything is read and written through the review-files room; diagnostics are `file:line:col`.
 */
import { isMap, isScalar, parseYamlDocument, stringify } from '../../kernel/yaml';
import type { Node, YAMLMap } from 'yaml';
import { capKindDiagnostics, fileErrorDiagnostic, readKindText } from '../../files/fileKinds';
import { ReviewFileError, statInReview } from '../../files/reviewFiles';
import { writeKindFile } from '../../files/writeCaps';
import { error, sortDiagnostics, warning } from '../../diagnostics/diagnostics';
import type { Diagnostic } from '../../diagnostics/diagnostics';
import { closestId } from '../../rankings/suggest';
import { meanOrNull, tInterval95 } from '../../stats/mean';
import { loadSurveyFolder, SURVEY_QUESTIONS, type SurveyAnswer } from './feedback';
import type { SurveyQuestion } from './feedbackWords';
import { REFERENCE } from './reference';
import { pairOf, shownValue } from '../checks/memberFile';

import { CONDITIONS } from '../../review/reviewConfig';

export { CONDITIONS };
export type Condition = (typeof CONDITIONS)[number];

export const DECISION_FILE = 'decision.yaml';
/** A usual-way review's survey files sit at its root (a TeamFusion review's in runs/<run-id>/survey/). */
export const ROOT_SURVEY_DIR = 'survey';

export interface Decision {
  pick: string;
  startedAt: string;
  decidedAt: string;
}

const FIELDS = ['pick', 'startedAt', 'decidedAt'] as const;
/** ISO 8601 date and time with an offset or Z (seconds and fractions optional). */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/**
 * An ISO time that names a real moment: the calendar is checked field by field (2026-02-30, month 13, 24:00 and an offset
 * of +25:00 are refused), since Date.parse quietly rolls an impossible day over into the next month.
 */
export function isIsoTime(s: string): boolean {
  const m = ISO_TIME.exec(s);
  if (!m) return false;
  // A group that did not take part (no seconds, a Z zone) counts as 0.
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, offH = 0, offM = 0] = m
    .slice(1)
    .map((v) => (v === undefined ? 0 : Number(v)));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offH <= 23 &&
    offM <= 59 &&
    Number.isFinite(Date.parse(s))
  );
}

/** Validates the text of decision.yaml against the review's option ids. */
export function checkDecisionText(
  text: string,
  optionIds: readonly string[],
  file = DECISION_FILE,
): { decision?: Decision; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const { doc, startOf, firstError } = parseYamlDocument(text);
  if (firstError) {
    return { diagnostics: [error(file, `This is not valid YAML: ${firstError.problem}`, firstError.line, firstError.column)] };
  }
  if (!isMap(doc.contents))
    return { diagnostics: [error(file, 'decision.yaml must be a group of fields: pick:, startedAt:, decidedAt:.', 1, 1)] };
  const map = doc.contents as YAMLMap;
  for (const pair of map.items) {
    const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!(FIELDS as readonly string[]).includes(name))
      diagnostics.push(warning(file, `Unknown field "${name}" is ignored; the fields are ${FIELDS.join(', ')}.`, ...startOf(pair.key)));
  }
  const values: Partial<Record<(typeof FIELDS)[number], string>> = {};
  for (const key of FIELDS) {
    const pair = pairOf(map, key);
    if (!pair) {
      diagnostics.push(error(file, `The ${key} field is missing.`, 1, 1));
      continue;
    }
    const node = pair.value as Node | null;
    const v = isScalar(node) ? node.value : node ? 'a group' : null;
    const at = startOf(node ?? pair.key);
    // A pick may be written as a number (pick: 3); the option ids are text.
    const value = typeof v === 'number' && key === 'pick' ? String(v) : v;
    if (typeof value !== 'string' || value.trim() === '') {
      diagnostics.push(
        error(
          file,
          `${key} must be ${key === 'pick' ? 'an option id' : 'an ISO time like 2026-11-24T13:05:00Z'} (found ${shownValue(value)}).`,
          ...at,
        ),
      );
      continue;
    }
    const t = value.trim();
    if (key === 'pick') {
      if (!optionIds.includes(t)) {
        const guess = closestId(t, optionIds);
        diagnostics.push(
          error(
            file,
            `pick "${t.slice(0, 40)}" is not an option of this review${guess ? `; did you mean "${guess}"?` : '.'} The options are ${optionIds.join(', ')}.`,
            ...at,
          ),
        );
        continue;
      }
    } else if (!isIsoTime(t)) {
      diagnostics.push(
        error(
          file,
          `${key} must be a real ISO time with a zone (a day the calendar has), like 2026-11-24T13:05:00Z (found ${shownValue(t)}).`,
          ...at,
        ),
      );
      continue;
    }
    values[key] = t;
  }
  if (values.startedAt && values.decidedAt && Date.parse(values.decidedAt) < Date.parse(values.startedAt)) {
    diagnostics.push(
      error(
        file,
        `decidedAt (${values.decidedAt}) is before startedAt (${values.startedAt}); time runs forwards.`,
        ...startOf(pairOf(map, 'decidedAt')?.value),
      ),
    );
  }
  const sorted = sortDiagnostics(diagnostics);
  const { pick, startedAt, decidedAt } = values;
  // Every field missing or wrong was an error above, so with no error all three are there.
  if (sorted.some((d) => d.severity === 'error') || pick === undefined || startedAt === undefined || decidedAt === undefined)
    return { diagnostics: sorted };
  return { decision: { pick, startedAt, decidedAt }, diagnostics: sorted };
}

/** decision.yaml of a review: undefined when there is none; diagnostics when it cannot be read or is invalid. */
export async function loadDecision(
  root: string,
  optionIds: readonly string[],
): Promise<{ decision?: Decision; diagnostics: Diagnostic[]; present: boolean }> {
  let text: string;
  try {
    // Inside the try: a decision.yaml that leads outside (a link to .., say) is a diagnostic of its file like any other.
    if (!(await statInReview(root, DECISION_FILE))) return { diagnostics: [], present: false };
    text = await readKindText(root, DECISION_FILE, 'decision');
  } catch (err) {
    if (err instanceof ReviewFileError) return { diagnostics: [fileErrorDiagnostic(err)], present: true };
    throw err;
  }
  const checked = checkDecisionText(text, optionIds);
  return { ...checked, diagnostics: capKindDiagnostics(checked.diagnostics, 'decision'), present: true };
}

/** What `validate` adds for a usual-way review: decision.yaml (when present) and the survey files at the root. */
export async function usualWayDiagnostics(root: string, optionIds: readonly string[]): Promise<Diagnostic[]> {
  const d = await loadDecision(root, optionIds);
  const s = await loadSurveyFolder(root, ROOT_SURVEY_DIR);
  return sortDiagnostics([...d.diagnostics, ...s.diagnostics]);
}

/** Writes decision.yaml (validated first; throws the first problem as a `file:line:col` sentence). */
export async function writeDecision(root: string, optionIds: readonly string[], decision: Decision): Promise<string> {
  const text = `# The team's decision, made the usual way (without TeamFusion). Times are ISO 8601.\n${stringify(decision, { lineWidth: 0 })}`;
  const check = checkDecisionText(text, optionIds);
  const bad = check.diagnostics.find((d) => d.severity === 'error');
  if (bad) throw new Error(bad.message);
  await writeKindFile(root, DECISION_FILE, 'decision', text);
  return DECISION_FILE;
}

/** Minutes from startedAt to decidedAt. */
export function decisionMinutes(d: Decision): number {
  return (Date.parse(d.decidedAt) - Date.parse(d.startedAt)) / 60_000;
}

/** Exact two-sided sign test: p = min(1, 2 · P(X ≤ min(a, b))), X ~ Binomial(a + b, ½); null without answers. */
export function signTestP(a: number, b: number): number | null {
  const n = a + b;
  if (n === 0) return null;
  const k = Math.min(a, b);
  let p = 0;
  let c = 1; // C(n, 0)
  for (let i = 0; i <= k; i++) {
    p += c;
    c = (c * (n - i)) / (i + 1);
  }
  return Math.min(1, (2 * p) / 2 ** n);
}

/** What `evaluate` gathered about one review for the comparison of conditions. */
export interface ConditionReview {
  path: string;
  condition: Condition;
  /** Sorted designer ids: the team. */
  team: string[];
  answers: SurveyAnswer[];
  /** Minutes to each decision of the review (TeamFusion: per committed run; usual: decision.yaml). */
  minutes: number[];
}

export interface ConditionSide {
  reviews: number;
  survey: { n: number } & Record<SurveyQuestion, number | null>;
  /** Mean minutes to a decision over the decisions with both times; null without any. */
  decisionMinutes: number | null;
}

/** TeamFusion − usual averaged over the paired teams, with a 95% t interval over teams (null below two teams). */
export interface PairedDifference {
  diff: number | null;
  low: number | null;
  high: number | null;
  teams: number;
}

export interface TeamConditions {
  designers: string[];
  teamfusion: string[];
  usual: string[];
  paired: boolean;
}

export interface Conditions {
  teamfusion: ConditionSide;
  usual: ConditionSide;
  paired: { teams: number } & Record<SurveyQuestion | 'decisionMinutes', PairedDifference>;
  /** People (team + designer id) by the workflow they would choose; conflicting answers of one person are left out. */
  workflow: { teamfusion: number; usual: number; signTestP: number | null; conflicting: number };
  /** Every team with the reviews of each condition; a team with one condition is listed, not paired. */
  teams: TeamConditions[];
  reference: { survey: Record<SurveyQuestion, number>; decisionMinutes: { usual: number; teamfusion: number } };
}

function sideOf(reviews: readonly ConditionReview[]): ConditionSide {
  const answers = reviews.flatMap((r) => r.answers);
  const survey = { n: answers.length } as ConditionSide['survey'];
  for (const q of SURVEY_QUESTIONS)
    survey[q] = meanOrNull(
      answers.flatMap((a) => {
        const v = a[q];
        return v === undefined ? [] : [v];
      }),
    );
  return { reviews: reviews.length, survey, decisionMinutes: meanOrNull(reviews.flatMap((r) => r.minutes)) };
}

function pairedDifference(diffs: readonly number[]): PairedDifference {
  const { n, mean, low, high } = tInterval95(diffs);
  return { diff: mean, low, high, teams: n };
}

/** The two conditions side by side, paired within each team (the same set of designer ids). */
export function conditionsOf(reviews: readonly ConditionReview[]): Conditions {
  const byTeam = new Map<string, ConditionReview[]>();
  for (const r of reviews) {
    const key = r.team.join('\n');
    byTeam.set(key, [...(byTeam.get(key) ?? []), r]);
  }
  const teams: TeamConditions[] = [];
  const diffs: Record<SurveyQuestion | 'decisionMinutes', number[]> = {
    representative: [],
    clarity: [],
    satisfied: [],
    decisionMinutes: [],
  };
  for (const [, rs] of byTeam) {
    const tf = rs.filter((r) => r.condition === 'teamfusion');
    const usual = rs.filter((r) => r.condition === 'usual');
    const paired = tf.length > 0 && usual.length > 0;
    const [first] = rs;
    if (first === undefined) continue;
    teams.push({ designers: first.team, teamfusion: tf.map((r) => r.path), usual: usual.map((r) => r.path), paired });
    if (!paired) continue;
    const a = sideOf(tf);
    const b = sideOf(usual);
    for (const q of SURVEY_QUESTIONS) {
      const x = a.survey[q];
      const y = b.survey[q];
      if (x !== null && y !== null) diffs[q].push(x - y);
    }
    if (a.decisionMinutes !== null && b.decisionMinutes !== null) diffs.decisionMinutes.push(a.decisionMinutes - b.decisionMinutes);
  }
  // One vote per person: the workflow a person named (in any of the team's survey files); conflicting answers are left out.
  const votes = new Map<string, Set<string>>();
  for (const r of reviews) {
    for (const a of r.answers) {
      if (!a.workflow) continue;
      const who = `${r.team.join(',')}|${a.designer}`;
      votes.set(who, (votes.get(who) ?? new Set()).add(a.workflow));
    }
  }
  let forTf = 0;
  let forUsual = 0;
  let conflicting = 0;
  for (const v of votes.values()) {
    if (v.size > 1) conflicting++;
    else if (v.has('teamfusion')) forTf++;
    else forUsual++;
  }
  return {
    teamfusion: sideOf(reviews.filter((r) => r.condition === 'teamfusion')),
    usual: sideOf(reviews.filter((r) => r.condition === 'usual')),
    paired: {
      teams: teams.filter((t) => t.paired).length,
      representative: pairedDifference(diffs.representative),
      clarity: pairedDifference(diffs.clarity),
      satisfied: pairedDifference(diffs.satisfied),
      decisionMinutes: pairedDifference(diffs.decisionMinutes),
    },
    workflow: { teamfusion: forTf, usual: forUsual, signTestP: signTestP(forTf, forUsual), conflicting },
    teams,
    reference: { survey: { ...REFERENCE.survey }, decisionMinutes: { ...REFERENCE.decisionMinutes } },
  };
}

function n2(x: number | null): string {
  return x === null ? '—' : x.toFixed(2);
}

function signed(x: number | null): string {
  return x === null ? '—' : `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;
}

function minutes(x: number | null): string {
  return x === null ? '—' : `${x.toFixed(1)} min`;
}

/** The comparison in sentences (evaluate's text output and evaluation.md). */
export function conditionsSentences(c: Conditions): string[] {
  const out: string[] = [];
  const side = (name: string, s: ConditionSide, ref: string): string =>
    `${name}: ${s.reviews} review${s.reviews === 1 ? '' : 's'}, survey n = ${s.survey.n}: representative ${n2(s.survey.representative)}, clarity ${n2(s.survey.clarity)}, satisfied ${n2(s.survey.satisfied)}; decision ${minutes(s.decisionMinutes)}${ref}.`;
  const r = c.reference;
  out.push(
    side(
      'TeamFusion',
      c.teamfusion,
      ` (the study: ${r.survey.representative}, ${r.survey.clarity}, ${r.survey.satisfied}; ${r.decisionMinutes.teamfusion.toFixed(1)} min)`,
    ),
  );
  out.push(side('Usual way', c.usual, ` (the study: ${r.decisionMinutes.usual.toFixed(1)} min)`));
  const diff = (q: string, d: PairedDifference): string =>
    `${q} ${signed(d.diff)}${d.low !== null ? ` [${signed(d.low)}, ${signed(d.high)}]` : ''}`;
  if (c.paired.teams) {
    out.push(
      `Paired over ${c.paired.teams} team${c.paired.teams === 1 ? '' : 's'} (TeamFusion − usual, 95% interval over teams): ${diff('representative', c.paired.representative)}, ${diff('clarity', c.paired.clarity)}, ${diff('satisfied', c.paired.satisfied)}, decision minutes ${signed(c.paired.decisionMinutes.diff)}${c.paired.decisionMinutes.low !== null ? ` [${signed(c.paired.decisionMinutes.low)}, ${signed(c.paired.decisionMinutes.high)}]` : ''}.`,
    );
  } else out.push('No team has both a TeamFusion review and a usual-way review yet, so nothing is paired.');
  const single = c.teams.filter((t) => !t.paired);
  if (single.length)
    out.push(
      `Not paired (one condition only): ${single.map((t) => `${t.designers.join(', ')} (${[...t.teamfusion, ...t.usual].join(', ')})`).join('; ')}.`,
    );
  const w = c.workflow;
  out.push(
    `Would choose for similar tasks: TeamFusion ${w.teamfusion}, usual way ${w.usual}${w.signTestP !== null ? ` (exact sign test p = ${w.signTestP.toFixed(3)})` : ''}${w.conflicting ? `; ${w.conflicting} gave both answers and are left out` : ''}.`,
  );
  return out;
}
