/**
 * What the commands that ask a model outside a run share (criteria, judge, code-discussion): the price table, a client
 * made only when a request is needed (a reused answer or a refusal needs no key), Ctrl-C as cancellation, and their
 * refusals as one sentence each.
 */
import type OpenAI from 'openai';
import { createModelClient, ModelConfigError } from '../core/llm/client';
import { OpenAIChatBackend } from '../core/llm/openaiBackend';
import { isModelRequestError, type ChatBackend } from '../core/llm/backend';
import type { PriceTable } from '../core/llm/pricing';
import { ReviewFileError } from '../core/files/reviewFiles';
import { fileErrorDiagnostic } from '../core/files/fileKinds';
import { formatDiagnostic } from '../core/diagnostics/diagnostics';
import { describeError } from '../core/llm/errors';
import { CancelledError, errorMessage } from '../core/kernel/errors';
import { writeLine } from './output';
import { envNumber, readPriceTable } from './environment';

/** The CLI's model client: timeout and retries from the environment (TEAMFUSION_REQUEST_TIMEOUT_SECONDS, TEAMFUSION_MAX_RETRIES). */
export function cliModelClient(): OpenAI {
  return createModelClient({
    timeoutMs: envNumber('TEAMFUSION_REQUEST_TIMEOUT_SECONDS', 1000),
    maxRetries: envNumber('TEAMFUSION_MAX_RETRIES', 1),
  });
}

/** A chat backend whose client is made at its first request. */
export function lazyChatBackend(): ChatBackend {
  let chat: OpenAIChatBackend | undefined;
  return {
    provider: 'openai',
    acceptsImages: false,
    priced: true,
    /** Whether the bundled scripted server answered (llm/scripted.ts): the command then says so, never a model's name. */
    get scripted() {
      return chat?.scripted === true;
    },
    chat: (req) => {
      chat ??= new OpenAIChatBackend(cliModelClient());
      return chat.chat(req);
    },
  };
}

/** The price table of TEAMFUSION_PRICES; `false` after saying why it cannot be used. */
export async function pricesOrSay(): Promise<PriceTable | undefined | false> {
  try {
    return await readPriceTable(process.env.TEAMFUSION_PRICES);
  } catch (err) {
    writeLine(process.stderr, errorMessage(err));
    return false;
  }
}

/** Runs `work` with Ctrl-C cancelling it (said with `words`, e.g. "nothing is written"). */
export async function withCtrlC<T>(words: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = (): void => {
    process.stderr.write(`\nCancelling… (${words})\n`);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

export interface Refusal {
  /** The command's name in the line: "criteria", "judge". */
  command: string;
  /** What the model was asked for, as describeError names it: "The judge". */
  request: string;
  /** What replaces "Resume the run…" for a command that is not a run: "judge again later". */
  again: string;
  /** Errors of the command's own that are said as their message. */
  own?: (err: unknown) => boolean;
}

/** The exit code for an error the command says in one sentence (130 cancelled, 1 refused or failed); anything else is thrown. */
export function exitForRefusal(err: unknown, r: Refusal): number {
  if (err instanceof CancelledError) return 130;
  if (err instanceof ModelConfigError || r.own?.(err)) {
    writeLine(process.stderr, `teamfusion ${r.command}: ${errorMessage(err)}`);
    return 1;
  }
  if (err instanceof ReviewFileError) {
    writeLine(process.stderr, /:\d+:\d+: error: /.test(err.message) ? err.message : formatDiagnostic(fileErrorDiagnostic(err)));
    return 1;
  }
  if (isModelRequestError(err)) {
    writeLine(
      process.stderr,
      `teamfusion ${r.command}: ${describeError(err, r.request).replace(/ Resume the run (to try again|later)\.$/, ` Nothing was written; ${r.again}.`)}`,
    );
    return 1;
  }
  throw err;
}
