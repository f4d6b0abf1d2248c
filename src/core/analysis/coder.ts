/**
 * code-discussion: gives every message of a run one Bales IPA category with the chat model (directly or through the Batch
 * API), keeps what is already coded, retries what is not usable (bounded), and writes runs/<run-id>/analysis.json.
 *
 *   1. the run record is read through the store (unknown run: an error in words, nothing written, no request);
 *   2. codes in an existing analysis.json are reused for messages still in the run (no request) unless `force`;
 *   3. a batch saved as pending is resumed (never a second one); a finished batch is collected;
 *   4. what is left is coded: several messages per request, each request retried with a repair message at most
 *      MAX_ATTEMPTS times in all; what is still without a valid code is listed in `uncoded`.
 * analysis.json is saved after every request, so a cancel or a failure loses nothing coded.
 */
import type { ChatBackend, StructuredOutput } from '../llm/backend';
import type { ChatMessage } from '../llm/messages';
import { OpenAIChatBackend, chatUsage } from '../llm/openaiBackend';
import type OpenAI from 'openai';
import { estimateCost, mergePrices, type PriceTable } from '../llm/pricing';
import { CONFIRM_ABOVE_REQUESTS, CostNotConfirmedError, askBeforeSending, costWords, type ConfirmCost, type WorkCost } from '../llm/costQuestion';
import { addUsage, zeroUsage } from '../kernel/usage';
import { isAbort, isNotFoundAnswer } from '../llm/errors';
import { allMessages, type RunRecord, type Usage } from '../record/record';
import { readRunRecord } from '../record/store';
import { checkWritable } from '../files/reviewWrites';
import {
  ANALYSIS_VERSION,
  analysisPath,
  readAnalysisFile,
  writeAnalysisFile,
  type AnalysisFile,
  type BalesCode,
  type PendingBatch,
} from './analysisFile';
import { categoryLabel } from './bales';
import { FINAL_BATCH_STATUSES, readBatchFile, submitBatch, waitForBatch, type BatchAnswer } from './batch';
import { MESSAGES_PER_REQUEST, codingRequestBody, planRequests, promptDescription, type CodingItem, type CodingRequestPlan } from './codingPrompt';
import { parseCodes } from './parseCodes';
import { stanceTable, type DesignerTop } from './stance';
import { byDesigner, possiblyTooCompliant, roundMix } from './summary';
import { errorMessage } from '../kernel/errors';

/** Answers per message set: the first request and at most two repairs. */
export const MAX_ATTEMPTS = 3;
export const DEFAULT_POLL_INTERVAL_MS = 30_000;
/** The floor of --poll-interval: a batch is never asked after more often than once a second. */
export const MIN_POLL_INTERVAL_MS = 1_000;
export const DEFAULT_MAX_WAIT_MS = 10 * 60_000;
/** What a coding is about to send, for the one cost question (costQuestion.ts). */
export type CodingCost = WorkCost;
export { CONFIRM_ABOVE_REQUESTS, costWords };

export interface CodingProgress {
  coded: number;
  total: number;
  message: string;
}

export interface CodeDiscussionOptions {
  reviewRoot: string;
  runId: string;
  /** A client, or a factory called only when a request has to be sent (a coded run needs no key). Batches need one. */
  client?: OpenAI | (() => OpenAI);
  /** The chat backend for direct requests (default: `client` through the openai SDK), or a factory called only when needed. */
  chat?: ChatBackend | (() => ChatBackend);
  /** Default: the run's chat model. */
  model?: string;
  force?: boolean;
  batch?: boolean;
  pollIntervalMs?: number;
  maxWaitMs?: number;
  signal?: AbortSignal;
  prices?: PriceTable;
  /** Designers with their top choice before the run, for the stance table (left out when not given). */
  designers?: readonly DesignerTop[];
  perRequest?: number;
  /** The cost question (costQuestion.ts), asked above its thresholds; without it (or on false) nothing is sent. */
  confirm?: ConfirmCost;
  onProgress?: (p: CodingProgress) => void;
  log?: (line: string) => void;
}

/** coded: every message has a code; uncoded: some stayed without one (exit 1); pending: a batch is still running;
 * batch-problem: the batch expired or failed (its messages can be sent again); cancelled. */
