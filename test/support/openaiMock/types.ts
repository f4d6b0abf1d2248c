/**
 * Types shared by the local OpenAI-compatible mock server (test support only, never shipped).
 */

/** Which scripted-reply queue a request draws from. */
export type MockRoute = 'chat' | 'edit';

/** Token counts a scripted chat reply may force (missing ones are estimated). */
export interface MockUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  cached_tokens?: number;
}

/** One scripted answer. Queued per route with `enqueue`, or returned by a fallback. */
export type MockReply =
  /** A chat completion whose message content is `content` (SSE when the request streams). */
  | { kind: 'chat'; content: string; usage?: MockUsage; chunkDelayMs?: number; finishReason?: 'stop' | 'length' | 'content_filter' }
  /** A chat completion whose content is `JSON.stringify(value)`. */
  | { kind: 'json'; value: unknown; usage?: MockUsage; chunkDelayMs?: number }
  /**
   * An images/edits answer carrying this PNG (default: one made from the uploads; `blend`: a weighted blend at their size,
   * led by upload `lead.index` (0-based; default the first) at weight `lead.weight` (default 1)).
   */
  | { kind: 'image'; png?: Buffer; blend?: boolean; lead?: { index: number; weight: number } }
  /** An HTTP error; `body` defaults to an OpenAI-style error object. Headers e.g. `retry-after`, `retry-after-ms`. */
  | { kind: 'error'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answers: the request stays open until the client gives up or the server closes. */
  | { kind: 'hang' }
  /** A streamed chat answer whose connection is destroyed after `afterChunks` SSE chunks. */
  | { kind: 'cut-stream'; afterChunks: number; content?: string }
  /** Any body with any status, e.g. invalid JSON with 200. */
  | { kind: 'raw'; status: number; body: string | Buffer; contentType?: string; headers?: Record<string, string> };

/** A file part of a multipart request. */
export interface UploadedFile {
  /** Form field name as sent, e.g. `image[]`. */
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** What the mock saw of one request. */
export interface RecordedRequest {
  /** 1-based order of arrival. */
  seq: number;
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  route: MockRoute | 'models' | 'files' | 'batches' | 'other';
  /**
   * Lower-cased request headers. `authorization` is present but not enumerable, so tests can check it
   * while logs, JSON.stringify and console.log never show it.
   */
  headers: Record<string, string>;
  /** Parsed JSON body; for multipart the text fields (repeated names become arrays); undefined when none. */
  body: unknown;
  /** File parts of a multipart body. */
  files: UploadedFile[];
  /** Violations of the official OpenAPI request schema (empty when valid or not validated). */
  validationErrors: string[];
  /** Milliseconds since the epoch when the request arrived. */
  receivedAt: number;
  /** Milliseconds since the epoch when the answer ended (or the connection closed); undefined while pending. */
  finishedAt?: number;
  /** Requests of the same route in flight when this one arrived (itself included). */
  concurrent?: number;
  /** Query parameters of the URL (e.g. Azure's `api-version`). */
  query?: Record<string, string>;
  /** Azure-shaped server: the deployment named in the path. */
  deployment?: string;
  /** Status of the answer once sent (undefined while pending, for hangs, and for cut streams). */
  status?: number;
}

export interface MockOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Models listed by GET /v1/models (default MOCK_MODELS); e.g. chat models only, to play a chat-only server. */
  models?: string[];
  /**
   * Azure-shaped: chat and edits only at /openai/deployments/<deployment>/chat/completions and …/images/edits, each with an
   * `api-version` query (else 404 / 400 as Azure answers); `baseURL` is then the resource URL (AZURE_OPENAI_ENDPOINT).
   */
  azure?: boolean;
  /** Routes answered 404 as on a server that does not have them (e.g. ['edit', 'models'] for a chat-only server). */
  missingRoutes?: Array<'edit' | 'models'>;
  /** Fixed delay before every answer. */
  latencyMs?: number;
  /** Answer spec-invalid requests with 400 (default true). When false they are only recorded. */
  strict?: boolean;
  /** Pad default designer replies to about this many bytes (e.g. 1024 for "messages of about 1 KB"); default 0: unpadded. */
  messageBytes?: number;
  /** Path of openapi.json or of the folder holding it (default: env TEAMFUSION_OPENAI_SPEC, else test/support/openai-spec). */
  specPath?: string;
  /** Batches: retrievals that still see a batch pending, and how it ends (see batches.ts). */
  batch?: { pendingPolls?: number; outcome?: 'completed' | 'expired' | 'failed'; answeredBeforeExpiry?: number };
  /**
   * Name itself as TeamFusion's scripted server: every answer carries `x-teamfusion-scripted: true`, so a run made against it
   * is recorded `scripted: true` (src/core/llm/scripted.ts). The bundled server (cli.ts: `npm run demo`, `npm run
   * scripted-server`) always does; tests that play a real endpoint leave it off (default false).
   */
  scripted?: boolean;
  /** Called once per finished request (the CLI prints it). Never receives the authorization value. */
  onLog?: (line: string) => void;
}

export type MockFallback = (req: RecordedRequest) => MockReply | undefined;
