/**
 * A small OpenAI-compatible server in front of llama.cpp (engine.ts): what the product needs of the chat-completions
 * API and no more. GET /v1/models; POST /v1/chat/completions plain or streamed (server-sent events, a last usage chunk
 * when `stream_options.include_usage`), `finish_reason` from the engine (`length` when the token cap ended the answer);
 * `response_format` json_schema → node-llama-cpp's createGrammarForJsonSchema, json_object → its JSON grammar. A schema
 * the converter would not honour (schemaSupport.ts) and an image part (the engine has no vision) get a 400 that says so.
 * Every answered or refused request is reported to `onRequest`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Generation, Grammar, LlamaEngine, Turn } from './engine';
import { errorMessage } from '../../../src/core/kernel/errors';
import { unsupportedPart } from './schemaSupport';

/** The id /v1/models lists for the one model. */
export const MODEL_ID = 'tiny-standin';
/** Where the seeds of requests that name none start. */
const SEED_BASE = 20261127;

export interface LlamaRequestLog {
  route: 'models' | 'chat';
  status: number;
  stream?: boolean;
  format?: 'text' | 'json_schema' | 'json_object';
  schemaName?: string;
  finishReason?: 'stop' | 'length';
  promptTokens?: number;
  completionTokens?: number;
  ms?: number;
  /** The answer's text (the words are noise; kept so a test can compare what the product made of it). */
  text?: string;
  /** (json_schema) Whether the answer parses and conforms to the schema (node-llama-cpp's own check of its grammar). */
  withinSchema?: boolean;
  error?: string;
}

export interface LlamaServerOptions {
  /** The model id /v1/models lists (any id is answered by the one model). */
  modelId: string;
  /** The token cap of a request that names none (like llama-server's --n-predict). */
  defaultMaxTokens: number;
  onRequest?: (log: LlamaRequestLog) => void;
}

class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Part = { type?: string; text?: string };
interface ChatBody {
  model?: string;
  messages?: { role?: string; content?: string | Part[] | null }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  seed?: number;
  response_format?: { type?: string; json_schema?: { name?: string; schema?: unknown } };
}

function turnsOf(body: ChatBody): Turn[] {
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw new RequestError(400, 'messages: a non-empty list is required');
  return body.messages.map((m, i) => {
    const role = m.role === 'developer' ? 'system' : m.role;
    if (role !== 'system' && role !== 'user' && role !== 'assistant')
      throw new RequestError(400, `messages[${i}].role "${String(m.role)}" is not supported`);
    if (typeof m.content === 'string' || m.content == null) return { role, text: m.content ?? '' };
    const texts = m.content.map((p, j) => {
      if (p.type === 'text' && typeof p.text === 'string') return p.text;
      if (p.type === 'image_url')
        throw new RequestError(
          400,
          `messages[${i}].content[${j}]: an image, and this engine (the tiny stand-in model) has no vision; send text only`,
        );
      throw new RequestError(400, `messages[${i}].content[${j}]: part type "${String(p.type)}" is not supported`);
    });
    return { role, text: texts.join('\n') };
  });
}

export class LlamaHttpServer {
  private server: Server | undefined;
  private created = Math.floor(Date.now() / 1000);
  private counter = 0;

  constructor(
    private readonly engine: LlamaEngine,
    private readonly o: LlamaServerOptions,
  ) {}

