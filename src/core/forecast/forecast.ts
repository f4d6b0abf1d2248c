/**
 * The forecasts of a run's blind re-rank (issue 32, item 1; issue 38, item 3), made by `rerank` right after the blind set
 * (design) or pair (brief) exists, and by `forecast` at any time after: each member's proxy, from its persona (who it plays
 * and the member's own ranking and reasons, or comment — never a discussion turn's task, format or length), forecasts its
 * designer's blind answer; one control asks the same of the same model with no member in it (no name, id or persona; names
 * in the revisions it reads become neutral labels). Only the forecasts missing or failed are asked for: an answer once
 * sealed is never asked again. One request each (a non-permutation is repaired at most twice, then recorded as failed in
 * words; the cost question counts those repairs), counted in the run's usage. Each forecast is sealed as soon as it is
 * made (runs/<run-id>/forecast.json, its hash in run.json), so a step stopped halfway keeps what it sealed; one step at a
 * time per run (runs/<run-id>/.forecast.lock). Every request is kept in run.json's prompts (by reference, prompts.jsonl).
 * Nothing here is shown to anyone.
 */
import * as path from 'node:path';
import type { ChatBackend } from '../llm/backend';
import { estimateCost, type PriceTable } from '../llm/pricing';
import { askBeforeSending, type ConfirmCost } from '../llm/costQuestion';
import { prepareImage } from '../llm/images';
import { quoted } from '../llm/quoted';
import { SCRIPTED_SERVER } from '../llm/scripted';
import { toRecordedMessages, withoutImages, type ChatMessage, type ChatPart } from '../llm/messages';
import { describeError } from '../llm/errors';
import { CancelledError } from '../kernel/errors';
import { printable } from '../kernel/text';
import { addUsage, zeroUsage, type Usage } from '../kernel/usage';
import { naturalCompare } from '../kernel/naturalOrder';
import { readKindText } from '../files/fileKinds';
import { checkWritable } from '../files/reviewWrites';
import { statInReview } from '../files/reviewFiles';
import { formatDiagnostic } from '../diagnostics/diagnostics';
import { loadReview } from '../review/loadReview';
import { readRunRecord } from '../record/store';
import { taskOf, type PromptRecord, type RunRecord } from '../record/record';
import { PromptPartsWriter, partsFile } from '../record/promptParts';
import { updateUndriven } from '../record/update';
import { acquireNamedLock, RunDrivenError } from '../record/lock';
import { addPrompt } from '../step/context';
import { quotedComment, rankingAdvocates } from '../discussion/prompts';
import { askForStructuredAnswer, type StructuredAttempt } from '../remix/structuredAnswer';
import { readKey } from '../rerank/key';
import { DRIVER_MADE, driversFilesRefusal } from '../record/recordAuthor';
import { keyRel, rerankRel } from '../rerank/paths';
import {
  forecastRel,
  readForecastFile,
  writeForecastFile,
  type ForecastContent,
  type ForecastEntry,
  type ForecastFile,
  type PreferAnswer,
} from './forecastFile';
import {
  CONTROL_SYSTEM,
  PREFER_STRUCTURED,
  briefForecastMessage,
  designForecastMessage,
  forecastPersona,
  parsePreferAnswer,
  parseRankingAnswer,
  rankingStructured,
  withNeutralNames,
  type NeutralMember,
} from './forecastPrompts';

/** The lock of one forecast step in the run's folder (beside the driver's, which votes and other writers take briefly). */
export const FORECAST_LOCK = '.forecast.lock';

/** A forecast step that cannot start (the run has no blind set, or another step is making its forecasts): one sentence. */
export class ForecastRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForecastRefusedError';
  }
}

/** One repair, then one retry: a forecast that is still not a permutation is recorded as failed. */
export const FORECAST_EXTRA_ATTEMPTS = 2;
/** Tokens of one forecast answer, for the estimate. */
const TOKENS_PER_FORECAST = 60;
const TOKENS_PER_IMAGE = 800;

