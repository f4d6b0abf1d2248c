/**
 * One code-discussion call's working state and its steps (coder.ts drives them): the codes so far, what this call spent,
 * the pending batch, and the steps that fill them — direct requests with repairs, a batch sent, waited for and collected —
 * and compose/save of analysis.json from that state.
 */
import { isScriptedClient } from '../llm/scripted';
import { isModelRequestError } from '../llm/backend';
import type { ChatBackend, StructuredOutput } from '../llm/backend';
import type { ChatMessage } from '../llm/messages';
import { OpenAIChatBackend, chatUsage } from '../llm/openaiBackend';
import type OpenAI from 'openai';
import { estimateCost, type PriceTable } from '../llm/pricing';
import { addUsage, zeroUsage } from '../kernel/usage';
import type { RunRecord, Usage } from '../record/record';
import { ANALYSIS_VERSION, writeAnalysisFile, type AnalysisFile, type BalesCode, type PendingBatch } from './analysisFile';
import { categoryLabel } from './bales';
import { FINAL_BATCH_STATUSES, readBatchFile, submitBatch, waitForBatch, type BatchAnswer } from './batch';
import { codingRequestBody, planRequests, promptDescription, type CodingItem, type CodingRequestPlan } from './codingPrompt';
import { parseCodes } from './parseCodes';
import { byDesigner, possiblyTooCompliant, roundMix } from './summary';
import type { ConfirmCost } from '../llm/costQuestion';
import { stanceTable, type DesignerTop } from './stance';

/** Answers per message set: the first request and at most two repairs. */
export const MAX_ATTEMPTS = 3;
export const DEFAULT_POLL_INTERVAL_MS = 30_000;
export const DEFAULT_MAX_WAIT_MS = 10 * 60_000;

/** Stopped by a model or network failure; what was coded is saved. */
export class CodingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CodingError';
  }
}

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

export type BatchOutcome = 'done' | 'pending' | 'problem';
type Repair = { answer: string; problem: string };

export class CodingJob {
  readonly byId: Map<string, CodingItem>;
  readonly rounds = new Map<number, CodingItem[]>();
  readonly codes = new Map<string, number>();
  readonly failed = new Set<string>();
  /** Codes taken over from the earlier analysis.json. */
  readonly reused: number;
  /** What this call spends is added on top of what produced the codes that are kept. */
  readonly keepPrior: boolean;
  readonly std = zeroUsage();
  readonly bat = zeroUsage();
  requests = 0;
  usedDirect = false;
  usedBatch = false;
  pending: PendingBatch | undefined;
  batchProblem: string | undefined;
  changed: boolean;
  private client: OpenAI | undefined;
  private chat: ChatBackend | undefined;
  private readonly log: (line: string) => void;

  constructor(
    readonly o: CodeDiscussionOptions,
    readonly record: RunRecord,
    readonly existing: AnalysisFile | undefined,
    readonly items: readonly CodingItem[],
    readonly model: string,
    readonly prices: PriceTable,
  ) {
    this.byId = new Map(items.map((it) => [it.id, it]));
    for (const it of items) (this.rounds.get(it.iteration) ?? this.rounds.set(it.iteration, []).get(it.iteration)!).push(it);
    if (existing) {
      for (const c of existing.bales) {
        const it = this.byId.get(c.message);
        if (it && it.message.speaker === c.speaker) this.codes.set(c.message, c.category);
      }
    }
    this.reused = this.codes.size;
    this.keepPrior = existing !== undefined && (this.reused > 0 || existing.batch !== undefined);
    this.pending = existing?.batch;
    this.batchProblem = this.keepPrior ? existing?.batchProblem : undefined;
    this.changed = existing === undefined || o.force === true;
    this.log = o.log ?? (() => undefined);
  }

  getClient(): OpenAI {
    const c = this.o.client;
    if (!c) throw new CodingError('The Batch API needs an OpenAI endpoint; code without --batch.');
    return (this.client ??= typeof c === 'function' ? c() : c);
  }

  getChat(): ChatBackend {
    const c = this.o.chat;
    return (this.chat ??= c ? (typeof c === 'function' ? c() : c) : new OpenAIChatBackend(this.getClient()));
  }

  progress(message: string): void {
    this.o.onProgress?.({ coded: this.codes.size, total: this.items.length, message });
  }

  /** Ids still without a code that were not given up on. */
  toCode(): string[] {
    return this.items.filter((it) => !this.codes.has(it.id) && !this.failed.has(it.id)).map((it) => it.id);
  }

  compose(): AnalysisFile {
    const { items, codes, existing, record, o } = this;
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
    const speakers = [...new Set(items.map((it) => it.message.speaker))];
    return {
      version: ANALYSIS_VERSION,
      runId: record.id,
      runStatus: record.status,
      codedAt: this.changed || !existing ? new Date().toISOString() : existing.codedAt,
      model: this.model,
      ...(this.scripted() ? { scripted: true as const } : {}),
      mode: this.mode(),
      prompt: promptDescription(),
      requests: (this.keepPrior && existing ? existing.requests : 0) + this.requests,
      usage: this.usage(),
      bales,
      byDesigner: byDesigner(bales, speakers),
      rounds: roundMix(bales, [...this.rounds.keys()]),
      possiblyTooCompliant: possiblyTooCompliant(bales),
      uncoded: items.filter((it) => this.failed.has(it.id) && !codes.has(it.id)).map((it) => it.id),
      ...(this.pending ? { batch: this.pending } : {}),
      ...(this.batchProblem ? { batchProblem: this.batchProblem } : {}),
      ...(o.designers ? { stance: stanceTable(record, o.designers) } : {}),
    };
  }

