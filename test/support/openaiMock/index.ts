/**
 * MockOpenAI: a local OpenAI-compatible server for tests and benchmarks (node:http only).
 *
 *   const mock = await MockOpenAI.start();            // 127.0.0.1, random port
 *   const client = new OpenAI({ apiKey: 'test-key', baseURL: mock.baseURL });
 *   mock.enqueue('chat', { kind: 'error', status: 429, headers: { 'retry-after-ms': '50' } });
 *   ...
 *   assert.deepEqual(mock.specErrors(), []);
 *   await mock.close();
 *
 * Routes: POST /v1/chat/completions (JSON, SSE when `stream: true`), POST /v1/images/edits (multipart or JSON),
 * GET /v1/models[/id], the Files and Batch API (batches.ts); anything else is a 404 OpenAI-style error. Every request body is checked against OpenAI's
 * official OpenAPI spec; violations are recorded (specErrors) and, when `strict` (default), answered with 400.
 * Scripted replies are taken FIFO per route; with none queued, the fallback (setFallback) and then a default
 * auto-responder answer.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultReply, designerReply } from './autoResponder';
import { chatChunks, chatCompletion, makeUsage, PromptCache, promptUnits, type CompletionMeta } from './chatPayloads';
import { multipartBoundary, parseMultipart } from './multipart';
import { isObject } from './openapiSchema';
import { editPng } from './png';
import { blendPng } from './runImage';
import { FilesAndBatches, type LineAnswer } from './batches';
import { loadSpecValidator, type SpecValidator } from './specValidator';
import { WAIT_CEILING_MS } from '../waitFor';
import { SCRIPTED_HEADER } from '../../../src/core/llm/scripted';
import type { MockFallback, MockOptions, MockReply, MockRoute, MockUsage, RecordedRequest } from './types';

export type { BatchOutcome, BatchSettings } from './batches';
export type { MockFallback, MockOptions, MockReply, MockRoute, MockUsage, RecordedRequest, UploadedFile } from './types';
export { instanceFromSchema } from './schemaInstance';
export { imageLabels, designerReply } from './autoResponder';

/** Models listed by GET /v1/models. */
export const MOCK_MODELS = ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-image-1'];

const MAX_BODY_BYTES = 100 * 1024 * 1024;
/** Headers recorded but never enumerable (so never printed or serialised). */
const SECRET_HEADERS = new Set(['authorization', 'api-key', 'x-api-key']);

interface Pending {
  timer: NodeJS.Timeout;
  resolve: () => void;
}

export function openaiError(message: string, type: string, code: string | null, param: string | null = null): object {
  return { error: { message, type, param, code } };
}

function defaultErrorBody(status: number): object {
  if (status === 429) return openaiError('Rate limit reached for requests (mock).', 'requests', 'rate_limit_exceeded');
  if (status === 401) return openaiError('Incorrect API key provided (mock).', 'invalid_request_error', 'invalid_api_key');
  if (status === 400) return openaiError('Invalid request (mock).', 'invalid_request_error', null);
  if (status >= 500) return openaiError('The server had an error while processing your request (mock).', 'server_error', null);
  return openaiError(`Mock error ${status}.`, 'invalid_request_error', null);
}

function recordHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(h)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (SECRET_HEADERS.has(key)) Object.defineProperty(out, key, { value: text, enumerable: false, writable: false });
    else out[key] = text;
  }
  return out;
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('Request body too large.'));
        req.destroy();
      } else parts.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