export interface ForecastOptions {
  reviewRoot: string;
  runId: string;
  chat: ChatBackend;
  prices?: PriceTable;
  confirm?: ConfirmCost;
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Image cache folder (llm/images.ts); default the user's cache. */
  imageCacheDir?: string | false;
}

export interface ForecastResult {
  /** forecast.json as it is now (every forecast sealed so far, this step's and earlier ones). */
  file: ForecastFile;
  /** Requests this step sent (repairs included); 0 when nothing was left to make. */
  requests: number;
  /** Forecasts this step asked for (missing or failed before it). */
  asked: number;
  /** Members forecast in all, the control not counted. */
  members: number;
  usage: Usage;
  costUsd?: number;
  /** Some forecast of the file was answered by the bundled scripted server. */
  scripted?: boolean;
}

/** A member whose proxy forecasts: their id, name, and the persona of their forecast. */
interface Forecaster {
  id: string;
  name: string;
  persona: ChatMessage;
}

/** The members of the run (the review's team, limited to the run's `designers`), each with their persona; and every member of the review, for the control's neutral labels. */
async function forecasters(root: string, record: RunRecord): Promise<{ team: Forecaster[]; everyone: NeutralMember[] }> {
  const loaded = await loadReview(root, { requireRankings: taskOf(record) === 'design', decodeImages: false });
  if (!loaded.review) {
    const first = loaded.diagnostics.find((d) => d.severity === 'error');
    throw new Error(`The review cannot be read, so no forecast was asked for${first ? `: ${formatDiagnostic(first)}` : '.'}`);
  }
  const review = loaded.review;
  const chosen = record.settings.designers;
  const members =
    taskOf(record) === 'brief'
      ? review.comments.map((c) => ({
          id: c.designer,
          name: c.name,
          persona: forecastPersona(c, `${quotedComment(c)}\nThese are the points you advocate.`),
        }))
      : review.designers.map((d) => ({
          id: d.id,
          name: d.name,
          persona: forecastPersona(
            d,
            rankingAdvocates(d, (id) => `Option ${quoted(id)}`),
          ),
        }));
  const everyone = [...review.designers, ...review.comments.map((c) => ({ id: c.designer, name: c.name }))].map((m) => ({
    id: m.id,
    name: m.name,
  }));
  return { team: members.filter((m) => !chosen || chosen.includes(m.id)), everyone };
}

/** The blind letters in their order (A, B, …, Z, AA, …). */
function sortedLetters(letters: readonly string[]): string[] {
  return [...letters].sort((a, b) => a.length - b.length || naturalCompare(a, b));
}

/**
 * What every forecast of the run shows: the blind set's images (design) or the blind pair's texts (brief). A persona
 * forecast names its member; the control (`name` undefined) names nobody, and reads the revisions with every member's
 * name and id replaced by a neutral label.
 */
async function blindMaterial(
  root: string,
  record: RunRecord,
  letters: readonly string[],
  everyone: readonly NeutralMember[],
  o: ForecastOptions,
): Promise<(name: string | undefined) => ChatMessage> {
  const rel = rerankRel(record.id);
  if (taskOf(record) === 'brief') {
    const [a, b] = [await readKindText(root, `${rel}/A.md`, 'revisedBrief'), await readKindText(root, `${rel}/B.md`, 'revisedBrief')];
    return (name) =>
      name === undefined
        ? briefForecastMessage(undefined, withNeutralNames(a, everyone), withNeutralNames(b, everyone))
        : briefForecastMessage(name, a, b);
  }
  const candidates: { letter: string; part: ChatPart }[] = [];
  for (const letter of letters) {
    const file = `${rel}/options/${letter}.png`;
    const image = await prepareImage(root, file, o.imageCacheDir === undefined ? {} : { cacheDir: o.imageCacheDir });
    candidates.push({ letter, part: { type: 'image', file, label: `Candidate ${letter}`, image } });
  }
  return (name) => designForecastMessage(name, candidates);
}

