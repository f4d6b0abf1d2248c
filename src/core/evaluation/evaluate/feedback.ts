/**
 * The designers' feedback on a run, validated like rankings (`file:line:col: error: …` at the offending node):
 *   runs/<run-id>/ratings/<designer-id>.yaml  `designer`, `ratings: [{message, score 1–5, comment?}]` — only messages of
 *                                             the designer's own proxy (kind "proxy", speaker = designer) can be rated;
 *   runs/<run-id>/survey/<designer-id>.yaml   `designer`, `representative`, `clarity`, `satisfied` (each 1–5), `comment?`,
 *                                             `workflow?` (teamfusion | usual: which they would choose for similar tasks);
 *                                             a usual-way review keeps the same files in survey/ at its root.
 *   runs/<run-id>/preference/<id>.yaml (brief run) `designer`, `prefer: A | B | tie` (letters of rerank/), `why?`.
 * Files are read as their kind in the file-kind table (contained, regular, capped, nesting checked) and written atomically;
 * each is matched to the team by its name with the one id rule (designerId.ts): a file named after nobody on the team, or
 * spelled otherwise than the designer's id (`ANA`, `ａｎａ` beside `ana`), is refused in words and not counted.
 */
import * as path from 'node:path';
import { stringify } from '../../kernel/yaml';
import type { AuthorshipDoor } from '../../authorship/door';
import { reviewAuthorship } from '../../review/loadReview';
import { capKindDiagnostics, fileErrorDiagnostic, readKindText, type FileKindName } from '../../files/fileKinds';
import { listInReview, ReviewFileError } from '../../files/reviewFiles';
import { printable } from '../../kernel/text';
import { writeKindFile } from '../../files/writeCaps';
import { DESIGNER_ID_PATTERN, designerKey, filesForOneId, oneIdTwiceMessage } from '../../rankings/designerId';
import { error, sortDiagnostics } from '../../diagnostics/diagnostics';
import type { Diagnostic } from '../../diagnostics/diagnostics';
import { allMessages, type RunRecord } from '../../record/record';
import { preferenceRel, ratingsRel, surveyRel } from '../../rerank/paths';
import { RATING_WORDING, SURVEY_QUESTIONS } from './feedbackWords';
import {
  checkDesigner,
  checkMemberList,
  designerIdOfFile,
  pairOf,
  parseMap,
  shownValue,
  unknownFields,
  valuePos,
  type MemberList,
} from '../checks/memberFile';

export { SURVEY_QUESTIONS, SURVEY_WORDING, RATING_WORDING } from './feedbackWords';
export type { SurveyQuestion } from './feedbackWords';

export interface Rating {
  message: string;
  score: number;
  comment?: string;
}

export interface DesignerRatings {
  designer: string;
  file: string;
  ratings: Rating[];
}

export interface SurveyAnswer {
  designer: string;
  file: string;
  representative?: number;
  clarity?: number;
  satisfied?: number;
  /** Which workflow they would choose for similar tasks (issue 19). */
  workflow?: Workflow;
  comment?: string;
}

export const WORKFLOWS = ['teamfusion', 'usual'] as const;
export type Workflow = (typeof WORKFLOWS)[number];

export function isScore(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 5;
}

/** Which message ids a designer may rate: their own proxy's messages. */
export function ratableMessages(record: Pick<RunRecord, 'iterations'>, designer: string): string[] {
  return allMessages(record)
    .filter(({ message }) => (message.kind ?? 'proxy') === 'proxy' && message.speaker === designer)
    .map(({ message }) => message.id!)
    .filter((id) => id !== undefined);
}

const RATINGS_LIST: MemberList = {
  what: 'A ratings file',
  field: 'ratings',
  required: ['message', 'score'],
  allowed: ['message', 'score', 'comment'],
  per: 'per rated message',
};

