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
import { estimateCost, mergePrices, type PriceTable } from '../llm/pricing';
import { CONFIRM_ABOVE_REQUESTS, CostNotConfirmedError, askBeforeSending, costWords, type WorkCost } from '../llm/costQuestion';
import { isAbort } from '../llm/errors';
import { sdkCall } from '../llm/sdkErrors';
import { allMessages } from '../record/record';
import { reviewAuthorship } from '../review/loadReview';
import { remakeRefusal } from '../authorship/words';
import { readRunRecord } from '../record/store';
import { checkWritable } from '../files/reviewWrites';
import { analysisPath, readAnalysisFile, writeAnalysisFile, type AnalysisFile } from './analysisFile';
import { MESSAGES_PER_REQUEST, codingRequestBody, planRequests, type CodingItem, type CodingRequestPlan } from './codingPrompt';
import {
  CodingError,
  CodingJob,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_POLL_INTERVAL_MS,
  MAX_ATTEMPTS,
  type BatchOutcome,
  type CodeDiscussionOptions,
} from './codingJob';
import { errorMessage } from '../kernel/errors';

export { CodingError, DEFAULT_MAX_WAIT_MS, DEFAULT_POLL_INTERVAL_MS, MAX_ATTEMPTS };
/** The floor of --poll-interval: a batch is never asked after more often than once a second. */
export const MIN_POLL_INTERVAL_MS = 1_000;
/** What a coding is about to send, for the one cost question (costQuestion.ts). */
export type CodingCost = WorkCost;
export { CONFIRM_ABOVE_REQUESTS, costWords };

export type { CodeDiscussionOptions, CodingProgress } from './codingJob';

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

export async function codeDiscussion(o: CodeDiscussionOptions): Promise<CodeDiscussionResult> {
  const root = o.reviewRoot;
  const record = await readRunRecord(root, o.runId);
  // --force codes again over the analysis.json there: only its maker may (a file remade by another counts for no one).
  const refused = o.force
    ? await remakeRefusal(await reviewAuthorship(root), analysisPath(record.id), 'codes the discussion again')
    : undefined;
  if (refused) throw new Error(refused);
  const existing = o.force ? undefined : await readAnalysisFile(root, o.runId);
  // analysis.json must be writable before anything is sent (a link, a folder or a read-only place there: refused now).
  await checkWritable(root, [analysisPath(record.id)]);
  // --force over a pending batch: that batch is cancelled (best effort) so it is not paid for twice.
  const abandoned = o.force
    ? await readAnalysisFile(root, o.runId).then(
        (a) => a?.batch?.id,
        () => undefined,
      )
    : undefined;
  const items: CodingItem[] = allMessages(record).map(({ iteration, message }) => ({ id: message.id!, iteration, message }));
  const job = new CodingJob(o, record, existing, items, o.model ?? record.settings.chatModel, mergePrices(o.prices));
  const notes: string[] = [];
  if (record.status === 'running')
    notes.push(`Run ${o.runId} is still running: the ${items.length} messages on disk now are coded; code it again when it has finished.`);

  let state: CodingState = 'coded';
  try {
    if (abandoned) await cancelAbandoned(job, abandoned, notes);
    if (job.pending) {
      job.progress(`Resuming batch ${job.pending.id}…`);
      state = stateAfter(await job.runBatchWait(job.pending));
      await job.save();
    }
    const toCode = job.toCode();
    if (state === 'coded' && toCode.length) {
      const plans = planRequests(job.rounds, new Set(toCode), o.perRequest ?? MESSAGES_PER_REQUEST);
      await askCost(job, plans, toCode.length);
      if (o.batch) state = stateAfter(await job.sendBatch(plans));
      else await job.codeAllDirect(plans);
    }
  } catch (err) {
    // Nothing was sent yet (e.g. no API key): nothing is written either.
    if (job.requests === 0 && !job.pending && !isAbort(err, o.signal)) throw new CodingError(errorMessage(err));
    const a = await job.save();
    if (isAbort(err, o.signal)) {
      notes.push(
        `Cancelled: ${a.bales.length} of ${items.length} messages are coded and saved${job.pending ? `; batch ${job.pending.id} is kept and resumed next time` : ''}.`,
      );
      return { analysis: a, state: 'cancelled', newRequests: job.requests, reused: job.reused, notes };
    }
    throw new CodingError(
      `Coding stopped: ${errorMessage(err)}. The ${a.bales.length} codes so far are saved; run code-discussion again to continue.`,
    );
  }
  return finish(job, state, notes);
}

