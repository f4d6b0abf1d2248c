/**
 * The forecasts of a run's blind re-rank (issue 32, item 1), made by `rerank` right after the blind set (design) or pair
 * (brief) exists and before anyone has answered it: each member's proxy, from the persona message its own discussion turns
 * carried, forecasts its designer's blind answer; one persona-free control asks the same of the same model. One request
 * each (a non-permutation is repaired at most twice, then recorded as failed in words), counted in the run's usage and
 * asked for like every paid step. Every request is kept in run.json's prompts (by reference, prompts.jsonl), and the
 * answers in runs/<run-id>/forecast.json, sealed: run.json keeps its hash. Nothing here is shown to anyone.
 */
import * as path from 'node:path';
import type { ChatBackend } from '../llm/backend';
import { estimateCost, type PriceTable } from '../llm/pricing';
import { askBeforeSending, type ConfirmCost } from '../llm/costQuestion';
import { prepareImage } from '../llm/images';
import { toRecordedMessages, withoutImages, type ChatMessage, type ChatPart } from '../llm/messages';
import { describeError } from '../llm/errors';
import { CancelledError } from '../kernel/errors';
import { addUsage, zeroUsage, type Usage } from '../kernel/usage';
import { naturalCompare } from '../kernel/naturalOrder';
import { readKindText } from '../files/fileKinds';
import { checkWritable } from '../files/reviewWrites';
import { statInReview } from '../files/reviewFiles';
import { formatDiagnostic } from '../diagnostics/diagnostics';
import { loadReview } from '../review/loadReview';
import { readRunRecord } from '../record/store';
import { taskOf, type PromptRecord, type RecordedMessage, type RunRecord } from '../record/record';
import { PromptPartsWriter, partsFile, readPromptParts, rebuildPrompt } from '../record/promptParts';
import { updateUndriven } from '../record/update';
import { addPrompt } from '../step/context';
import { askForStructuredAnswer, type StructuredAttempt } from '../remix/structuredAnswer';
import { readKey } from '../rerank/key';
import { rerankRel } from '../rerank/paths';
import { forecastRel, writeForecastFile, type ForecastContent, type ForecastEntry, type ForecastFile, type PreferAnswer } from './forecastFile';
import {
  CONTROL_SYSTEM,
  PREFER_STRUCTURED,
  briefForecastMessage,
  designForecastMessage,
  parsePreferAnswer,
  parseRankingAnswer,
  rankingStructured,
} from './forecastPrompts';

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
  file: ForecastFile;
  requests: number;
  usage: Usage;
  costUsd?: number;
}

/** A member whose proxy forecasts: their id, name, and the persona message of their last discussion turn (if any). */
interface Forecaster {
  id: string;
  name: string;
  persona?: ChatMessage;
}

