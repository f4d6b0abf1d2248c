/**
 * `findCriteria` (issue 34): the team's criteria from one model request (a bounded repair or two when the answer names
 * something the review does not have), grounded in the members' own words and kept in criteria.json with the hashes of the
 * files read. A current, untouched criteria.json is reused and nothing is sent; a changed source or a hand edit is said and
 * the criteria are found again. Nothing is sent for a review without reasons worth reading.
 */
import * as path from 'node:path';
import type { ChatBackend } from '../llm/backend';
import { estimateCost, type PriceTable } from '../llm/pricing';
import { formatDiagnostic } from '../diagnostics/diagnostics';
import { loadReview, reviewAuthorship } from '../review/loadReview';
import { remakeRefusal } from '../authorship/words';
import type { Review } from '../review/model';
import { askForStructuredAnswer } from '../remix/structuredAnswer';
import { criteriaNotCounted, readCriteriaFile, untouched, writeCriteriaFiles } from './file';
import { explainContested, groundAnswer, recheckCriteria } from './ground';
import { checkWritable } from '../files/reviewWrites';
import {
  CRITERIA_FILE,
  CRITERIA_MARKDOWN,
  SCRIPTED_CRITERIA_FILE,
  SCRIPTED_CRITERIA_MARKDOWN,
  CriteriaError,
  contentHash,
  type CriteriaFile,
} from './model';
import { SCRIPTED_SERVER } from '../llm/scripted';
import { criteriaMessages, criteriaStructured, parseCriteriaAnswer } from './prompt';
import { changedSources, nothingWorthReading, readCriteriaSources, type CriteriaSources } from './sources';
import { addUsage, zeroUsage } from '../kernel/usage';

/** Repairs after the first answer (bounded, like every structured answer). */
export const CRITERIA_REPAIRS = 2;
/** Characters the request may carry; a bigger team's words are refused before anything is built or sent. */
export const MAX_CRITERIA_REQUEST_CHARS = 600_000;