/** Validates the text of runs/<id>/ratings/<designer>.yaml against the run record. */
export function checkRatingsText(
  text: string,
  file: string,
  record: Pick<RunRecord, 'iterations'>,
): { ratings?: DesignerRatings; diagnostics: Diagnostic[] } {
  const messages = new Map(allMessages(record).map(({ message }) => [message.id, message]));
  const ratings: Rating[] = [];
  const seen = new Set<string>();
  const { designer, diagnostics } = checkMemberList(text, file, RATINGS_LIST, ({ e, item, at }, { expected, posOf, diagnostics }) => {
    const msgAt = valuePos(pairOf(item, 'message'), posOf, at);
    const scoreAt = valuePos(pairOf(item, 'score'), posOf, at);
    let ok = true;
    const id = e.message;
    const msg = typeof id === 'string' ? messages.get(id) : undefined;
    if (typeof id !== 'string') {
      diagnostics.push(error(file, `message must be a message id like i1-m2 (found ${shownValue(id)}).`, msgAt.line, msgAt.column));
      ok = false;
    } else if (!msg) {
      diagnostics.push(error(file, `There is no message "${id}" in this run.`, msgAt.line, msgAt.column));
      ok = false;
    } else if ((msg.kind ?? 'proxy') !== 'proxy') {
      diagnostics.push(error(file, `Message ${id} is a ${msg.kind} message; only proxy messages can be rated.`, msgAt.line, msgAt.column));
      ok = false;
    } else if (msg.speaker !== expected) {
      diagnostics.push(
        error(
          file,
          `Message ${id} is by ${msg.speaker}'s proxy; ${expected} rates only their own proxy's messages.`,
          msgAt.line,
          msgAt.column,
        ),
      );
      ok = false;
    } else if (seen.has(id)) {
      diagnostics.push(error(file, `Message ${id} is rated twice; keep one rating.`, msgAt.line, msgAt.column));
      ok = false;
    }
    if (!isScore(e.score)) {
      diagnostics.push(
        error(file, `score must be a whole number from 1 to 5 (found ${shownValue(e.score)}).`, scoreAt.line, scoreAt.column),
      );
      ok = false;
    }
    if (e.comment !== undefined && e.comment !== null && typeof e.comment !== 'string') {
      const p = valuePos(pairOf(item, 'comment'), posOf, at);
      diagnostics.push(error(file, 'comment must be text.', p.line, p.column));
      ok = false;
    }
    if (!ok) return;
    seen.add(id as string);
    const r: Rating = { message: id as string, score: e.score as number };
    if (typeof e.comment === 'string' && e.comment.trim() !== '') r.comment = e.comment;
    ratings.push(r);
  });
  const sorted = sortDiagnostics(diagnostics);
  if (designer === undefined || sorted.some((d) => d.severity === 'error')) return { diagnostics: sorted };
  return { ratings: { designer, file, ratings }, diagnostics: sorted };
}

/** Validates the text of runs/<id>/survey/<designer>.yaml. */
export function checkSurveyText(text: string, file: string): { survey?: SurveyAnswer; diagnostics: Diagnostic[] } {
  const expected = designerIdOfFile(file);
  const { map, data, posOf, diagnostics } = parseMap(text, file, 'A survey file');
  if (!map || !data) return { diagnostics };
  unknownFields(map, ['designer', ...SURVEY_QUESTIONS, 'workflow', 'comment'], file, posOf, diagnostics);
  const designer = checkDesigner(map, data, file, expected, posOf, diagnostics);
  const out: SurveyAnswer = { designer: expected, file };
  let answered = 0;
  for (const q of SURVEY_QUESTIONS) {
    const pair = pairOf(map, q);
    if (!pair || data[q] === null) continue;
    const at = valuePos(pair, posOf, posOf(pair));
    if (!isScore(data[q]))
      diagnostics.push(
        error(
          file,
          `${q} must be a whole number from 1 (strongly disagree) to 5 (strongly agree), found ${shownValue(data[q])}.`,
          at.line,
          at.column,
        ),
      );
    else {
      out[q] = data[q] as number;
      answered++;
    }
  }
  if (data.workflow !== undefined && data.workflow !== null) {
    const at = valuePos(pairOf(map, 'workflow'), posOf, { line: 1, column: 1 });
    if (typeof data.workflow === 'string' && (WORKFLOWS as readonly string[]).includes(data.workflow.trim())) {
      out.workflow = data.workflow.trim() as Workflow;
      answered++;
    } else
      diagnostics.push(
        error(
          file,
          `workflow must be teamfusion or usual (which you would choose for similar tasks), found ${shownValue(data.workflow)}.`,
          at.line,
          at.column,
        ),
      );
  }
  if (data.comment !== undefined && data.comment !== null) {
    if (typeof data.comment !== 'string') {
      const at = valuePos(pairOf(map, 'comment'), posOf, { line: 1, column: 1 });
      diagnostics.push(error(file, 'comment must be text.', at.line, at.column));
    } else if (data.comment.trim() !== '') out.comment = data.comment;
  }
  if (answered === 0 && !diagnostics.some((d) => d.severity === 'error')) {
    diagnostics.push(error(file, `The file answers none of ${SURVEY_QUESTIONS.join(', ')}; answer at least one (1–5).`, 1, 1));
  }
  const sorted = sortDiagnostics(diagnostics);
  if (designer === undefined || sorted.some((d) => d.severity === 'error')) return { diagnostics: sorted };
  return { survey: out, diagnostics: sorted };
}