interface Asked {
  entry: Omit<ForecastEntry, 'promptId'>;
  attempts: Omit<PromptRecord, 'id'>[];
}

/** What the forecasts will write (forecast.json, prompts.jsonl), checked before the set is made: a link there is refused first. */
export async function checkForecastWritable(reviewRoot: string, runId: string): Promise<void> {
  await checkWritable(path.resolve(reviewRoot), [forecastRel(runId), partsFile(runId)]);
}

/** Whether a forecast entry holds an answer (sealed for good): a failed or missing one is made again. */
const answered = (e: ForecastEntry | undefined): boolean => e !== undefined && e.failed === undefined;

/**
 * Makes the missing or failed forecasts of a run whose blind set exists, each sealed in forecast.json as soon as it is
 * made. Throws ForecastRefusedError (one sentence) when the run has no blind set or another step is making its forecasts,
 * and a plain sentence before anything is sent when the run, its key or the review cannot be read, or the cost is not
 * confirmed. With every forecast sealed already it sends nothing (`asked` 0).
 */
export async function makeForecasts(o: ForecastOptions): Promise<ForecastResult> {
  const root = path.resolve(o.reviewRoot);
  const first = await readRunRecord(root, o.runId);
  if (!(await statInReview(root, keyRel(first.id)))) {
    throw new ForecastRefusedError(
      `Run ${first.id} has no blind set (${rerankRel(first.id)}/ with its key), so there is nothing to forecast; make it with teamfusion rerank first.`,
    );
  }
  await checkForecastWritable(root, first.id);
  let lock;
  try {
    lock = await acquireNamedLock(root, first.id, FORECAST_LOCK, o.log);
  } catch (err) {
    if (!(err instanceof RunDrivenError)) throw err;
    const who = err.driver ? ` (pid ${err.driver.pid} on ${printable(err.driver.hostname)}, since ${printable(err.driver.startedAt)})` : '';
    throw new ForecastRefusedError(
      `The forecasts of run ${first.id} are being made by another process${who}; they are not made twice at once, so wait for it to finish.`,
    );
  }
  try {
    return await makeMissing(o, root, await readRunRecord(root, first.id));
  } finally {
    await lock.release();
  }
}

