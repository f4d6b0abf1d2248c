/**
 * Step 2 — discuss: the proxies speak round-robin (review order), `turnsPerAgent` turns each. One streamed chat call is
 * one message. Each delta goes out as a `turn-delta` event; after each message the record is saved, so a resume continues
 * with the next speaker and never re-asks a recorded turn.
 */
import OpenAI from 'openai';
import { toApiMessages, toRecordedMessages, type ChatMessage } from '../llm/messages';
import { addPrompt, addUsage, chatUsage, nameOf, nextPromptId, type StepContext } from './context';
import { CancelledError, StepError, isAbort, withChildSignal } from './errors';
import { personaMessage, transcriptMessages, type PromptCandidate } from './prompts';
import { messageId, type Iteration, type Message, type Usage } from './record';

/** A stream that breaks off (connection cut, no finish) is asked again this many extra times before the run fails. */
export const STREAM_RETRIES = 2;

export interface DiscussionInput {
  iteration: Iteration;
  candidates: readonly PromptCandidate[];
  /** System + shared block (brief, history, images): identical for every call of this iteration. */
  prefix: readonly ChatMessage[];
  labelOf: (id: string) => string;
}

/** Who speaks at position i (0-based) of the round-robin. */
export function speakerAt(ctx: Pick<StepContext, 'designers'>, i: number): { designerIndex: number; turn: number } {
  const m = ctx.designers.length;
  return { designerIndex: i % m, turn: Math.floor(i / m) + 1 };
}

export function expectedMessages(ctx: Pick<StepContext, 'designers' | 'settings'>): number {
  return ctx.designers.length * ctx.settings.turnsPerAgent;
}

/** The messages of one proxy turn, in cache-friendly order. */
export function proxyTurnMessages(ctx: StepContext, d: DiscussionInput, designerIndex: number, turn: number): ChatMessage[] {
  const designer = ctx.designers[designerIndex]!;
  return [
    ...d.prefix,
    ...transcriptMessages(d.iteration.messages, (id) => nameOf(ctx.designers, id)),
    personaMessage({
      designer,
      iteration: d.iteration,
      totalIterations: ctx.settings.iterations,
      candidates: d.candidates,
      labelOf: d.labelOf,
      turn,
      turnsPerAgent: ctx.settings.turnsPerAgent,
      hasFeedback: Boolean(d.iteration.feedback?.trim()),
    }),
  ];
}

export async function runDiscussion(ctx: StepContext, d: DiscussionInput): Promise<void> {
  const total = expectedMessages(ctx);
  while (d.iteration.messages.length < total) {
    if (ctx.signal?.aborted) throw new CancelledError();
    const { designerIndex, turn } = speakerAt(ctx, d.iteration.messages.length);
    const designer = ctx.designers[designerIndex]!;
    const messages = proxyTurnMessages(ctx, d, designerIndex, turn);
    ctx.emit({
      type: 'turn-started',
      runId: ctx.record.id,
      iteration: d.iteration.index,
      speaker: designer.id,
      speakerName: designer.name,
      turn,
    });
    const { text, usage } = await streamTurn(ctx, messages, (delta) =>
      ctx.emit({ type: 'turn-delta', runId: ctx.record.id, iteration: d.iteration.index, speaker: designer.id, turn, text: delta }),
    );
    const promptId = nextPromptId(ctx.record);
    const at = new Date().toISOString();
    addPrompt(ctx.record, {
      id: promptId,
      iteration: d.iteration.index,
      kind: 'proxy-turn',
      speaker: designer.id,
      model: ctx.settings.chatModel,
      at,
      messages: toRecordedMessages(messages),
      usage,
    });
    const message: Message = {
      id: messageId(d.iteration.index, d.iteration.messages.length + 1),
      kind: 'proxy',
      speaker: designer.id,
      turn,
      content: text,
      promptId,
      at,
    };
    d.iteration.messages.push(message);
    await ctx.save();
    ctx.emit({ type: 'turn-completed', runId: ctx.record.id, iteration: d.iteration.index, message });
  }
}

/** One streamed chat call; retried when the stream breaks off or comes back empty. */
async function streamTurn(
  ctx: StepContext,
  messages: readonly ChatMessage[],
  onDelta: (text: string) => void,
): Promise<{ text: string; usage: Partial<Usage> }> {
  const usage: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, images: 0 };
  let lastProblem = '';
  for (let attempt = 0; attempt <= STREAM_RETRIES; attempt++) {
    if (attempt > 0) {
      ctx.emit({ type: 'notice', runId: ctx.record.id, level: 'warning', message: `${lastProblem} Asking again (${attempt} of ${STREAM_RETRIES}).` });
    }
    let text = '';
    let finished = false;
    try {
      await withChildSignal(ctx.signal, async (signal) => {
        const stream = await ctx.client.chat.completions.create(
          { model: ctx.settings.chatModel, messages: toApiMessages(messages), stream: true, stream_options: { include_usage: true } },
          { signal },
        );
        for await (const chunk of stream) {
          const choice = chunk.choices[0];
          const delta = choice?.delta?.content;
          if (delta) {
            text += delta;
            onDelta(delta);
          }
          if (choice?.finish_reason) finished = true;
          const u = chatUsage(chunk.usage);
          if (u) addUsage(usage, u);
        }
      });
    } catch (err) {
      if (isAbort(err, ctx.signal)) throw new CancelledError();
      // Errors before any byte arrived were already retried by the SDK (429, 5xx, timeouts): give up now.
      if (!isBrokenStream(err, text)) throw err;
      lastProblem = 'The model\'s answer broke off.';
      continue;
    }
    if (!finished) {
      lastProblem = 'The model\'s answer broke off before it finished.';
      continue;
    }
    if (!text.trim()) {
      lastProblem = 'The model sent an empty message.';
      continue;
    }
    return { text: text.trim(), usage };
  }
  throw new StepError(`A proxy turn failed: ${lastProblem} (after ${STREAM_RETRIES + 1} attempts). Resume the run to try again.`);
}

/** A failure after the stream started (or a connection dropped while reading) rather than an HTTP error status. */
function isBrokenStream(err: unknown, textSoFar: string): boolean {
  if (textSoFar.length > 0) return true;
  // Connection failures and timeouts were already retried by the SDK; HTTP errors carry a status. Neither is a broken stream.
  if (err instanceof OpenAI.APIConnectionError || err instanceof OpenAI.APIError) return false;
  return err instanceof Error && !/timed out|timeout/i.test(err.message);
}