function fieldsObject(fields: Array<{ name: string; value: string }>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const { name: raw, value } of fields) {
    const list = raw.endsWith('[]');
    const name = list ? raw.slice(0, -2) : raw;
    const existing = out[name];
    if (existing === undefined) out[name] = list ? [value] : value;
    else out[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

/** A closed door answers wait at; `open` lets them all through. */
interface Gate {
  promise: Promise<void>;
  open: () => void;
}

export class MockOpenAI {
  /** http://127.0.0.1:PORT/v1 */
  readonly baseURL: string;
  readonly port: number;
  /** Every request in order of arrival (cleared by reset). */
  readonly requests: RecordedRequest[] = [];
  /** Delay before every answer, in milliseconds (may be changed at any time). */
  latencyMs: number;
  /** Answer spec-invalid requests with 400 (true) or serve them anyway (false); violations are recorded either way. */
  strict: boolean;
  /** Default designer replies (plain chat turns) padded with more words to about this many bytes; 0: as they come. */
  messageBytes: number;
  /** Models listed by GET /v1/models. */
  models: string[];
  /** Azure-shaped paths (/openai/deployments/<d>/…?api-version=…) instead of /v1/…. */
  readonly azure: boolean;
  /** Routes this server plays as missing (404). */
  missingRoutes: Set<string>;

  private readonly queues: Record<MockRoute, MockReply[]> = { chat: [], edit: [] };
  private fallback: MockFallback | undefined;
  private violations: string[] = [];
  private readonly openResponses = new Set<http.ServerResponse>();
  private readonly pending = new Set<Pending>();
  private readonly promptCache = new PromptCache();
  private seq = 0;
  private closed = false;
  /** While set, every answer waits for it (see hold). */
  private gate: Gate | undefined;
  /** A hold that starts with the first request for which `when` holds. */
  private holdAt: { when: () => boolean; gate: Gate } | undefined;
  /** Uploaded files and batches; `batch.settings` says how long a batch stays pending and how it ends. */
  readonly batch: FilesAndBatches;
  private readonly inFlight: Record<string, number> = {};
  private peak: Record<string, number> = {};

  private constructor(
    private readonly server: http.Server,
    private readonly validator: SpecValidator,
    private readonly onLog: ((line: string) => void) | undefined,
    options: MockOptions,
  ) {
    const address = server.address() as AddressInfo;
    this.port = address.port;
    this.baseURL = options.azure ? `http://127.0.0.1:${this.port}` : `http://127.0.0.1:${this.port}/v1`;
    this.latencyMs = options.latencyMs ?? 0;
    this.strict = options.strict ?? true;
    this.messageBytes = options.messageBytes ?? 0;
    this.models = [...(options.models ?? MOCK_MODELS)];
    this.azure = options.azure === true;
    this.missingRoutes = new Set(options.missingRoutes ?? []);
    this.batch = new FilesAndBatches(
      {
        pendingPolls: options.batch?.pendingPolls ?? 0,
        outcome: options.batch?.outcome ?? 'completed',
        answeredBeforeExpiry: options.batch?.answeredBeforeExpiry,
      },
      (body, customId) => this.answerBatchLine(body, customId),
      (body) => validator.validateJson('chat', body),
    );
  }

  /** Starts a server on 127.0.0.1 (port 0 = a free one). Throws when OpenAI's spec cannot be found. */
  static async start(options: MockOptions = {}): Promise<MockOpenAI> {
    const validator = loadSpecValidator(options.specPath);
    const server = http.createServer();
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const mock = new MockOpenAI(server, validator, options.onLog, options);
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (options.scripted) res.setHeader(SCRIPTED_HEADER, 'true');
      mock.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent && !res.destroyed) {
          mock.sendJson(res, undefined, 500, openaiError(`Mock server failure: ${String(err)}`, 'server_error', null));
        } else res.destroy();
      });
    });
    return mock;
  }

  /** Which schemas validate requests ('subset' = test/support/openai-spec/openai-subset.schema.json, 'openapi' = converted openapi.json). */
  get specSource(): string {
    return `${this.validator.source} (${this.validator.specFile})`;
  }

  /** Queues scripted replies for a route, answered first-in first-out. */
  enqueue(route: MockRoute, ...replies: MockReply[]): void {
    this.queues[route].push(...replies);
  }

  /** Replies still queued for a route. */
  queued(route: MockRoute): number {
    return this.queues[route].length;
  }

  /** Decides replies when nothing is queued; returning undefined leaves it to the default auto-responder. */
  setFallback(fn: MockFallback | undefined): void {
    this.fallback = fn;
  }

  /**
   * Resolves once at least `count` requests (of `route`, when given) have arrived; rejects after `timeoutMs` (default:
   * the suites' generous wait ceiling). Handy to act while a request is pending (e.g. cancel during a hang).
   */
  async waitForRequests(count: number, o: { route?: RecordedRequest['route']; timeoutMs?: number } = {}): Promise<RecordedRequest[]> {
    const deadline = Date.now() + (o.timeoutMs ?? WAIT_CEILING_MS);
    const matching = (): RecordedRequest[] => this.requests.filter((r) => o.route === undefined || r.route === o.route);
    while (matching().length < count) {
      if (Date.now() > deadline) {
        throw new Error(`The mock saw ${matching().length} of ${count} expected ${o.route ?? ''} requests in time.`.replace('  ', ' '));
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return matching();
  }

  /**
   * Holds every answer until the returned function is called: requests still arrive and are recorded, none is answered.
   * With `when`, the hold starts at the first request that arrives while `when()` is true (it sees `requests` with that
   * request in it), e.g. `mock.hold(() => turnRequests(mock).length > 4)` lets exactly four turns through. A test that
   * must act while a run is mid-way (a second driver, a signal, a kill) holds the mock instead of counting on the run
   * being slow on this machine. `reset()` and `close()` let held requests go too.
   */
  hold(when?: () => boolean): () => void {
    let open!: () => void;
    const gate: Gate = { promise: new Promise<void>((resolve) => (open = resolve)), open: () => open() };
    if (when) this.holdAt = { when, gate };
    else this.gate = gate;
    return () => {
      if (this.gate === gate) this.gate = undefined;
      if (this.holdAt?.gate === gate) this.holdAt = undefined;
      gate.open();
    };
  }

  /** The most requests of a route (or of any route) that were in flight at the same time since the last reset. */
  maxInFlight(route?: RecordedRequest['route']): number {
    if (route) return this.peak[route] ?? 0;
    return Math.max(0, ...Object.values(this.peak));
  }

  /** Every request-body violation of the official spec so far, as "METHOD path: violation". */
  specErrors(): string[] {
    return [...this.violations, ...this.batch.violations];
  }

  /** Forgets requests, violations, queued replies, the fallback and the prompt cache, and lets held answers go. Options stay. */
  reset(): void {
    this.gate?.open();
    this.holdAt?.gate.open();
    this.gate = this.holdAt = undefined;
    this.requests.length = 0;
    this.violations = [];
    this.queues.chat = [];
    this.queues.edit = [];
    this.fallback = undefined;
    this.promptCache.clear();
    this.batch.reset();
    this.seq = 0;
    this.peak = {};
  }

  /** Stops the server: hanging and streaming answers are cut, keep-alive connections closed. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.pending) {
      clearTimeout(p.timer);
      p.resolve();
    }
    this.pending.clear();
    this.gate?.open();
    this.holdAt?.gate.open();
    for (const res of this.openResponses) res.destroy();
    this.openResponses.clear();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  // ---- request handling -------------------------------------------------------------------------------------

  private sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const entry: Pending = {
        timer: setTimeout(() => {
          this.pending.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      this.pending.add(entry);
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = Date.now();
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    let rel = path.replace(/^\/v1(?=\/)/, '');
    let deployment: string | undefined;
    if (this.azure) {
      // Azure: /openai/deployments/<deployment>/<operation>; nothing under /v1.
      const m = /^\/openai\/deployments\/([^/]+)(\/.*)$/.exec(path);
      deployment = m ? decodeURIComponent(m[1]!) : undefined;
      rel = m ? m[2]! : `/azure-unknown${path}`;
    }
    let route: RecordedRequest['route'] = 'other';
    if (method === 'POST' && rel === '/chat/completions') route = 'chat';
    else if (method === 'POST' && rel === '/images/edits' && !this.missingRoutes.has('edit')) route = 'edit';
    else if (method === 'GET' && (rel === '/models' || rel.startsWith('/models/')) && !this.missingRoutes.has('models')) route = 'models';
    else if ((method === 'POST' && rel === '/files') || (method === 'GET' && /^\/files\/[^/]+(\/content)?$/.test(rel))) route = 'files';
    else if (
      (method === 'POST' && (rel === '/batches' || /^\/batches\/[^/]+\/cancel$/.test(rel))) ||
      (method === 'GET' && /^\/batches\/[^/]+$/.test(rel))
    )
      route = 'batches';

    const record: RecordedRequest = {
      seq: ++this.seq,
      method,
      path,
      route,
      headers: recordHeaders(req.headers),
      body: undefined,
      files: [],
      validationErrors: [],
      receivedAt: started,
      query: Object.fromEntries(url.searchParams),
      ...(deployment !== undefined ? { deployment } : {}),
    };
    this.requests.push(record);
    this.openResponses.add(res);
    this.inFlight[route] = (this.inFlight[route] ?? 0) + 1;
    record.concurrent = this.inFlight[route];
    this.peak[route] = Math.max(this.peak[route] ?? 0, this.inFlight[route]!);
    res.on('close', () => {
      this.inFlight[route] = (this.inFlight[route] ?? 1) - 1;
      record.finishedAt = Date.now();
      this.openResponses.delete(res);
      const outcome = record.status !== undefined ? String(record.status) : res.writableFinished ? 'done' : 'cut';
      const spec = record.validationErrors.length > 0 ? ` spec: ${record.validationErrors.join(' | ')}` : '';
      this.onLog?.(
        `${method} ${path} ${outcome}${res.writableFinished ? '' : ' (connection closed before the answer ended)'} ${Date.now() - started}ms${spec}`,
      );
    });

    let raw: Buffer;
    try {
      raw = await readBody(req);
    } catch {
      res.destroy();
      return;
    }

    if (route === 'chat' || route === 'edit' || route === 'files' || route === 'batches') {
      const errors = this.parseAndValidate(record, req.headers['content-type'], raw);
      record.validationErrors = errors;
      this.violations.push(...errors.map((e) => `${method} ${path}: ${e}`));
      if (errors.length > 0 && this.strict) {
        await this.sleep(this.latencyMs);
        if (this.closed || res.destroyed) return;
        this.sendJson(
          res,
          record,
          400,
          openaiError(
            `Invalid request (checked against OpenAI's OpenAPI spec): ${errors.join('; ')}`,
            'invalid_request_error',
            'spec_violation',
          ),
        );
        return;
      }
    }

    if (this.holdAt?.when()) {
      this.gate = this.holdAt.gate;
      this.holdAt = undefined;
    }
    await this.sleep(this.latencyMs);
    while (this.gate && !this.closed) await this.gate.promise;
    if (this.closed || res.destroyed) return;

    if (this.azure && route !== 'other' && !url.searchParams.get('api-version')) {
      this.sendJson(res, record, 404, { error: { code: '404', message: 'Resource not found (no api-version).' } });
      return;
    }
    if (route === 'models') {
      this.answerModels(res, record, rel);
      return;
    }
    if (route === 'files' || route === 'batches') {
      this.answerFilesAndBatches(res, record, rel);
      return;
    }
    if (route === 'other') {
      this.sendJson(
        res,
        record,
        404,
        openaiError(`Unknown request URL: ${method} ${path}. Please check the URL for typos.`, 'invalid_request_error', 'unknown_url'),
      );
      return;
    }

    let reply: MockReply;
    try {
      reply = this.queues[route].shift() ?? this.fallback?.(record) ?? defaultReply(record, this.messageBytes);
    } catch (err) {
      this.sendJson(res, record, 500, openaiError(`The mock fallback threw: ${String(err)}`, 'server_error', 'mock_fallback'));
      return;
    }
    await this.answer(route, reply, record, res);
  }

  /** Parses the body into the record and returns its spec violations. */
  private parseAndValidate(record: RecordedRequest, contentType: string | undefined, raw: Buffer): string[] {
    const boundary = multipartBoundary(contentType);
    if (record.route === 'files' || record.route === 'batches') {
      const upload = record.method === 'POST' && /\/files$/.test(record.path);
      const create = record.method === 'POST' && /\/batches$/.test(record.path);
      if (!upload && !create) {
        // Retrieve, download and cancel carry no body.
        return raw.length === 0 || (record.method === 'POST' && raw.toString('utf8').trim() === '{}')
          ? []
          : [`${record.method} ${record.path} takes no request body`];
      }
      if (upload) {
        if (!boundary) return [`content-type ${contentType ?? '(none)'} is not multipart/form-data`];
        try {
          const parsed = parseMultipart(raw, boundary);
          record.body = fieldsObject(parsed.fields);
          record.files = parsed.files;
          return this.validator.validateMultipart('file', parsed.fields, parsed.files);
        } catch (err) {
          return [`body is not valid multipart/form-data: ${err instanceof Error ? err.message : String(err)}`];
        }
      }
    }
    if (record.route === 'edit' && boundary) {
      try {
        const parsed = parseMultipart(raw, boundary);
        record.body = fieldsObject(parsed.fields);
        record.files = parsed.files;
        return this.validator.validateMultipart('edit', parsed.fields, parsed.files);
      } catch (err) {
        return [`body is not valid multipart/form-data: ${err instanceof Error ? err.message : String(err)}`];
      }
    }
    if (!/^application\/json\b/i.test(contentType ?? '')) {
      return [
        `content-type ${contentType ?? '(none)'} is not ${record.route === 'edit' ? 'multipart/form-data or application/json' : 'application/json'}`,
      ];
    }
    try {
      record.body = JSON.parse(raw.toString('utf8')) as unknown;
    } catch {
      return ['body is not valid JSON'];
    }
    return this.validator.validateJson(record.route === 'edit' ? 'editJson' : record.route === 'batches' ? 'batch' : 'chat', record.body);
  }

  private sendJson(
    res: http.ServerResponse,
    record: RecordedRequest | undefined,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    const text = JSON.stringify(body);
    if (record) record.status = status;
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'x-request-id': `req_mock_${record?.seq ?? 0}`,
      'openai-processing-ms': '1',
      ...headers,
    });
    res.end(text);
  }

  private answerFilesAndBatches(res: http.ServerResponse, record: RecordedRequest, rel: string): void {
    const store = this.batch;
    const parts = rel
      .split('/')
      .filter(Boolean)
      .map((p) => decodeURIComponent(p));
    const notFound = (what: string): void =>
      this.sendJson(res, record, 404, openaiError(`No such ${what}: ${parts[1] ?? ''}`, 'invalid_request_error', null, 'id'));
    if (parts[0] === 'files') {
      if (record.method === 'POST') {
        const file = record.files[0];
        const body = isObject(record.body) ? record.body : {};
        if (!file) {
          this.sendJson(res, record, 400, openaiError('No file was uploaded.', 'invalid_request_error', null, 'file'));
          return;
        }
        this.sendJson(res, record, 200, store.fileObject(store.addFile(file.filename, String(body.purpose), file.data)));
        return;
      }
      const f = store.files.get(parts[1] ?? '');
      if (!f) return notFound('File');
      if (parts[2] === 'content') {
        record.status = 200;
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': f.data.length,
          'x-request-id': `req_mock_${record.seq}`,
        });
        res.end(f.data);
        return;
      }
      this.sendJson(res, record, 200, store.fileObject(f));
      return;
    }
    let answer: { status: number; body: object };
    if (record.method === 'POST' && parts.length === 1) answer = store.create(isObject(record.body) ? record.body : {});
    else if (record.method === 'POST') answer = store.cancel(parts[1] ?? '');
    else answer = store.retrieve(parts[1] ?? '');
    this.sendJson(res, record, answer.status, answer.body);
  }

  /** One line of a batch answered like a chat request: queued reply, else the fallback, else the auto-responder. */
  private answerBatchLine(body: unknown, customId: string): LineAnswer {
    const record: RecordedRequest = {
      seq: 0,
      method: 'POST',
      path: '/v1/chat/completions',
      route: 'chat',
      headers: { 'x-batch-custom-id': customId },
      body,
      files: [],
      validationErrors: [],
      receivedAt: Date.now(),
    };
    let reply: MockReply;
    try {
      reply = this.queues.chat.shift() ?? this.fallback?.(record) ?? defaultReply(record, this.messageBytes);
    } catch (err) {
      return { status: 500, body: openaiError(`The mock fallback threw: ${String(err)}`, 'server_error', 'mock_fallback') };
    }
    const meta = this.chatMeta(record);
    const complete = (content: string, usage: MockUsage | undefined, finish: string): LineAnswer => ({
      status: 200,
      body: chatCompletion(meta, content, makeUsage(this.promptCache.account(promptUnits(body)), content, usage), finish),
    });
    switch (reply.kind) {
      case 'chat':
        return complete(reply.content, reply.usage, reply.finishReason ?? 'stop');
      case 'json':
        return complete(JSON.stringify(reply.value), reply.usage, 'stop');
      case 'error':
        return { status: reply.status, body: reply.body ?? defaultErrorBody(reply.status) };
      default:
        return {
          status: 500,
          body: openaiError(`The mock reply kind '${reply.kind}' cannot answer a batch line.`, 'server_error', 'mock_misuse'),
        };
    }
  }

  private answerModels(res: http.ServerResponse, record: RecordedRequest, rel: string): void {
    const created = 1_700_000_000;
    const model = (id: string): object => ({ id, object: 'model', created, owned_by: 'openai' });
    if (rel === '/models') {
      this.sendJson(res, record, 200, { object: 'list', data: this.models.map(model) });
      return;
    }
    const id = decodeURIComponent(rel.slice('/models/'.length));
    if (this.models.includes(id)) this.sendJson(res, record, 200, model(id));
    else
      this.sendJson(res, record, 404, openaiError(`The model '${id}' does not exist`, 'invalid_request_error', 'model_not_found', 'model'));
  }

  private async answer(route: MockRoute, reply: MockReply, record: RecordedRequest, res: http.ServerResponse): Promise<void> {
    switch (reply.kind) {
      case 'error':
        this.sendJson(res, record, reply.status, reply.body ?? defaultErrorBody(reply.status), reply.headers);
        return;
      case 'raw': {
        record.status = reply.status;
        const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
        res.writeHead(reply.status, {
          'content-type': reply.contentType ?? 'application/json',
          'content-length': body.length,
          ...reply.headers,
        });
        res.end(body);
        return;
      }
      case 'hang':
        return; // Left open: ends when the client gives up or close() destroys it.
      case 'image':
        if (route !== 'edit') break;
        await this.answerImage(reply.png ?? (reply.blend ? await blendPng(record.files, reply.lead) : undefined), record, res);
        return;
      case 'json':
        if (route === 'edit') {
          this.sendJson(res, record, 200, reply.value);
          return;
        }
        await this.answerChat(JSON.stringify(reply.value), reply.usage, reply.chunkDelayMs, 'stop', record, res);
        return;
      case 'chat':
        if (route !== 'chat') break;
        await this.answerChat(reply.content, reply.usage, reply.chunkDelayMs, reply.finishReason ?? 'stop', record, res);
        return;
      case 'cut-stream':
        if (route !== 'chat') break;
        await this.answerCut(reply.afterChunks, reply.content ?? designerReply(record.body), record, res);
        return;
    }
    this.sendJson(
      res,
      record,
      500,
      openaiError(`The mock reply kind '${reply.kind}' does not fit the ${route} route.`, 'server_error', 'mock_misuse'),
    );
  }

  private chatMeta(record: RecordedRequest): CompletionMeta {
    const model = isObject(record.body) && typeof record.body.model === 'string' ? record.body.model : 'gpt-4o';
    return { id: `chatcmpl-mock${record.seq}`, created: Math.floor(Date.now() / 1000), model };
  }

  private async answerChat(
    content: string,
    forcedUsage: MockUsage | undefined,
    chunkDelayMs: number | undefined,
    finishReason: string,
    record: RecordedRequest,
    res: http.ServerResponse,
  ): Promise<void> {
    const meta = this.chatMeta(record);
    const usage = makeUsage(this.promptCache.account(promptUnits(record.body)), content, forcedUsage);
    const body = isObject(record.body) ? record.body : {};
    if (body.stream !== true) {
      this.sendJson(res, record, 200, chatCompletion(meta, content, usage, finishReason));
      return;
    }
    const includeUsage = isObject(body.stream_options) && body.stream_options.include_usage === true;
    const chunks = chatChunks(meta, content, usage, includeUsage, finishReason);
    this.startSse(res, record);
    for (const chunk of chunks) {
      if (res.destroyed || this.closed) return;
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      if (chunkDelayMs) await this.sleep(chunkDelayMs);
    }
    if (res.destroyed || this.closed) return;
    res.end('data: [DONE]\n\n');
  }

  private startSse(res: http.ServerResponse, record: RecordedRequest): void {
    record.status = 200;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-request-id': `req_mock_${record.seq}`,
    });
  }

  private async answerCut(afterChunks: number, content: string, record: RecordedRequest, res: http.ServerResponse): Promise<void> {
    const meta = this.chatMeta(record);
    const usage = makeUsage(this.promptCache.account(promptUnits(record.body)), content);
    const streaming = isObject(record.body) && record.body.stream === true;
    let data: string;
    if (streaming) {
      this.startSse(res, record);
      data = chatChunks(meta, content, usage, false)
        .slice(0, Math.max(0, afterChunks))
        .map((c) => `data: ${JSON.stringify(c)}\n\n`)
        .join('');
    } else {
      // A non-streamed answer cut halfway through its JSON.
      const full = JSON.stringify(chatCompletion(meta, content, usage));
      record.status = 200;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(full) });
      data = full.slice(0, Math.floor(full.length / 2));
    }
    // The status was sent but the answer never completes: forget it so the log says "cut".
    record.status = undefined;
    if (data.length > 0) await new Promise<void>((resolve) => res.write(data, () => resolve()));
    res.destroy();
  }

  private async answerImage(png: Buffer | undefined, record: RecordedRequest, res: http.ServerResponse): Promise<void> {
    const body = isObject(record.body) ? record.body : {};
    const nRaw = Number(body.n ?? 1);
    const n = Number.isInteger(nRaw) && nRaw >= 1 && nRaw <= 10 ? nRaw : 1;
    // Each default edit is its own image (its directions and its place among the edits mark it), as a model's would be.
    const image =
      png ??
      (await editPng(
        record.files,
        undefined,
        `${typeof body.prompt === 'string' ? body.prompt : ''}\n#${this.requests.filter((q) => q.route === 'edit').length}`,
      ));
    if (this.closed || res.destroyed) return;
    const prompt = typeof body.prompt === 'string' ? body.prompt : '';
    const textTokens = Math.ceil(prompt.length / 4);
    const imageTokens = 194 * Math.max(1, record.files.length);
    const outputTokens = 1056 * n;
    this.sendJson(res, record, 200, {
      created: Math.floor(Date.now() / 1000),
      data: Array.from({ length: n }, () => ({ b64_json: image.toString('base64') })),
      background: 'opaque',
      output_format: 'png',
      usage: {
        total_tokens: textTokens + imageTokens + outputTokens,
        input_tokens: textTokens + imageTokens,
        output_tokens: outputTokens,
        input_tokens_details: { text_tokens: textTokens, image_tokens: imageTokens },
      },
    });
  }
}
export { briefFallback, briefRemixValue, judgeShownAsA, memberIdsOf, type BriefScript } from './briefAnswers';