  /** Whether any code kept or made came from the bundled scripted server. */
  private scripted(): boolean {
    return (
      (this.keepPrior && this.existing?.scripted === true) ||
      this.chat?.scripted === true ||
      (this.client !== undefined && isScriptedClient(this.client))
    );
  }

  /** Kept prior usage plus this call's, with its cost (unknown when a part's price is unknown). */
  private usage(): Usage {
    const usage = zeroUsage();
    let cost: number | undefined = 0;
    if (this.keepPrior && this.existing) {
      addUsage(usage, this.existing.usage);
      cost = this.existing.usage.costUsd;
    }
    addUsage(usage, this.std);
    addUsage(usage, this.bat);
    const part = (u: Usage, batch: boolean): number | undefined =>
      u.inputTokens + u.outputTokens === 0 ? 0 : estimateCost(u, { chatModel: this.model, imageModel: this.model }, this.prices, { batch });
    // A backend not billed per token (a VS Code model: covered by the user's plan) adds no cost.
    const s = this.chat && !this.chat.priced ? 0 : part(this.std, false);
    const b = part(this.bat, true);
    cost = cost === undefined || s === undefined || b === undefined ? undefined : Math.round((cost + s + b) * 1e6) / 1e6;
    if (cost !== undefined) usage.costUsd = cost;
    return usage;
  }

  private mode(): AnalysisFile['mode'] {
    const priorMode = this.keepPrior ? this.existing?.mode : undefined;
    const modes = new Set<string>();
    if (priorMode === 'mixed') modes.add('direct').add('batch');
    else if (priorMode) modes.add(priorMode);
    if (this.usedDirect) modes.add('direct');
    if (this.usedBatch) modes.add('batch');
    return modes.size === 2 ? 'mixed' : modes.has('batch') ? 'batch' : 'direct';
  }

  async save(): Promise<AnalysisFile> {
    const a = this.compose();
    await writeAnalysisFile(this.o.reviewRoot, a);
    return a;
  }

  private planFor(ids: readonly string[]): CodingRequestPlan {
    const iteration = this.byId.get(ids[0]!)!.iteration;
    return planRequests(new Map([[iteration, this.rounds.get(iteration)!]]), new Set(ids), Number.MAX_SAFE_INTEGER)[0]!;
  }

  /** Sends a plan's request (and repairs) until every id has a valid code or the attempts are used up. */
  async codeDirect(plan: CodingRequestPlan, ids: string[], attemptsUsed: number, repair?: Repair): Promise<void> {
    const model = this.model;
    let remaining = ids;
    for (let attempt = attemptsUsed; attempt < MAX_ATTEMPTS && remaining.length; attempt++) {
      if (attempt > 0)
        this.log(
          `Coding ${remaining.join(', ')}: the answer was not usable (${repair?.problem ?? 'the request failed'}); asking again (${attempt + 1} of ${MAX_ATTEMPTS}).`,
        );
      const body = codingRequestBody(model, plan, remaining, repair);
      const answer = await this.getChat().chat({
        model,
        messages: body.messages.map((m) => ({
          role: m.role as ChatMessage['role'],
          content: typeof m.content === 'string' ? m.content : '',
        })),
        structured: body.response_format?.type === 'json_schema' ? (body.response_format.json_schema as StructuredOutput) : undefined,
        signal: this.o.signal,
      });
      this.requests++;
      this.usedDirect = true;
      this.changed = true;
      addUsage(this.std, answer.usage);
      const r = answerCodes({ content: answer.text, refusal: answer.refusal, finishReason: answer.finishReason }, remaining);
      for (const [id, c] of r.codes) this.codes.set(id, c);
      remaining = remaining.filter((id) => !this.codes.has(id));
      repair = r.answer ? { answer: r.answer, problem: r.problems.join(' ') } : undefined;
    }
    for (const id of remaining) this.failed.add(id);
  }

  /** Every plan as a direct request (with repairs), saved after each. */
  async codeAllDirect(plans: readonly CodingRequestPlan[]): Promise<void> {
    for (const plan of plans) {
      this.progress(`Coding ${plan.ids.length} messages of round ${plan.iteration}…`);
      await this.codeDirect(plan, plan.ids, 0);
      await this.save();
    }
  }