export const PREFERENCES = ['A', 'B', 'tie'] as const;
export type Prefer = (typeof PREFERENCES)[number];

export interface PreferenceAnswer {
  designer: string;
  file: string;
  prefer: Prefer;
  why?: string;
}

/** Validates the text of runs/<id>/preference/<designer>.yaml (a brief run's blind pair). */
export function checkPreferenceText(text: string, file: string): { preference?: PreferenceAnswer; diagnostics: Diagnostic[] } {
  const expected = designerIdOfFile(file);
  const { map, data, posOf, diagnostics } = parseMap(text, file, 'A preference file');
  if (!map || !data) return { diagnostics };
  unknownFields(map, ['designer', 'prefer', 'why'], file, posOf, diagnostics);
  const designer = checkDesigner(map, data, file, expected, posOf, diagnostics);
  const pair = pairOf(map, 'prefer');
  let prefer: Prefer | undefined;
  if (!pair) diagnostics.push(error(file, 'The prefer field is missing. Add prefer: A, prefer: B or prefer: tie.', 1, 1));
  else {
    const at = valuePos(pair, posOf, posOf(pair));
    const v = typeof data.prefer === 'string' ? data.prefer.trim() : undefined;
    if (v !== undefined && (PREFERENCES as readonly string[]).includes(v)) prefer = v as Prefer;
    else
      diagnostics.push(
        error(
          file,
          `prefer must be A, B or tie (the letters of rerank/A.md and rerank/B.md), found ${shownValue(data.prefer)}.`,
          at.line,
          at.column,
        ),
      );
  }
  let why: string | undefined;
  if (data.why !== undefined && data.why !== null) {
    if (typeof data.why !== 'string') {
      const at = valuePos(pairOf(map, 'why'), posOf, { line: 1, column: 1 });
      diagnostics.push(error(file, 'why must be text.', at.line, at.column));
    } else if (data.why.trim() !== '') why = data.why;
  }
  const sorted = sortDiagnostics(diagnostics);
  if (designer === undefined || prefer === undefined || sorted.some((d) => d.severity === 'error')) return { diagnostics: sorted };
  return { preference: { designer, file, prefer, ...(why ? { why } : {}) }, diagnostics: sorted };
}

/** Every valid preference file of a brief run, plus the diagnostics of the others (capped per file); `team` as for loadRatings. */
export async function loadPreferences(
  root: string,
  runId: string,
  team?: readonly string[],
  door?: AuthorshipDoor,
): Promise<{ answers: PreferenceAnswer[]; diagnostics: Diagnostic[] }> {
  const { found, diagnostics } = await loadMemberFiles(
    root,
    preferenceRel(runId),
    'preference',
    team,
    (text, rel) => {
      const r = checkPreferenceText(text, rel);
      return { value: r.preference, diagnostics: r.diagnostics };
    },
    undefined,
    door,
  );
  return { answers: found, diagnostics };
}