/** A batch outcome as the call's state ('done' leaves it coded). */
function stateAfter(r: BatchOutcome): CodingState {
  return r === 'pending' ? 'pending' : r === 'problem' ? 'batch-problem' : 'coded';
}

/** Cancels the batch a --force call abandons; either way a note says what happened. */
async function cancelAbandoned(job: CodingJob, abandoned: string, notes: string[]): Promise<void> {
  const client = job.getClient();
  await sdkCall(() => client.batches.cancel(abandoned, { signal: job.o.signal })).then(
    () => notes.push(`The earlier batch ${abandoned} was cancelled (--force codes every message again).`),
    (err: unknown) => notes.push(`The earlier batch ${abandoned} could not be cancelled (${errorMessage(err)}).`),
  );
}

/** Counts first (cheap), then the one cost question, before a single request is sent. */
async function askCost(job: CodingJob, plans: readonly CodingRequestPlan[], n: number): Promise<void> {
  const batch = job.o.batch === true;
  const cost: CodingCost = {
    requests: plans.length,
    of: `${n.toLocaleString('en-US')} message${n === 1 ? '' : 's'}`,
    estimateUsd: estimateCoding(plans, job.model, job.prices, batch),
    batch,
  };
  try {
    await askBeforeSending(cost, job.o.confirm, `Coding run ${job.o.runId}`);
  } catch (err) {
    if (err instanceof CostNotConfirmedError) throw new CodingError(err.message);
    throw err;
  }
}

/** Writes analysis.json when it changed (codedAt aside), and says what is left. */
async function finish(job: CodingJob, state: CodingState, notes: string[]): Promise<CodeDiscussionResult> {
  const { existing, pending, batchProblem } = job;
  const before = existing ? JSON.stringify({ ...existing, codedAt: '' }) : '';
  const analysis: AnalysisFile = job.compose();
  if (!existing || JSON.stringify({ ...analysis, codedAt: '' }) !== before) await writeAnalysisFile(job.o.reviewRoot, analysis);
  if (state === 'pending' && pending) {
    notes.push(
      `The batch ${pending.id} is still ${pending.status}; it is saved in analysis.json and the next code-discussion on this run collects it.`,
    );
  } else if (state === 'batch-problem' && batchProblem) {
    notes.push(batchProblem);
  } else if (analysis.uncoded.length) {
    state = 'uncoded';
  }
  job.progress(`${analysis.bales.length} of ${job.items.length} messages coded.`);
  return { analysis, state, newRequests: job.requests, reused: job.reused, notes };
}

/** Estimated cost of sending `plans`: input tokens from the text of a sample of requests (about 4 characters a token),
 * 40 output tokens per message coded; at the batch discount for batches. Linear in a sample, not in the record. */
function estimateCoding(plans: readonly CodingRequestPlan[], model: string, prices: PriceTable, batch: boolean): number | undefined {
  const sample = plans.slice(0, 20);
  const chars = sample.reduce((n, p) => n + JSON.stringify(codingRequestBody(model, p, p.ids).messages).length, 0);
  const inputTokens = Math.round((chars / 4 / Math.max(1, sample.length)) * plans.length);
  const outputTokens = plans.reduce((n, p) => n + p.ids.length * 40, 0);
  return estimateCost({ inputTokens, cachedInputTokens: 0, outputTokens, images: 0 }, { chatModel: model, imageModel: '' }, prices, {
    batch,
  });
}