  /** Uploads the plans as one batch, saves it as pending, then waits for it. */
  async sendBatch(plans: readonly CodingRequestPlan[]): Promise<BatchOutcome> {
    this.progress(`Uploading ${plans.length} coding requests as a batch…`);
    const lines = plans.map((plan, i) => ({ customId: `tf-${i + 1}`, body: codingRequestBody(this.model, plan, plan.ids) }));
    const { batch, inputFileId } = await submitBatch(this.getClient(), lines, { runId: this.record.id, signal: this.o.signal });
    this.requests += lines.length;
    this.changed = true;
    this.usedBatch = true;
    this.batchProblem = undefined;
    this.pending = {
      id: batch.id,
      inputFileId,
      status: batch.status,
      createdAt: (Number.isFinite(batch.created_at) ? new Date(batch.created_at * 1000) : new Date()).toISOString(),
      requests: Object.fromEntries(lines.map((l, i) => [l.customId, plans[i]!.ids])),
    };
    await this.save();
    return this.runBatchWait(this.pending);
  }

  /** Applies a finished (or stopped) batch's output; answers that are not usable are repaired with direct requests. */
  private async collectBatch(b: OpenAI.Batch, p: PendingBatch): Promise<void> {
    const answers = await this.batchAnswers(b);
    this.usedBatch = true;
    this.changed = true;
    const complete = b.status === 'completed';
    for (const [customId, ids] of Object.entries(p.requests)) {
      const answer = answers.get(customId);
      const open = ids.filter((id) => this.byId.has(id) && !this.codes.has(id));
      if (!answer) continue; // not answered (the batch stopped): sent again by a later call
      if (answer.usage) addUsage(this.bat, chatUsage(answer.usage));
      const r = answerCodes(answer, open);
      for (const [id, c] of r.codes) this.codes.set(id, c);
      const left = open.filter((id) => !this.codes.has(id));
      if (left.length && complete) {
        this.progress(`Repairing ${left.length} codes of the batch…`);
        await this.codeDirect(this.planFor(left), left, 1, r.answer ? { answer: r.answer, problem: r.problems.join(' ') } : undefined);
        await this.save();
      }
    }
  }

  /** The answers of a batch's output and error files (an answer beats an error for the same line). */
  private async batchAnswers(b: OpenAI.Batch): Promise<Map<string, BatchAnswer>> {
    const answers = new Map<string, BatchAnswer>();
    for (const fileId of [b.output_file_id, b.error_file_id]) {
      if (!fileId) continue;
      const got = await readBatchFile(this.getClient(), fileId, this.o.signal);
      for (const [k, v] of got.answers) if (!answers.has(k) || answers.get(k)!.error) answers.set(k, v);
      if (got.unreadable) this.log(`${got.unreadable} lines of the batch file ${fileId} could not be read.`);
    }
    return answers;
  }

  async runBatchWait(p: PendingBatch): Promise<BatchOutcome> {
    let b: OpenAI.Batch;
    try {
      b = await this.waitBatch(p);
    } catch (err) {
      if (!isModelRequestError(err, 'not-found')) throw err;
      // The endpoint does not know the saved batch (another server, or it was deleted): forget it; its messages are sent again.
      this.pending = undefined;
      this.batchProblem = `The endpoint does not know the batch ${p.id} (404); its messages are not coded. Run code-discussion again to send them again.`;
      return 'problem';
    }
    return this.afterBatch(b, p);
  }

  private waitBatch(p: PendingBatch): Promise<OpenAI.Batch> {
    return waitForBatch(this.getClient(), p.id, {
      intervalMs: this.o.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
      maxWaitMs: this.o.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
      signal: this.o.signal,
      onPoll: (x, polls) => {
        const c = x.request_counts;
        this.progress(`Batch ${x.id}: ${x.status}${c ? ` (${c.completed} of ${c.total} requests done)` : ''}, poll ${polls}.`);
      },
    });
  }

  private async afterBatch(b: OpenAI.Batch, p: PendingBatch): Promise<BatchOutcome> {
    if (!FINAL_BATCH_STATUSES.has(b.status)) {
      p.status = b.status;
      return 'pending';
    }
    await this.collectBatch(b, p);
    this.pending = undefined;
    if (b.status === 'completed') {
      this.batchProblem = undefined;
      return 'done';
    }
    const reason = b.errors?.data
      ?.map((e) => e.message)
      .filter(Boolean)
      .join('; ');
    const open = Object.values(p.requests)
      .flat()
      .filter((id) => this.byId.has(id) && !this.codes.has(id));
    this.batchProblem = `The batch ${b.id} ${b.status}${reason ? ` (${reason})` : ''}; ${open.length} of its messages are not coded. Run code-discussion again to send them again.`;
    return 'problem';
  }
}

/** Codes of one answer (chat or batch line) for the asked ids, with what was wrong, and the raw answer for a repair. */
function answerCodes(a: BatchAnswer, ids: readonly string[]): { codes: Map<string, number>; problems: string[]; answer: string } {
  if (a.error) return { codes: new Map(), problems: [`the request failed (${a.error}).`], answer: '' };
  if (a.refusal) return { codes: new Map(), problems: [`it refused: ${a.refusal}`], answer: a.refusal };
  if (a.finishReason === 'length') return { codes: new Map(), problems: ['the answer was cut off (length).'], answer: a.content ?? '' };
  const p = parseCodes(a.content ?? '', ids);
  return { ...p, answer: a.content ?? '' };
}