export type CodingState = 'coded' | 'uncoded' | 'pending' | 'batch-problem' | 'cancelled';

export interface CodeDiscussionResult {
  analysis: AnalysisFile;
  state: CodingState;
  /** Requests sent by this call (batch lines count one each). */
  newRequests: number;
  /** Codes taken over from the earlier analysis.json. */
  reused: number;
  /** Things to tell the user, in words. */
  notes: string[];
}

/** Stopped by a model or network failure; what was coded is saved. */
export class CodingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CodingError';
  }
}

export async function codeDiscussion(o: CodeDiscussionOptions): Promise<CodeDiscussionResult> {
  const root = o.reviewRoot;
  const record: RunRecord = await readRunRecord(root, o.runId);
  const existing = o.force ? undefined : await readAnalysisFile(root, o.runId);
  // analysis.json must be writable before anything is sent (a link, a folder or a read-only place there: refused now).
  await checkWritable(root, [analysisPath(record.id)]);
  // --force over a pending batch: that batch is cancelled (best effort) so it is not paid for twice.
  const abandoned = o.force ? await readAnalysisFile(root, o.runId).then((a) => a?.batch?.id, () => undefined) : undefined;
  const model = o.model ?? record.settings.chatModel;
  const prices = mergePrices(o.prices);
  const log = o.log ?? (() => undefined);
  const perRequest = o.perRequest ?? MESSAGES_PER_REQUEST;

  const items: CodingItem[] = allMessages(record).map(({ iteration, message }) => ({ id: message.id!, iteration, message }));
  const byId = new Map(items.map((it) => [it.id, it]));
  const rounds = new Map<number, CodingItem[]>();
  for (const it of items) (rounds.get(it.iteration) ?? rounds.set(it.iteration, []).get(it.iteration)!).push(it);

  const codes = new Map<string, number>();
  if (existing) {
    for (const c of existing.bales) {
      const it = byId.get(c.message);
      if (it && it.message.speaker === c.speaker) codes.set(c.message, c.category);
    }
  }
  const reused = codes.size;
  const failed = new Set<string>();
  const notes: string[] = [];
  if (record.status === 'running') notes.push(`Run ${o.runId} is still running: the ${items.length} messages on disk now are coded; code it again when it has finished.`);

  // What this call spends, on top of what produced the codes that are kept.
  const keepPrior = existing !== undefined && (reused > 0 || existing.batch !== undefined);
  const std = zeroUsage();
  const bat = zeroUsage();
  let requests = 0;
  let usedDirect = false;
  let usedBatch = false;
  let pending: PendingBatch | undefined = existing?.batch;
  let batchProblem: string | undefined = keepPrior ? existing?.batchProblem : undefined;
  let changed = existing === undefined || o.force === true;

  let client: OpenAI | undefined;
  const getClient = (): OpenAI => {
    if (!o.client) throw new CodingError('The Batch API needs an OpenAI endpoint; code without --batch.');
    return (client ??= typeof o.client === 'function' ? o.client() : o.client);
  };
  let chat: ChatBackend | undefined;
  const getChat = (): ChatBackend => (chat ??= o.chat ? (typeof o.chat === 'function' ? o.chat() : o.chat) : new OpenAIChatBackend(getClient()));
  const progress = (message: string): void => o.onProgress?.({ coded: codes.size, total: items.length, message });

  const compose = (): AnalysisFile => {
    const bales: BalesCode[] = items
      .filter((it) => codes.has(it.id))
      .map((it) => ({
        message: it.id,
        speaker: it.message.speaker,
        kind: it.message.kind ?? 'proxy',
        iteration: it.iteration,
        category: codes.get(it.id)!,
        label: categoryLabel(codes.get(it.id)!),
      }));
    const usage = zeroUsage();
    let cost: number | undefined = 0;
    if (keepPrior && existing) {
      addUsage(usage, existing.usage);
      cost = existing.usage.costUsd;
    }
    addUsage(usage, std);
    addUsage(usage, bat);
    const part = (u: Usage, batch: boolean): number | undefined =>
      u.inputTokens + u.outputTokens === 0 ? 0 : estimateCost(u, { chatModel: model, imageModel: model }, prices, { batch });
    // A backend not billed per token (a VS Code model: covered by the user's plan) adds no cost.
    const s = chat && !chat.priced ? 0 : part(std, false);
    const b = part(bat, true);
    cost = cost === undefined || s === undefined || b === undefined ? undefined : Math.round((cost + s + b) * 1e6) / 1e6;
    if (cost !== undefined) usage.costUsd = cost;
    const priorMode = keepPrior ? existing?.mode : undefined;
    const modes = new Set<string>();
    if (priorMode === 'mixed') modes.add('direct').add('batch');
    else if (priorMode) modes.add(priorMode);
    if (usedDirect) modes.add('direct');
    if (usedBatch) modes.add('batch');
    const mode = modes.size === 2 ? 'mixed' : modes.has('batch') ? 'batch' : 'direct';
    const speakers = [...new Set(items.map((it) => it.message.speaker))];
    return {
      version: ANALYSIS_VERSION,
      runId: record.id,
      runStatus: record.status,
      codedAt: changed || !existing ? new Date().toISOString() : existing.codedAt,
      model,
      mode,
      prompt: promptDescription(),
      requests: (keepPrior && existing ? existing.requests : 0) + requests,
      usage,
      bales,
      byDesigner: byDesigner(bales, speakers),
      rounds: roundMix(bales, [...rounds.keys()]),
      possiblyTooCompliant: possiblyTooCompliant(bales),
      uncoded: items.filter((it) => failed.has(it.id) && !codes.has(it.id)).map((it) => it.id),
      ...(pending ? { batch: pending } : {}),
      ...(batchProblem ? { batchProblem } : {}),
      ...(o.designers ? { stance: stanceTable(record, o.designers) } : {}),
    };
  };
  const save = async (): Promise<AnalysisFile> => {
    const a = compose();
    await writeAnalysisFile(root, a);
    return a;
  };

  const planFor = (ids: readonly string[]): CodingRequestPlan => {
    const iteration = byId.get(ids[0]!)!.iteration;
    return planRequests(new Map([[iteration, rounds.get(iteration)!]]), new Set(ids), Number.MAX_SAFE_INTEGER)[0]!;
  };

  /** Sends a plan's request (and repairs) until every id has a valid code or the attempts are used up. */
  const codeDirect = async (plan: CodingRequestPlan, ids: string[], attemptsUsed: number, repair?: { answer: string; problem: string }): Promise<void> => {
    let remaining = ids;
    for (let attempt = attemptsUsed; attempt < MAX_ATTEMPTS && remaining.length; attempt++) {
      if (attempt > 0) log(`Coding ${remaining.join(', ')}: the answer was not usable (${repair?.problem ?? 'the request failed'}); asking again (${attempt + 1} of ${MAX_ATTEMPTS}).`);
      const body = codingRequestBody(model, plan, remaining, repair);
      const answer = await getChat().chat({
        model,
        messages: body.messages.map((m) => ({ role: m.role as ChatMessage['role'], content: typeof m.content === 'string' ? m.content : '' })),
        structured: body.response_format?.type === 'json_schema' ? (body.response_format.json_schema as StructuredOutput) : undefined,
        signal: o.signal,
      });
      requests++;
      usedDirect = true;
      changed = true;
      addUsage(std, answer.usage);
      const r = answerCodes({ content: answer.text, refusal: answer.refusal, finishReason: answer.finishReason }, remaining);
      for (const [id, c] of r.codes) codes.set(id, c);
      remaining = remaining.filter((id) => !codes.has(id));
      repair = r.answer ? { answer: r.answer, problem: r.problems.join(' ') } : undefined;
    }
    for (const id of remaining) failed.add(id);
  };

  /** Applies a finished (or stopped) batch's output; answers that are not usable are repaired with direct requests. */
  const collectBatch = async (b: OpenAI.Batch, p: PendingBatch): Promise<void> => {
    const answers = new Map<string, BatchAnswer>();
    for (const fileId of [b.output_file_id, b.error_file_id]) {
      if (!fileId) continue;
      const got = await readBatchFile(getClient(), fileId, o.signal);
      for (const [k, v] of got.answers) if (!answers.has(k) || answers.get(k)!.error) answers.set(k, v);
      if (got.unreadable) log(`${got.unreadable} lines of the batch file ${fileId} could not be read.`);
    }
    usedBatch = true;
    changed = true;
    const complete = b.status === 'completed';
    for (const [customId, ids] of Object.entries(p.requests)) {
      const answer = answers.get(customId);
      const open = ids.filter((id) => byId.has(id) && !codes.has(id));
      if (!answer) continue; // not answered (the batch stopped): sent again by a later call
      if (answer.usage) addUsage(bat, chatUsage(answer.usage));
      const r = answerCodes(answer, open);
      for (const [id, c] of r.codes) codes.set(id, c);
      const left = open.filter((id) => !codes.has(id));
      if (left.length && complete) {
        progress(`Repairing ${left.length} codes of the batch…`);
        await codeDirect(planFor(left), left, 1, r.answer ? { answer: r.answer, problem: r.problems.join(' ') } : undefined);
        await save();
      }
    }
  };

  const runBatchWait = async (p: PendingBatch): Promise<'done' | 'pending' | 'problem'> => {
    let b: OpenAI.Batch;
    try {
      b = await waitBatch(p);
    } catch (err) {
      if (!isNotFoundAnswer(err)) throw err;
      // The endpoint does not know the saved batch (another server, or it was deleted): forget it; its messages are sent again.
      pending = undefined;
      batchProblem = `The endpoint does not know the batch ${p.id} (404); its messages are not coded. Run code-discussion again to send them again.`;
      return 'problem';
    }
    return afterBatch(b, p);
  };

  const waitBatch = (p: PendingBatch): Promise<OpenAI.Batch> =>
    waitForBatch(getClient(), p.id, {
      intervalMs: o.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
      maxWaitMs: o.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
      signal: o.signal,
      onPoll: (x, polls) => {
        const c = x.request_counts;
        progress(`Batch ${x.id}: ${x.status}${c ? ` (${c.completed} of ${c.total} requests done)` : ''}, poll ${polls}.`);
      },
    });

  const afterBatch = async (b: OpenAI.Batch, p: PendingBatch): Promise<'done' | 'pending' | 'problem'> => {
    if (!FINAL_BATCH_STATUSES.has(b.status)) {
      p.status = b.status;
      return 'pending';
    }
    await collectBatch(b, p);
    pending = undefined;
    if (b.status === 'completed') {
      batchProblem = undefined;
      return 'done';
    }
    const reason = b.errors?.data?.map((e) => e.message).filter(Boolean).join('; ');
    const open = Object.values(p.requests).flat().filter((id) => byId.has(id) && !codes.has(id));
    batchProblem = `The batch ${b.id} ${b.status}${reason ? ` (${reason})` : ''}; ${open.length} of its messages are not coded. Run code-discussion again to send them again.`;
    return 'problem';
  };

  let state: CodingState = 'coded';
  try {
    if (abandoned) {
      await getClient()
        .batches.cancel(abandoned, { signal: o.signal })
        .then(
          () => notes.push(`The earlier batch ${abandoned} was cancelled (--force codes every message again).`),
          (err: unknown) => notes.push(`The earlier batch ${abandoned} could not be cancelled (${errorMessage(err)}).`),
        );
    }
    if (pending) {
      progress(`Resuming batch ${pending.id}…`);
      const r = await runBatchWait(pending);
      if (r === 'pending') state = 'pending';
      if (r === 'problem') state = 'batch-problem';
      await save();
    }
    const toCode = items.filter((it) => !codes.has(it.id) && !failed.has(it.id)).map((it) => it.id);
    if (state === 'coded' && toCode.length) {
      const plans = planRequests(rounds, new Set(toCode), perRequest);
      // Counts first (cheap), then the one cost question, before a single request is sent.
      const n = toCode.length;
      const cost: CodingCost = { requests: plans.length, of: `${n.toLocaleString('en-US')} message${n === 1 ? '' : 's'}`, estimateUsd: estimateCoding(plans, model, prices, o.batch === true), batch: o.batch === true };
      try {
        await askBeforeSending(cost, o.confirm, `Coding run ${o.runId}`);
      } catch (err) {
        if (err instanceof CostNotConfirmedError) throw new CodingError(err.message);
        throw err;
      }
      if (o.batch) {
        progress(`Uploading ${plans.length} coding requests as a batch…`);
        const lines = plans.map((plan, i) => ({ customId: `tf-${i + 1}`, body: codingRequestBody(model, plan, plan.ids) }));
        const { batch, inputFileId } = await submitBatch(getClient(), lines, { runId: record.id, signal: o.signal });
        requests += lines.length;
        changed = true;
        usedBatch = true;
        batchProblem = undefined;
        pending = {
          id: batch.id,
          inputFileId,
          status: batch.status,
          createdAt: (Number.isFinite(batch.created_at) ? new Date(batch.created_at * 1000) : new Date()).toISOString(),
          requests: Object.fromEntries(lines.map((l, i) => [l.customId, plans[i]!.ids])),
        };
        await save();
        const r = await runBatchWait(pending);
        if (r === 'pending') state = 'pending';
        if (r === 'problem') state = 'batch-problem';
      } else {
        for (const plan of plans) {
          progress(`Coding ${plan.ids.length} messages of round ${plan.iteration}…`);
          await codeDirect(plan, plan.ids, 0);
          await save();
        }
      }
    }
  } catch (err) {
    // Nothing was sent yet (e.g. no API key): nothing is written either.
    if (requests === 0 && !pending && !isAbort(err, o.signal)) throw new CodingError(errorMessage(err));
    const a = await save();
    if (isAbort(err, o.signal)) {
      notes.push(`Cancelled: ${a.bales.length} of ${items.length} messages are coded and saved${pending ? `; batch ${pending.id} is kept and resumed next time` : ''}.`);
      return { analysis: a, state: 'cancelled', newRequests: requests, reused, notes };
    }
    throw new CodingError(`Coding stopped: ${errorMessage(err)}. The ${a.bales.length} codes so far are saved; run code-discussion again to continue.`);
  }

  const before = existing ? JSON.stringify({ ...existing, codedAt: '' }) : '';
  const analysis = compose();
  if (!existing || JSON.stringify({ ...analysis, codedAt: '' }) !== before) await writeAnalysisFile(root, analysis);
  if (state === 'pending' && pending) {
    notes.push(`The batch ${pending.id} is still ${pending.status}; it is saved in analysis.json and the next code-discussion on this run collects it.`);
  } else if (state === 'batch-problem' && batchProblem) {
    notes.push(batchProblem);
  } else if (analysis.uncoded.length) {
    state = 'uncoded';
  }
  progress(`${analysis.bales.length} of ${items.length} messages coded.`);
  return { analysis, state, newRequests: requests, reused, notes };
}