const textOf = (m: RecordedMessage): string => (typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n\n'));

/** The persona message a member's last proxy turn carried (the one that says who to play), from the run's own record. */
function personaOf(record: RunRecord, parts: readonly RecordedMessage[], designer: string): ChatMessage | undefined {
  const turn = [...record.prompts].reverse().find((p) => p.kind === 'proxy-turn' && p.speaker === designer);
  if (!turn) return undefined;
  const messages = rebuildPrompt(record, turn.id, parts) ?? [];
  const persona = [...messages].reverse().find((m) => textOf(m).startsWith('You are role-playing'));
  if (!persona) return undefined;
  return { role: persona.role === 'user' ? 'user' : 'system', content: textOf(persona) };
}

/** The members of the run (the review's team, limited to the run's `designers`), each with their persona. */
async function forecasters(root: string, record: RunRecord): Promise<Forecaster[]> {
  const loaded = await loadReview(root, { requireRankings: taskOf(record) === 'design', decodeImages: false });
  if (!loaded.review) {
    const first = loaded.diagnostics.find((d) => d.severity === 'error');
    throw new Error(`The review cannot be read, so no forecast was asked for${first ? `: ${formatDiagnostic(first)}` : '.'}`);
  }
  const chosen = record.settings.designers;
  const members = taskOf(record) === 'brief' ? loaded.review.comments.map((c) => ({ id: c.designer, name: c.name })) : loaded.review.designers.map((d) => ({ id: d.id, name: d.name }));
  const parts = record.prompts.some((p) => !p.messages && (p.parts || p.base)) ? await readPromptParts(root, record.id) : [];
  return members.filter((m) => !chosen || chosen.includes(m.id)).map((m) => {
    const persona = personaOf(record, parts, m.id);
    return { ...m, ...(persona ? { persona } : {}) };
  });
}

/** The blind letters in their order (A, B, …, Z, AA, …). */
function sortedLetters(letters: readonly string[]): string[] {
  return [...letters].sort((a, b) => a.length - b.length || naturalCompare(a, b));
}

/** What every forecast of the run shows: the blind set's images (design) or the blind pair's texts (brief). */
async function blindMaterial(root: string, record: RunRecord, letters: readonly string[], o: ForecastOptions): Promise<(name: string | undefined) => ChatMessage> {
  const rel = rerankRel(record.id);
  if (taskOf(record) === 'brief') {
    const [a, b] = [await readKindText(root, `${rel}/A.md`, 'revisedBrief'), await readKindText(root, `${rel}/B.md`, 'revisedBrief')];
    return (name) => briefForecastMessage(name, a, b);
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

/**
 * Makes the forecasts of a run whose blind set exists and writes forecast.json (never over an existing one). Throws a
 * plain sentence before anything is sent when the run, its key or the review cannot be read, or the cost is not confirmed.
 */
export async function makeForecasts(o: ForecastOptions): Promise<ForecastResult> {
  const root = path.resolve(o.reviewRoot);
  const record = await readRunRecord(root, o.runId);
  const task = taskOf(record);
  const rel = forecastRel(record.id);
  if (await statInReview(root, rel)) throw new Error(`Run ${record.id} already has its forecasts (${rel}); they are never made again.`);
  await checkForecastWritable(root, record.id);
  const key = await readKey(root, record.id, record.rerankKeySha256);
  const letters = sortedLetters(Object.keys(key));
  const team = await forecasters(root, record);
  const material = await blindMaterial(root, record, letters, o);
  const model = record.settings.chatModel;

  // The question before anything is sent: one request per member and one control.
  const requests = team.length + 1;
  const perRequest = Math.round(Buffer.byteLength(JSON.stringify(team.map((m) => m.persona?.content ?? ''))) / 4 / Math.max(1, team.length)) + (task === 'design' ? letters.length * TOKENS_PER_IMAGE : 2000);
  const estimateUsd = o.chat.priced ? estimateCost({ inputTokens: requests * perRequest, cachedInputTokens: 0, outputTokens: requests * TOKENS_PER_FORECAST, images: 0 }, { chatModel: model, imageModel: '' }, o.prices) : undefined;
  await askBeforeSending({ requests, of: `the forecasts of ${team.length} member${team.length === 1 ? '' : 's'} and one control`, ...(estimateUsd === undefined ? {} : { estimateUsd }) }, o.confirm, `The forecasts of run ${record.id}`);

  const iteration = record.iterations.at(-1)?.index ?? 1;
  const ask = async (who: Forecaster | undefined): Promise<Asked> => {
    const label = who ? `${who.name}'s proxy` : 'the control';
    const attempts: Omit<PromptRecord, 'id'>[] = [];
    const base: ChatMessage[] = who ? (who.persona ? [who.persona, material(who.name)] : []) : [{ role: 'system', content: CONTROL_SYSTEM }, material(undefined)];
    const entry = { kind: who ? ('persona' as const) : ('control' as const), designer: who?.id ?? null };
    if (base.length === 0) return { entry: { ...entry, failed: `${label} never spoke in this run, so there is no persona to forecast from; no request was sent.` }, attempts };
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
        onRepair: (problem, attempt, of) => o.log?.(`The forecast of ${label} was not usable (${problem}); asking it to repair (${attempt} of ${of}).`),
        giveUp: (problem, n) => new Error(`The forecast of ${label} failed: after ${n} attempts its answer was still not usable (last problem: ${problem})`),
      });
      return { entry: { ...entry, ...(Array.isArray(answer) ? { ranking: answer } : { prefer: answer }) }, attempts };
    } catch (err) {
      if (err instanceof CancelledError) throw err;
      const said = err instanceof Error && err.message.startsWith('The forecast of') ? err.message : describeError(err, `The forecast of ${label}`).replace(/ Resume the run (to try again|later)\.$/, '');
      o.log?.(`${said.replace(/\.$/, '')}; it is recorded as failed.`);
      return { entry: { ...entry, failed: `${said.replace(/\.$/, '')}.` }, attempts };
    }
  };

  const asked: Asked[] = [];
  for (const who of team) asked.push(await ask(who));
  asked.push(await ask(undefined));

  const usage = zeroUsage();
  let sent = 0;
  for (const a of asked) for (const p of a.attempts) {
    sent++;
    addUsage(usage, p.usage);
  }
  let written: ForecastFile | undefined;
  const changed = await updateUndriven(root, record.id, async (now) => {
    const next: RunRecord = { ...now, prompts: [...now.prompts], usage: { ...now.usage } };
    const forecasts: ForecastEntry[] = asked.map((a) => {
      let promptId = '';
      for (const p of a.attempts) {
        promptId = `p${next.prompts.length + 1}`;
        addPrompt(next, { id: promptId, ...p });
      }
      return { ...a.entry, ...(promptId ? { promptId } : {}) };
    });
    const content: ForecastContent = { runId: record.id, task, letters, forecasts };
    const writer = await PromptPartsWriter.open(root, record.id);
    writer.compact(next);
    await writer.flush();
    const sha256 = await writeForecastFile(root, content);
    written = { ...content, sha256 };
    return { ...next, forecastSha256: sha256 };
  });
  if (changed === undefined || !written) throw new Error(`Run ${record.id} is being driven by another process, so its forecasts were not written; try again when it stops.`);
  const costUsd = o.chat.priced ? estimateCost(usage, { chatModel: model, imageModel: '' }, o.prices) : undefined;
  return { file: written, requests: sent, usage, ...(costUsd === undefined ? {} : { costUsd }) };
}

/** A forecast's words for a log (never its answer: forecasts stay sealed until the re-rank is saved). */
export function forecastDone(r: ForecastResult): string {
  const made = r.file.forecasts.filter((f) => !f.failed).length;
  const cost = r.costUsd === undefined ? '' : `, estimated cost $${r.costUsd.toFixed(4)}`;
  return `Forecasts sealed in ${forecastRel(r.file.runId)}: ${made} of ${r.file.forecasts.length} made (${r.requests} request${r.requests === 1 ? '' : 's'}${cost}); they are shown only after the re-rank, by compare.`;
}