/**
 * Every valid member file of `folder`, read as `kind`: a file named after no one of `team` is refused (teamProblem), one
 * `skip` refuses is passed over (it says why in `out`), the others are read (readFeedback) and checked by `check`, whose
 * diagnostics are kept and whose value, when the file is valid, is collected. The diagnostics are capped per file.
 */
export async function loadMemberFiles<T>(
  root: string,
  folder: string,
  kind: FileKindName,
  team: readonly string[] | undefined,
  check: (text: string, rel: string) => { value: T | undefined; diagnostics: Diagnostic[] },
  skip?: (f: { rel: string; id: string }, out: Diagnostic[]) => Promise<boolean>,
  door?: AuthorshipDoor | null,
): Promise<{ found: T[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const found: T[] = [];
  const files = await yamlFiles(root, folder, diagnostics);
  // Who wrote each file (issue 39): the review's door unless the caller checks itself (null, with `skip`).
  const authors = door === null || files.length === 0 ? undefined : (door ?? (await reviewAuthorship(root)));
  // ben.yaml beside ben.yml: neither counts (a file named after no one of the team is refused by its own rule first).
  const twice = filesForOneId(
    files.filter((f) => !teamProblem(f, team)).map((f) => f.rel),
    (rel) => designerIdOfFile(rel),
  );
  for (const f of files) {
    const others = twice.get(f.rel);
    if (others) {
      diagnostics.push(error(f.rel, oneIdTwiceMessage(f.rel, others, f.id), 1, 1));
      continue;
    }
    const notOurs = teamProblem(f, team);
    if (notOurs) {
      diagnostics.push(notOurs);
      continue;
    }
    if (skip && (await skip(f, diagnostics))) continue;
    const forged = await authors?.check(path.join(root, ...f.rel.split('/')), f.id);
    if (forged) {
      diagnostics.push(error(f.rel, `This file is not counted: ${forged.reason}; each member speaks only as themselves.`, 1, 1));
      continue;
    }
    const text = await readFeedback(root, f.rel, kind, diagnostics);
    if (text === undefined) continue;
    const r = check(text, f.rel);
    for (const d of r.diagnostics) diagnostics.push(d);
    if (r.value !== undefined) found.push(r.value);
  }
  return { found, diagnostics: capKindDiagnostics(diagnostics, kind) };
}

/** YAML files of a folder of the run (ratings/ or survey/), contained; [] when the folder does not exist. */
export async function yamlFiles(root: string, folder: string, out: Diagnostic[]): Promise<{ rel: string; id: string }[]> {
  let names: string[];
  try {
    names = (await listInReview(root, folder)) ?? [];
  } catch (err) {
    // The folder itself leads outside (a link to .., say) or is not a folder: a diagnostic naming it, nothing read.
    if (!(err instanceof ReviewFileError)) throw err;
    out.push(fileErrorDiagnostic(err));
    return [];
  }
  return names
    .filter((n) => !n.startsWith('.') && /\.ya?ml$/i.test(n))
    .sort()
    .map((n) => ({ rel: `${folder}/${n}`, id: n.replace(/\.ya?ml$/i, '') }));
}

export async function readFeedback(root: string, rel: string, kind: FileKindName, out: Diagnostic[]): Promise<string | undefined> {
  try {
    return await readKindText(root, rel, kind);
  } catch (err) {
    if (err instanceof ReviewFileError) out.push(fileErrorDiagnostic(err));
    else throw err;
    return undefined;
  }
}

/**
 * Whether a per-designer file (named `<id>.yaml`) belongs to the team: its name must be a team member's id exactly.
 * A name that is the same designer by the one id rule but spelled otherwise, or nobody on the team, is an error in
 * words. Without a team (nothing to match against) every well-formed file is taken.
 */
export function teamProblem(f: { rel: string; id: string }, team: readonly string[] | undefined): Diagnostic | undefined {
  if (!team) return undefined;
  if (team.includes(f.id)) return undefined;
  const same = team.find((t) => designerKey(t) === designerKey(f.id));
  const name = `"${printable(f.id)}"`;
  if (same !== undefined) {
    return error(
      f.rel,
      `This file is named ${name}, but the designer's id is "${same}"; only ${same}.yaml is theirs, so this one is not counted.`,
      1,
      1,
    );
  }
  return error(
    f.rel,
    `This file is named after ${name}, who is not on the team of this run (${team.join(', ')}); it is not counted.`,
    1,
    1,
  );
}

/**
 * Every valid ratings file of a run, plus the diagnostics of the others (at most 50 per file, then one count line).
 * `team`: the designers' ids; files named after anyone else are refused.
 */
export async function loadRatings(
  root: string,
  record: RunRecord,
  team?: readonly string[],
  door?: AuthorshipDoor,
): Promise<{ ratings: DesignerRatings[]; diagnostics: Diagnostic[] }> {
  const { found, diagnostics } = await loadMemberFiles(
    root,
    ratingsRel(record.id),
    'ratings',
    team,
    (text, rel) => {
      const r = checkRatingsText(text, rel, record);
      return { value: r.ratings, diagnostics: r.diagnostics };
    },
    undefined,
    door,
  );
  return { ratings: found, diagnostics };
}

/** Every valid survey file of a run, plus the diagnostics of the others (capped per file); `team` as for loadRatings. */
export async function loadSurvey(
  root: string,
  runId: string,
  team?: readonly string[],
  door?: AuthorshipDoor,
): Promise<{ answers: SurveyAnswer[]; diagnostics: Diagnostic[] }> {
  return loadSurveyFolder(root, surveyRel(runId), team, door);
}

/** Every valid survey file of a folder (a run's survey/, or a usual-way review's survey/ at its root). */
export async function loadSurveyFolder(
  root: string,
  folder: string,
  team?: readonly string[],
  door?: AuthorshipDoor,
): Promise<{ answers: SurveyAnswer[]; diagnostics: Diagnostic[] }> {
  const { found, diagnostics } = await loadMemberFiles(
    root,
    folder,
    'survey',
    team,
    (text, rel) => {
      const r = checkSurveyText(text, rel);
      return { value: r.survey, diagnostics: r.diagnostics };
    },
    undefined,
    door,
  );
  return { answers: found, diagnostics };
}

function assertDesignerId(designer: string): void {
  if (!DESIGNER_ID_PATTERN.test(designer)) throw new Error(`"${designer}" is not a designer id.`);
}

/** Writes a designer's ratings (validated against the record first; throws with the first problem). */
export async function writeRatings(root: string, record: RunRecord, designer: string, ratings: Rating[]): Promise<string> {
  assertDesignerId(designer);
  const rel = ratingsRel(record.id, designer);
  const text = `# ${RATING_WORDING}\n${stringify({ designer, ratings: ratings.map((r) => (r.comment ? r : { message: r.message, score: r.score })) }, { lineWidth: 0 })}`;
  const check = checkRatingsText(text, rel, record);
  const bad = check.diagnostics.find((d) => d.severity === 'error');
  if (bad) throw new Error(bad.message);
  await writeKindFile(root, rel, 'ratings', text);
  return rel;
}

/** Writes a designer's survey answers (validated first). */
export async function writeSurvey(root: string, runId: string, answer: Omit<SurveyAnswer, 'file'>): Promise<string> {
  assertDesignerId(answer.designer);
  const rel = surveyRel(runId, answer.designer);
  const body: Record<string, unknown> = { designer: answer.designer };
  for (const q of SURVEY_QUESTIONS) if (answer[q] !== undefined) body[q] = answer[q];
  if (answer.workflow) body.workflow = answer.workflow;
  if (answer.comment) body.comment = answer.comment;
  const text = `# 1 = strongly disagree … 5 = strongly agree\n${stringify(body, { lineWidth: 0 })}`;
  const check = checkSurveyText(text, rel);
  const bad = check.diagnostics.find((d) => d.severity === 'error');
  if (bad) throw new Error(bad.message);
  await writeKindFile(root, rel, 'survey', text);
  return rel;
}