async function makeMissing(o: ForecastOptions, root: string, record: RunRecord): Promise<ForecastResult> {
  const task = taskOf(record);
  // What is added to must be the driver's as made (issue 39): a forecast or blind set someone else changed is never resealed.
  for (const made of [DRIVER_MADE.rerank, DRIVER_MADE.forecast]) {
    const unmade = await driversFilesRefusal(root, record.id, made.owned, undefined, made.alone);
    if (unmade) throw new ForecastRefusedError(`No forecast is made for run ${record.id}: ${unmade.sentence}`);
  }
  const key = await readKey(root, record.id, record.rerankKeySha256);
  const letters = sortedLetters(Object.keys(key));
  const sealed = await readForecastFile(root, record);
  if (sealed && (sealed.task !== task || sealed.letters.join() !== letters.join())) {
    throw new Error(
      `${forecastRel(record.id)} is for the letters ${sealed.letters.join(', ')}, not the blind set's ${letters.join(', ')}, so no forecast is added to it.`,
    );
  }
  const { team, everyone } = await forecasters(root, record);
  let entries: ForecastEntry[] = [...(sealed?.forecasts ?? [])];
  const entryOf = (designer: string | null): ForecastEntry | undefined => entries.find((e) => e.designer === designer);
  const todo: (Forecaster | undefined)[] = [
    ...team.filter((m) => !answered(entryOf(m.id))),
    ...(answered(entryOf(null)) ? [] : [undefined]),
  ];
  const usage = zeroUsage();
  if (todo.length === 0 && sealed) return { file: sealed, requests: 0, asked: 0, members: team.length, usage };

  const material = await blindMaterial(root, record, letters, everyone, o);
  const model = record.settings.chatModel;
  // The question before anything is sent: one request per forecast to make, and each may be repaired (bounded).
  const perForecast = 1 + FORECAST_EXTRA_ATTEMPTS;
  const requests = todo.length * perForecast;
  const personaTokens = Math.round(Buffer.byteLength(JSON.stringify(team.map((m) => m.persona.content))) / 4 / Math.max(1, team.length));
  const perRequest = personaTokens + (task === 'design' ? letters.length * TOKENS_PER_IMAGE : 2000) + TOKENS_PER_FORECAST;
  const estimateUsd = o.chat.priced
    ? estimateCost(
        { inputTokens: requests * perRequest, cachedInputTokens: 0, outputTokens: requests * TOKENS_PER_FORECAST, images: 0 },
        { chatModel: model, imageModel: '' },
        o.prices,
      )
    : undefined;
  const members = todo.filter((m) => m !== undefined).length;
  const what = [members ? `${members} member${members === 1 ? '' : 's'}` : '', todo.includes(undefined) ? 'one control' : '']
    .filter(Boolean)
    .join(' and ');
  await askBeforeSending(
    {
      requests,
      of: `the forecasts of ${what}, at most ${FORECAST_EXTRA_ATTEMPTS} repairs each counted`,
      ...(estimateUsd === undefined ? {} : { estimateUsd }),
    },
    o.confirm,
    `The forecasts of run ${record.id}`,
  );

  const iteration = record.iterations.at(-1)?.index ?? 1;
  const ask = async (who: Forecaster | undefined): Promise<Asked> => {
    const label = who ? `${who.name}'s proxy` : 'the control';
    const attempts: Omit<PromptRecord, 'id'>[] = [];
    const base: ChatMessage[] = who
      ? [who.persona, material(who.name)]
      : [{ role: 'system', content: CONTROL_SYSTEM }, material(undefined)];
    const entry = { kind: who ? ('persona' as const) : ('control' as const), designer: who?.id ?? null };
    const messages = o.chat.acceptsImages ? base : withoutImages(base, () => undefined);
    const structured = task === 'design' ? rankingStructured(letters) : PREFER_STRUCTURED;
    const parse = task === 'design' ? parseRankingAnswer(letters) : parsePreferAnswer;
    const onAttempt = (a: StructuredAttempt): void => {
      attempts.push({
        iteration,
        kind: 'forecast',
        ...(who ? { speaker: who.id } : {}),
        model: a.answer.model ?? model,
        at: new Date().toISOString(),
        messages: toRecordedMessages(a.conversation),
        responseSchema: structured.schema,
        ...(a.answer.usage ? { usage: a.answer.usage } : {}),
        ...(a.error ? { error: a.error, rejectedOutput: (a.rejected ?? '').slice(0, 20_000) } : {}),
      });
    };
    try {
      const answer: string[] | PreferAnswer = await askForStructuredAnswer<string[] | PreferAnswer>({
        chat: o.chat,
        model,
        signal: o.signal,
        base: messages,
        structured,
        parse,
        extraAttempts: FORECAST_EXTRA_ATTEMPTS,
        onAttempt,
        onRepair: (problem, attempt, of) =>
          o.log?.(`The forecast of ${label} was not usable (${problem}); asking it to repair (${attempt} of ${of}).`),
        giveUp: (problem, n) =>
          new Error(`The forecast of ${label} failed: after ${n} attempts its answer was still not usable (last problem: ${problem})`),
      });
      return { entry: { ...entry, ...(Array.isArray(answer) ? { ranking: answer } : { prefer: answer }) }, attempts };
    } catch (err) {
      if (err instanceof CancelledError) throw err;
      const said =
        err instanceof Error && err.message.startsWith('The forecast of')
          ? err.message
          : describeError(err, `The forecast of ${label}`).replace(/ Resume the run (to try again|later)\.$/, '');
      o.log?.(`${said.replace(/\.$/, '')}; it is recorded as failed.`);
      return { entry: { ...entry, failed: `${said.replace(/\.$/, '')}.` }, attempts };
    }
  };

  // The team's order, then anyone forecast earlier who is no longer in it, the control last.
  const order = (list: ForecastEntry[]): ForecastEntry[] => {
    const rank = (e: ForecastEntry): number => {
      if (e.designer === null) return team.length + 1;
      const at = team.findIndex((m) => m.id === e.designer);
      return at < 0 ? team.length : at;
    };
    return list
      .map((e, i) => ({ e, i }))
      .sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i)
      .map((x) => x.e);
  };
  let sent = 0;
  let file: ForecastFile | undefined = sealed;
  for (const who of todo) {
    const a = await ask(who);
    for (const p of a.attempts) {
      sent++;
      addUsage(usage, p.usage);
    }
    const scripted = file?.scripted === true || o.chat.scripted === true;
    file = await seal(root, record.id, task, letters, scripted, a, (entry) => {
      entries = order([...entries.filter((e) => e.designer !== entry.designer), entry]);
      return entries;
    });
  }
  const costUsd = o.chat.priced ? estimateCost(usage, { chatModel: model, imageModel: '' }, o.prices) : undefined;
  return {
    file: file!,
    requests: sent,
    asked: todo.length,
    members: team.length,
    usage,
    ...(costUsd === undefined ? {} : { costUsd }),
    ...(file?.scripted ? { scripted: true } : {}),
  };
}