  async listen(port = 0): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    const { port: bound } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${bound}/v1`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/^\/v1/, '');
    try {
      if (req.method === 'GET' && path === '/models') {
        this.o.onRequest?.({ route: 'models', status: 200 });
        return json(res, 200, {
          object: 'list',
          data: [{ id: this.o.modelId, object: 'model', created: this.created, owned_by: 'llama.cpp' }],
        });
      }
      if (req.method === 'POST' && path === '/chat/completions') return await this.chat(req, res);
      throw new RequestError(404, `${req.method ?? '?'} ${url.pathname} is not served here`);
    } catch (e) {
      const status = e instanceof RequestError ? e.status : 500;
      const message = errorMessage(e);
      this.o.onRequest?.({ route: path === '/models' ? 'models' : 'chat', status, error: message });
      if (!res.headersSent)
        json(res, status, { error: { message, type: status === 400 ? 'invalid_request_error' : 'server_error', code: null, param: null } });
      else res.end();
    }
  }

  private async chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: ChatBody;
    try {
      body = JSON.parse(await readBody(req)) as ChatBody;
    } catch {
      throw new RequestError(400, 'the body is not JSON');
    }
    const turns = turnsOf(body);
    const format = body.response_format?.type ?? 'text';
    let grammar: Grammar | undefined;
    let schemaName: string | undefined;
    if (format === 'json_schema') {
      schemaName = body.response_format?.json_schema?.name ?? '(unnamed)';
      const schema = body.response_format?.json_schema?.schema;
      const bad = unsupportedPart(schema);
      if (bad) throw new RequestError(400, `response_format json_schema "${schemaName}" cannot be turned into a grammar: ${bad}`);
      try {
        grammar = await this.engine.grammarForSchema(schema);
      } catch (e) {
        throw new RequestError(400, `response_format json_schema "${schemaName}" cannot be turned into a grammar: ${errorMessage(e)}`);
      }
    } else if (format === 'json_object') {
      grammar = await this.engine.grammarForJson();
    } else if (format !== 'text') {
      throw new RequestError(400, `response_format type "${format}" is not supported`);
    }
    const id = `chatcmpl-llama-${++this.counter}`;
    const model = body.model ?? this.o.modelId;
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const common = {
      maxTokens: body.max_completion_tokens ?? body.max_tokens ?? this.o.defaultMaxTokens,
      temperature: body.temperature ?? 1,
      // node-llama-cpp seeds an unseeded request with the current second, so a retry within that second would draw the
      // very same answer; each request gets its own seed instead (a fixed start and the request's number: repeatable).
      seed: body.seed ?? SEED_BASE + this.counter,
      ...(grammar ? { grammar } : {}),
      signal: abort.signal,
    };
    const base = { id, created: Math.floor(Date.now() / 1000), model, system_fingerprint: 'llama.cpp-node-llama-cpp' };
    const report = (g: Generation) =>
      this.o.onRequest?.({
        route: 'chat',
        status: 200,
        stream: body.stream === true,
        format: format as 'text',
        ...(schemaName ? { schemaName } : {}),
        finishReason: g.finishReason,
        promptTokens: g.promptTokens,
        completionTokens: g.completionTokens,
        ms: g.ms,
        text: g.text,
        ...(schemaName ? { withinSchema: conforms(grammar, g.text) } : {}),
      });
    const usageOf = (g: { promptTokens: number; completionTokens: number }) => ({
      prompt_tokens: g.promptTokens,
      completion_tokens: g.completionTokens,
      total_tokens: g.promptTokens + g.completionTokens,
    });

    if (body.stream !== true) {
      const g = await this.engine.generate(turns, common);
      report(g);
      return json(res, 200, {
        ...base,
        object: 'chat.completion',
        choices: [
          { index: 0, message: { role: 'assistant', content: g.text, refusal: null }, logprobs: null, finish_reason: g.finishReason },
        ],
        usage: usageOf(g),
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (chunk: object) => res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', ...chunk })}\n\n`);
    send({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] });
    const g = await this.engine.generate(turns, {
      ...common,
      onText: (text) => send({ choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }] }),
    });
    report(g);
    send({ choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: g.finishReason }] });
    if (body.stream_options?.include_usage) send({ choices: [], usage: usageOf(g) });
    res.end('data: [DONE]\n\n');
  }
}

function conforms(grammar: Grammar | undefined, text: string): boolean {
  try {
    grammar?.parse?.(text);
    return grammar?.parse !== undefined;
  } catch {
    return false;
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
