/**
 * The seam between the engine and a model provider. The engine (proxies, remix agent, guests, lead decisions, discussion
 * coding, image edits) talks only to these two small interfaces; the `openai` SDK implements both (openaiBackend.ts), VS Code's
 * Language Model API implements the chat one in the extension (src/extension/llm/). No `vscode` here.
 */
import type { Usage } from '../record/record';
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

/** A request failed and the backend already said why in one sentence a user can act on (e.g. a VS Code model refused). */
export class ModelRequestError extends Error {
  constructor(
    message: string,
    /** A short machine code, e.g. 'no-permissions', 'not-found', 'blocked'. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ModelRequestError';
  }
}