/** Codes of one answer (chat or batch line) for the asked ids, with what was wrong, and the raw answer for a repair. */
function answerCodes(a: BatchAnswer, ids: readonly string[]): { codes: Map<string, number>; problems: string[]; answer: string } {
  if (a.error) return { codes: new Map(), problems: [`the request failed (${a.error}).`], answer: '' };
  if (a.refusal) return { codes: new Map(), problems: [`it refused: ${a.refusal}`], answer: a.refusal };
  if (a.finishReason === 'length') return { codes: new Map(), problems: ['the answer was cut off (length).'], answer: a.content ?? '' };
  const p = parseCodes(a.content ?? '', ids);
  return { ...p, answer: a.content ?? '' };
}

/** Estimated cost of sending `plans`: input tokens from the text of a sample of requests (about 4 characters a token),
 * 40 output tokens per message coded; at the batch discount for batches. Linear in a sample, not in the record. */
function estimateCoding(plans: readonly CodingRequestPlan[], model: string, prices: PriceTable, batch: boolean): number | undefined {
  const sample = plans.slice(0, 20);
  const chars = sample.reduce((n, p) => n + JSON.stringify(codingRequestBody(model, p, p.ids).messages).length, 0);
  const inputTokens = Math.round((chars / 4 / Math.max(1, sample.length)) * plans.length);
  const outputTokens = plans.reduce((n, p) => n + p.ids.length * 40, 0);
  return estimateCost({ inputTokens, cachedInputTokens: 0, outputTokens, images: 0 }, { chatModel: model, imageModel: '' }, prices, { batch });
}
