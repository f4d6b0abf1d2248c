/**
 * One streamed chat call of a discussion turn, handled as real engines answer (issue 32, item 4): a stream that breaks
 * off or comes back empty is asked again (at most STREAM_RETRIES more times), each warning naming the speaker, the round
 * and the turn; an answer cut by the engine's length limit (`finish_reason: "length"`) is kept as it is, marked `cut`, and
 * said in the log and on the run's notices with the same names — never kept silently.
 */
import { isModelRequestError } from '../llm/backend';
import type { ChatMessage } from '../llm/messages';
import { addUsage, zeroUsage } from '../kernel/usage';
import { type StepContext } from '../step/context';
import { CancelledError, StepError, withChildSignal } from '../kernel/errors';
import { TIMEOUT_ADVICE, isAbort } from '../llm/errors';
import type { Usage } from '../record/record';
import { warn } from '../step/warn';

/** The temperature field of a chat request (every chat request of a run made with this setting carries it). */
export function temperatureOf(ctx: Pick<StepContext, 'settings'>): { temperature?: number } {
  return ctx.settings.temperature === undefined ? {} : { temperature: ctx.settings.temperature };
}

/** A stream that breaks off (connection cut, no finish) is asked again this many extra times before the run fails. */
export const STREAM_RETRIES = 2;

/** Who is speaking, for the words of a warning: "Ana's proxy (round 1, turn 2)". */
export interface TurnWho {
  name: string;
  kind: 'proxy' | 'guest';
  iteration: number;
  turn: number | null;
}

export function turnLabel(w: TurnWho): string {
  const whose = w.kind === 'guest' ? `${w.name} (guest)` : `${w.name}'s proxy`;
  return `${whose} (round ${w.iteration}, ${w.turn === null ? 'extra turn' : `turn ${w.turn}`})`;
}

export interface StreamedTurn {
  text: string;
  usage: Partial<Usage>;
  model?: string;
  /** The engine stopped at its length limit: the text is what came before. */
  cut?: true;
}

/** One streamed chat call; retried when the stream breaks off or comes back empty. */
export async function streamTurn(
  ctx: StepContext,
  who: TurnWho,
  messages: readonly ChatMessage[],
  onDelta: (text: string) => void,
): Promise<StreamedTurn> {
  const usage = zeroUsage();
  const label = turnLabel(who);
  let lastProblem = '';
  for (let attempt = 0; attempt <= STREAM_RETRIES; attempt++) {
    if (attempt > 0) {
      const line = `${label}: ${lastProblem} Asking again (${attempt} of ${STREAM_RETRIES}).`;
      warn(ctx, line);
    }
    let text = '';
    let finishReason: string | undefined;
    let model: string | undefined;
    try {
      const answer = await withChildSignal(ctx.signal, (signal) =>
        ctx.chat.chat({
          model: ctx.settings.chatModel,
          messages,
          ...temperatureOf(ctx),
          signal,
          onDelta: (delta) => {
            text += delta;
            onDelta(delta);
          },
        }),
      );
      finishReason = answer.finishReason;
      model = answer.model;
      if (answer.usage) addUsage(usage, answer.usage);
    } catch (err) {
      if (isAbort(err, ctx.signal)) throw new CancelledError();
      if (!isBrokenStream(err, text)) {
        // Errors before any byte arrived were already retried by the SDK (429, 5xx, timeouts): give up now. A timeout
        // names the turn and the setting that raises it.
        if (isModelRequestError(err, 'timeout'))
          throw new StepError(`${label}: the request timed out, also after retries. ${TIMEOUT_ADVICE}`);
        throw err;
      }
      lastProblem = "The model's answer broke off.";
      continue;
    }
    if (finishReason === undefined) {
      lastProblem = "The model's answer broke off before it finished.";
      continue;
    }
    if (!text.trim()) {
      lastProblem =
        finishReason === 'length' ? 'The model sent an empty message (cut off by its length limit).' : 'The model sent an empty message.';
      continue;
    }
    if (finishReason === 'length') {
      const line = `${label}: the answer was cut off by the model's length limit (finish_reason "length"); it is kept as it is and marked cut.`;
      warn(ctx, line);
      return { text: text.trim(), usage, ...(model ? { model } : {}), cut: true };
    }
    return { text: text.trim(), usage, ...(model ? { model } : {}) };
  }
  throw new StepError(`${label} failed: ${lastProblem} (after ${STREAM_RETRIES + 1} attempts). Resume the run to try again.`);
}

/** A failure after the stream started (or a connection dropped while reading) rather than an HTTP error status. */
function isBrokenStream(err: unknown, textSoFar: string): boolean {
  if (textSoFar.length > 0) return true;
  // Connection failures and timeouts were already retried by the SDK; HTTP errors carry a status; the backend said what
  // failed. None is a broken stream, unless the backend could not read the answer on.
  if (isModelRequestError(err) && err.kind !== 'unreadable') return false;
  return err instanceof Error && !/timed out|timeout/i.test(err.message);
}