/**
 * Seals one forecast: its requests into run.json's prompts, the entry into forecast.json (through `place`, which gives
 * the whole list), the new hash into run.json — under the run's lock, waited for briefly while another writer (a vote)
 * holds it.
 */
async function seal(
  root: string,
  runId: string,
  task: ForecastContent['task'],
  letters: string[],
  scripted: boolean,
  a: Asked,
  place: (entry: ForecastEntry) => ForecastEntry[],
): Promise<ForecastFile> {
  for (let attempt = 0; ; attempt++) {
    let written: ForecastFile | undefined;
    const changed = await updateUndriven(root, runId, async (now) => {
      const next: RunRecord = { ...now, prompts: [...now.prompts], usage: { ...now.usage } };
      let promptId = '';
      for (const p of a.attempts) {
        promptId = `p${next.prompts.length + 1}`;
        addPrompt(next, { id: promptId, ...p });
      }
      const content: ForecastContent = {
        runId,
        task,
        letters,
        forecasts: place({ ...a.entry, ...(promptId ? { promptId } : {}) }),
        ...(scripted ? { scripted: true as const } : {}),
      };
      const writer = await PromptPartsWriter.open(root, runId);
      writer.compact(next);
      await writer.flush();
      const sha256 = await writeForecastFile(root, content);
      written = { ...content, sha256 };
      return { ...next, forecastSha256: sha256 };
    });
    if (changed !== undefined && written) return written;
    if (attempt >= SEAL_TRIES)
      throw new Error(
        `Run ${runId} is being driven by another process, so its forecast could not be sealed; make it again with teamfusion forecast when it stops.`,
      );
    await new Promise((r) => setTimeout(r, SEAL_WAIT_MS));
  }
}

const SEAL_TRIES = 20;
const SEAL_WAIT_MS = 250;

/** A forecast step's words for a log (never an answer: forecasts stay sealed until the re-rank is saved). */
export function forecastDone(r: ForecastResult): string {
  const total = r.members + 1;
  const made = r.file.forecasts.filter((f) => !f.failed).length;
  if (r.asked === 0)
    return `All ${total} forecasts of run ${r.file.runId} are sealed already (${forecastRel(r.file.runId)}); nothing was sent.`;
  const cost = r.costUsd === undefined ? '' : `, estimated cost $${r.costUsd.toFixed(4)}`;
  const step = r.asked === total ? '' : `; ${r.asked} missing or failed asked for now`;
  const by = `${r.file.scripted ? `; answered by ${SCRIPTED_SERVER}` : ''}; they are shown only after the re-rank, by compare.`;
  return `Forecasts sealed in ${forecastRel(r.file.runId)}: ${made} of ${total} made (${r.requests} request${r.requests === 1 ? '' : 's'}${cost}${step})${by}`;
}
