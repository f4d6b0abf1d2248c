/**
 * The seam between the engine and a model provider. The engine (proxies, remix agent, guests, lead decisions, discussion
 * coding, image edits) talks only to these two small interfaces; the `openai` SDK implements both (openaiBackend.ts), VS Code's
 * Language Model API implements the chat one in the extension (src/extension/llm/). No `vscode` here.
 */
import type { Usage } from '../kernel/usage';
import type { ChatMessage } from './messages';

/** A structured answer: a JSON schema the answer must follow (OpenAI: `response_format: json_schema`; others: asked in the prompt). */
export interface StructuredOutput {
  name: string;
  strict: boolean;
  schema: Record<string, unknown>;
}

export interface ChatRequest {
  model: string;
  messages: readonly ChatMessage[];
  temperature?: number;
  structured?: StructuredOutput;
  signal?: AbortSignal;
  /** When given, the answer is streamed: each piece of text is passed here as it arrives. */
  onDelta?: (text: string) => void;
}

export interface ChatAnswer {
  text: string;
  /** The model declined (OpenAI's `refusal`). */
  refusal?: string;
  /** 'stop', 'length', …; undefined when a streamed answer ended without saying it finished. */
  finishReason?: string;
  usage?: Partial<Usage>;
  /** The model that answered, when the backend knows it better than the request did (recorded per message). */
  model?: string;
}

export interface ChatBackend {
  /** 'openai' (any OpenAI-compatible or Azure endpoint) or 'vscode' (VS Code's language models). */
  readonly provider: 'openai' | 'vscode';
  /** Host (and port) of the endpoint for the record — never credentials, path or query; undefined when there is none. */
  readonly host?: string;
  /** Whether user messages may carry images (false: the engine describes candidates by label and justifications). */
  readonly acceptsImages: boolean;
  /** Whether cost is billed per token from the price table (false: "covered by your plan", no cost estimated). */
  readonly priced: boolean;
  /** True once an answer came from the bundled scripted server (llm/scripted.ts): the run is marked `scripted`. */
  readonly scripted?: boolean;
  chat(req: ChatRequest): Promise<ChatAnswer>;
}

export interface ImageEditRequest {
  model: string;
  /** The input images, best first: bytes, a file name and the MIME type detected from the bytes. */
  images: readonly { data: Buffer; name: string; mime: string }[];
  prompt: string;
  size?: string;
  quality?: string;
  signal?: AbortSignal;
}

/** The usage an image endpoint reported (gpt-image models do), as sent. */
export interface ReportedImageUsage {
  input_tokens?: number;
  output_tokens?: number;
  input_tokens_details?: { text_tokens?: number; image_tokens?: number };
}

export interface ImageEditAnswer {
  b64?: string;
  url?: string;
  usage?: ReportedImageUsage;
}

export interface ImageBackend {
  readonly host?: string;
  /** True once an answer came from the bundled scripted server (llm/scripted.ts). */
  readonly scripted?: boolean;
  edit(req: ImageEditRequest): Promise<ImageEditAnswer>;
  /**
   * Checks with requests that cost nothing (the model list) that this endpoint can edit images with `model`.
   * Resolves to one sentence naming the endpoint and what to change when it cannot, undefined when it can (or when the
   * endpoint does not say either way).
   */
  check?(model: string, signal?: AbortSignal): Promise<string | undefined>;
}

/**
 * How a model request failed, as the backend that made it tells (the one place a provider's errors are classified; the
 * rooms above ask the kind, never a provider's error class).
 */
export type ModelRequestKind =
  /** The caller's signal cancelled it. */
  | 'aborted'
  /** No answer in time, also after the retries. */
  | 'timeout'
  /** The endpoint could not be reached, also after the retries. */
  | 'connection'
  /** 401: the key was not accepted. */
  | 'auth'
  /** 403, or VS Code gave no permission for the model. */
  | 'permission'
  /** 404, or the VS Code model is gone. */
  | 'not-found'
  /** 429, also after the retries. */
  | 'rate-limit'
  /** The provider refused it (a VS Code model blocked it, e.g. by a quota). */
  | 'refused'
  /** Another HTTP error status (`status`). */
  | 'status'
  /** The endpoint or provider said it failed, without a status (e.g. an error event inside a stream). */
  | 'failed'
  /** The client could not read the answer (not an error the endpoint sent): a stream that broke is retried like one. */
  | 'unreadable';

/**
 * A model request failed, classified by its backend. `message` is what the provider said (the SDK error's own message);
 * describeError (errors.ts) renders the one sentence for the user from the kind and the step's name. A backend that
 * already wrote that sentence itself (a VS Code model names itself) passes `said: true`, and the message is shown as it is.
 */
export class ModelRequestError extends Error {
  /** HTTP status of the answer, when there was one. */
  readonly status?: number;
  /** What the endpoint said, as the sentence quotes it (its error body's message where it has one). */
  readonly detail: string;
  /** The message is already the one sentence for the user. */
  readonly said: boolean;

  constructor(
    message: string,
    readonly kind: ModelRequestKind,
    o: { status?: number; detail?: string; cause?: unknown; said?: boolean } = {},
  ) {
    super(message, o.cause === undefined ? undefined : { cause: o.cause });
    this.name = 'ModelRequestError';
    if (o.status !== undefined) this.status = o.status;
    this.detail = o.detail ?? message;
    this.said = o.said === true;
  }
}

/** Whether `err` is a failed model request (of one of `kinds`, when given). */
export function isModelRequestError(err: unknown, ...kinds: ModelRequestKind[]): err is ModelRequestError {
  return err instanceof ModelRequestError && (kinds.length === 0 || kinds.includes(err.kind));
}