export interface FindCriteriaOptions {
  reviewRoot: string;
  /** The chat backend, or a factory called only when a request has to be sent (a reused file needs no key). */
  chat: ChatBackend | (() => ChatBackend);
  model: string;
  force?: boolean;
  prices?: PriceTable;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

export interface FindCriteriaResult {
  file: CriteriaFile;
  reused: boolean;
  /** Said to the user: why the file was found again, quotes not counted. */
  notes: string[];
  /** Display names by member id, in team order. */
  names: Record<string, string>;
}

/** The review, loaded strictly (rankings not required: a brief review has comments). */
export async function loadForCriteria(root: string): Promise<Review> {
  const loaded = await loadReview(root, { requireRankings: false, decodeImages: false });
  if (!loaded.review) {
    const first = loaded.diagnostics.find((d) => d.severity === 'error');
    throw new Error(`The review cannot be read, so nothing was sent${first ? `: ${formatDiagnostic(first)}` : '.'}`);
  }
  return loaded.review;
}

/**
 * `current`: the file as recomputed at this read (recheckCriteria: quotes found again, controversy from the stances), with
 * what the recomputation changed said in `notes` (none for a file as the tool wrote it).
 */
export type CriteriaState =
  | { state: 'current'; file: CriteriaFile; notes: string[] }
  | { state: 'missing' }
  | { state: 'stale' | 'edited'; file: CriteriaFile; why: string };

/** Whether criteria.json is current for these sources (unreadable files throw ReviewFileError naming the file). */
export async function criteriaState(root: string, sources: CriteriaSources): Promise<CriteriaState> {
  const file = await readCriteriaFile(root);
  if (!file) return { state: 'missing' };
  if (!untouched(file))
    return {
      state: 'edited',
      file,
      why: `${CRITERIA_FILE} was changed by hand since it was found (its content does not match the hash it keeps)`,
    };
  const notCounted = await criteriaNotCounted(root);
  if (notCounted) return { state: 'edited', file, why: notCounted };
  const changed = changedSources(file.sources, sources.hashes);
  if (changed.length) {
    const what = changed.every((f) => f.startsWith('rankings/'))
      ? 'Rankings'
      : changed.every((f) => f.startsWith('comments/'))
        ? 'Comments'
        : 'Files';
    return { state: 'stale', file, why: `${what} changed since the criteria were found (${changed.join(', ')})` };
  }
  const again = recheckCriteria(sources, file);
  return { state: 'current', file: again.file, notes: again.notes };
}

export async function findCriteria(o: FindCriteriaOptions): Promise<FindCriteriaResult> {
  const root = path.resolve(o.reviewRoot);
  const review = await loadForCriteria(root);
  const sources = await readCriteriaSources(review);
  const names = Object.fromEntries(sources.members.map((m) => [m.id, m.name]));
  const notes: string[] = [];
  if (!o.force) {
    const st = await criteriaState(root, sources);
    if (st.state === 'current') return { file: st.file, reused: true, notes: [...notes, ...st.notes], names };
    if (st.state !== 'missing') notes.push(`${st.why}; finding them again.`);
  }
  // Finding them again over the criteria.json there: only its maker may (a file remade by another counts for no one).
  const refused = await remakeRefusal(await reviewAuthorship(root), CRITERIA_FILE, 'finds the criteria again');
  if (refused) throw new CriteriaError(refused);
  // Both outputs must be writable before anything is paid for: a planted link is refused now, not after the answer.
  await checkWritable(root, [CRITERIA_FILE, CRITERIA_MARKDOWN, SCRIPTED_CRITERIA_FILE, SCRIPTED_CRITERIA_MARKDOWN]);
  const why = nothingWorthReading(sources);
  if (why) throw new CriteriaError(why);
  const messages = criteriaMessages(sources);
  const size = messages.reduce((n, m) => n + (typeof m.content === 'string' ? m.content.length : 0), 0);
  if (size > MAX_CRITERIA_REQUEST_CHARS) {
    throw new CriteriaError(
      `The members' words come to ${size.toLocaleString('en-US')} characters, more than one request may carry (${MAX_CRITERIA_REQUEST_CHARS.toLocaleString('en-US')}); nothing was sent.`,
    );
  }
  const chat = typeof o.chat === 'function' ? o.chat() : o.chat;
  const usage = zeroUsage();
  let requests = 0;
  const answer = await askForStructuredAnswer({
    chat,
    model: o.model,
    signal: o.signal,
    base: messages,
    structured: criteriaStructured(sources),
    parse: parseCriteriaAnswer(sources),
    extraAttempts: CRITERIA_REPAIRS,
    onAttempt: (a) => {
      requests++;
      addUsage(usage, a.answer.usage);
    },
    onRepair: (problem, attempt, of) =>
      o.log?.(`The criteria answer was not usable (${problem}); asking for a repair (${attempt} of ${of}).`),
    giveUp: (problem, attempts) =>
      new CriteriaError(`No usable criteria after ${attempts} answers (last problem: ${problem}); nothing was written.`),
  });
  const grounded = groundAnswer(sources, answer);
  notes.push(...grounded.notes);
  const costUsd = chat.priced ? estimateCost(usage, { chatModel: o.model, imageModel: '' }, o.prices) : undefined;
  const contested = sources.task === 'design' ? explainContested(grounded.criteria, review.designers, sources.options) : undefined;
  const body: Omit<CriteriaFile, 'sha256'> = {
    at: new Date().toISOString(),
    model: o.model,
    task: sources.task,
    sources: sources.hashes,
    criteria: grounded.criteria,
    ...(contested ? { contested } : {}),
    requests,
    ...(costUsd !== undefined ? { costUsd } : {}),
    ...(chat.scripted ? { scripted: true as const } : {}),
  };
  const file: CriteriaFile = { ...body, sha256: contentHash(body) };
  if (file.scripted)
    notes.push(
      `These criteria came from ${SCRIPTED_SERVER}: written apart from the team's (${SCRIPTED_CRITERIA_FILE}, ${SCRIPTED_CRITERIA_MARKDOWN}); analyze, the panel and runs never read them as the team's.`,
    );
  await writeCriteriaFiles(root, file, names);
  return { file, reused: false, notes, names };
}
