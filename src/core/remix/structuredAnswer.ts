/**
 * THE way to ask a model for a structured answer (the remix agents, the judge): a request with a strict JSON schema
 * (`response_format: json_schema`), the answer checked by `parse` (zod), and an unusable answer (refusal, cut off, a
 * `parse` error) sent back with the problem for repair, at most `extraAttempts` more times. Each attempt is handed to
 * `onAttempt` (to record it); the caller says what a give-up sounds like.
 */
import type * as z from 'zod';
import type { ChatAnswer, ChatBackend, StructuredOutput } from '../llm/backend';
import type { ChatMessage } from '../llm/messages';
import { repairMessage } from '../discussion/remixPrompts';
import { isAbort } from '../llm/errors';
import { CancelledError, withChildSignal } from '../kernel/errors';

/** 1 repair + 2 retries after the first answer. */
export const STRUCTURED_EXTRA_ATTEMPTS = 3;

export interface StructuredAttempt {
  /** 0 for the first request, then 1, 2, … for the repairs. */
  attempt: number;
  conversation: readonly ChatMessage[];
  answer: ChatAnswer;
  /** The output of the attempt before, which this attempt was asked to repair. */
  repairing?: string;
  /** Set when this attempt's answer was not usable: why, and the output that will be sent back. */
  error?: string;
  rejected?: string;
}

export interface StructuredQuestion<T> {
  chat: ChatBackend;
  model: string;
  temperature?: number;
  signal?: AbortSignal;
  base: readonly ChatMessage[];
  structured: StructuredOutput;
  parse: (content: string) => T | { error: string };
  /** Called after every answer, usable or not (record it here). */
  onAttempt?: (a: StructuredAttempt) => void | Promise<void>;
  /** Called before a repair is asked for (say it here). */
  onRepair?: (problem: string, attempt: number, of: number) => void;
  /** The error thrown when no attempt gave a usable answer. */
  giveUp: (lastProblem: string, attempts: number) => Error;
  extraAttempts?: number;
}

function isProblem(x: unknown): x is { error: string } {
  return typeof x === 'object' && x !== null && 'error' in x && typeof (x as { error: unknown }).error === 'string';
}

/** Asks until `parse` accepts an answer; returns what it made. */
export async function askForStructuredAnswer<T>(q: StructuredQuestion<T>): Promise<T> {
  const extra = q.extraAttempts ?? STRUCTURED_EXTRA_ATTEMPTS;
  let conversation: readonly ChatMessage[] = q.base;
  let lastError = '';
  let rejected: string | undefined;
  for (let attempt = 0; attempt <= extra; attempt++) {
    if (q.signal?.aborted) throw new CancelledError();
    if (attempt > 0) {
      q.onRepair?.(lastError, attempt, extra);
      // First the repair (the bad answer and the error go back); later attempts repeat the repair with the latest error.
      conversation = [...q.base, { role: 'assistant', content: rejected ?? '' }, repairMessage(lastError)];
    }
    let answer: ChatAnswer;
    try {
      answer = await withChildSignal(q.signal, (signal) =>
        q.chat.chat({
          model: q.model,
          messages: conversation,
          ...(q.temperature === undefined ? {} : { temperature: q.temperature }),
          structured: q.structured,
          signal,
        }),
      );
    } catch (err) {
      if (isAbort(err, q.signal)) throw new CancelledError();
      throw err;
    }
    const problem = answer.refusal
      ? `it refused: ${answer.refusal}`
      : answer.finishReason === 'length'
        ? 'the answer was cut off (length)'
        : undefined;
    const parsed: T | { error: string } = problem ? { error: problem } : q.parse(answer.text);
    const repairing = attempt > 0 ? rejected : undefined;
    if (!isProblem(parsed)) {
      await q.onAttempt?.({ attempt, conversation, answer, ...(repairing !== undefined ? { repairing } : {}) });
      return parsed;
    }
    lastError = parsed.error;
    rejected = answer.refusal ?? answer.text;
    await q.onAttempt?.({ attempt, conversation, answer, ...(repairing !== undefined ? { repairing } : {}), error: lastError, rejected });
  }
  throw q.giveUp(lastError, extra + 1);
}

/** An answer's JSON checked with zod: the value, or the first problem in words (what goes back for repair). */
export function parseJsonAnswer<T extends z.ZodType>(content: string, schema: T): { value: z.infer<T> } | { error: string } {
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    return { error: 'the answer is not valid JSON.' };
  }
  // Without zod's eval fast path: the schema is built for one question and parses one answer, so compiling it costs more
  // than it saves.
  const res = schema.safeParse(json, { jitless: true });
  if (!res.success) {
    const issue = res.error.issues[0]!;
    return { error: `${issue.path.join('.') || 'the answer'}: ${issue.message}.` };
  }
  return { value: res.data };
}
