/**
 * OpenAI's Batch API through the `openai` SDK: upload a JSONL file of /v1/chat/completions requests (purpose "batch"),
 * create the batch (completion window 24h), poll it at an interval for a bounded time, download its output file.
 * Requests in a batch are billed at BATCH_DISCOUNT (src/core/llm/pricing.ts). A failed call leaves as a ModelRequestError
 * (llm/sdkErrors.ts), like a failed chat request.
 */
import type OpenAI from 'openai';
import { openaiSdk } from '../llm/sdk';
import { sdkCall } from '../llm/sdkErrors';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CodingChatBody } from './codingPrompt';
import { FILE_KINDS, nestingOf } from '../files/fileKinds';

export const CHAT_ENDPOINT = '/v1/chat/completions';
/** Batch statuses after which nothing changes any more. */
export const FINAL_BATCH_STATUSES = new Set(['completed', 'failed', 'expired', 'cancelled']);
/** Output files larger than this are not read (a coding batch is far smaller). */
export const MAX_OUTPUT_BYTES = FILE_KINDS.batchOutput.maxBytes;

export interface BatchLine {
  customId: string;
  body: CodingChatBody;
}

export function batchJsonl(lines: readonly BatchLine[]): string {
  return lines.map((l) => JSON.stringify({ custom_id: l.customId, method: 'POST', url: CHAT_ENDPOINT, body: l.body })).join('\n') + '\n';
}

export async function submitBatch(
  client: OpenAI,
  lines: readonly BatchLine[],
  o: { runId: string; signal?: AbortSignal },
): Promise<{ batch: OpenAI.Batch; inputFileId: string }> {
  const file = await sdkCall(async () =>
    client.files.create(
      {
        file: await openaiSdk().toFile(Buffer.from(batchJsonl(lines), 'utf8'), `teamfusion-coding-${o.runId}.jsonl`, {
          type: 'application/jsonl',
        }),
        purpose: 'batch',
      },
      { signal: o.signal },
    ),
  );
  const batch = await sdkCall(() =>
    client.batches.create(
      {
        input_file_id: file.id,
        endpoint: CHAT_ENDPOINT,
        completion_window: '24h',
        metadata: { teamfusion: 'code-discussion', run: o.runId },
      },
      { signal: o.signal },
    ),
  );
  return { batch, inputFileId: file.id };
}

/**
 * Retrieves the batch every `intervalMs` until it reaches a final status or `maxWaitMs` has passed (at least one
 * retrieval; 0 = look once). Abortable; an abort rejects with the signal's reason.
 */
export async function waitForBatch(
  client: OpenAI,
  id: string,
  o: { intervalMs: number; maxWaitMs: number; signal?: AbortSignal; onPoll?: (b: OpenAI.Batch, polls: number) => void },
): Promise<OpenAI.Batch> {
  const started = Date.now();
  for (let polls = 1; ; polls++) {
    const b = await sdkCall(() => client.batches.retrieve(id, { signal: o.signal }));
    o.onPoll?.(b, polls);
    if (FINAL_BATCH_STATUSES.has(b.status)) return b;
    const elapsed = Date.now() - started;
    if (elapsed + o.intervalMs > o.maxWaitMs) return b;
    await sleep(o.intervalMs, o.signal);
  }
}

export interface BatchAnswer {
  content?: string;
  refusal?: string;
  finishReason?: string;
  usage?: OpenAI.CompletionUsage;
  /** The request failed inside the batch (an error line or a non-200 response). */
  error?: string;
}

/** Downloads an output (or error) file and reads it as custom_id → answer. Lines that do not parse are skipped and counted. */
export async function readBatchFile(
  client: OpenAI,
  fileId: string,
  signal?: AbortSignal,
): Promise<{ answers: Map<string, BatchAnswer>; unreadable: number }> {
  const text = await sdkCall(async () => (await client.files.content(fileId, { signal })).text());
  if (Buffer.byteLength(text) > MAX_OUTPUT_BYTES)
    throw new Error(`The batch output file ${fileId} is larger than ${MAX_OUTPUT_BYTES / 1024 / 1024} MB; it is not read.`);
  const answers = new Map<string, BatchAnswer>();
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    // Nested deeper than the kind allows (fileKinds.ts): not an answer of ours, counted as unreadable.
    if (nestingOf(FILE_KINDS.batchOutput, line)) {
      unreadable++;
      continue;
    }
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch {
      unreadable++;
      continue;
    }
    const r = row as {
      custom_id?: unknown;
      response?: { status_code?: number; body?: unknown } | null;
      error?: { message?: string; code?: string } | null;
    };
    if (typeof r.custom_id !== 'string') {
      unreadable++;
      continue;
    }
    if (r.error || !r.response || r.response.status_code !== 200) {
      const msg = r.error?.message ?? (r.response ? `HTTP ${r.response.status_code}` : 'no response');
      answers.set(r.custom_id, { error: msg });
      continue;
    }
    const body = r.response.body as Partial<ChatCompletion> | undefined;
    const choice = body?.choices?.[0];
    answers.set(r.custom_id, {
      content: choice?.message?.content ?? undefined,
      refusal: choice?.message?.refusal ?? undefined,
      finishReason: choice?.finish_reason,
      usage: body?.usage,
    });
  }
  return { answers, unreadable };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
