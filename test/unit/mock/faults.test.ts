import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { MockOpenAI } from '../../support/openaiMock';
import { client } from './helpers';

const messages = [{ role: 'user' as const, content: 'Hello' }];

describe('mock OpenAI: faults seen through the real SDK', () => {
  let mock: MockOpenAI;
  before(async () => {
    mock = await MockOpenAI.start();
  });
  afterEach(() => {
    assert.deepEqual(mock.specErrors(), []);
    mock.reset();
  });
  after(() => mock.close());

  it('429 with retry-after: 1 → the SDK waits about a second, retries, and succeeds', async () => {
    mock.enqueue('chat', { kind: 'error', status: 429, headers: { 'retry-after': '1' } }, { kind: 'chat', content: 'after the wait' });
    const t0 = Date.now();
    const r = await client(mock.baseURL, { maxRetries: 2 }).chat.completions.create({ model: 'gpt-4o', messages });
    assert.equal(r.choices[0]?.message.content, 'after the wait');
    assert.equal(mock.requests.length, 2);
    const [asked, retried] = mock.requests;
    assert.ok(asked && retried);
    const gap = retried.receivedAt - asked.receivedAt;
    // The SDK's own first back-off is at most half a second: a gap of a second or more is the header's.
    assert.ok(gap >= 950, `retry after ${gap} ms`);
    assert.equal(mock.requests[1]?.headers['x-stainless-retry-count'], '1');
    assert.ok(Date.now() - t0 >= 950);
  });

  it('429 with retry-after-ms is honoured, and the error body is OpenAI-shaped when retries run out', async () => {
    mock.enqueue(
      'chat',
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '1200' } },
      { kind: 'error', status: 429, headers: { 'retry-after-ms': '10' } },
    );
    await assert.rejects(client(mock.baseURL, { maxRetries: 1 }).chat.completions.create({ model: 'gpt-4o', messages }), (err: unknown) => {
      assert.ok(err instanceof OpenAI.RateLimitError);
      assert.equal(err.status, 429);
      assert.equal(err.code, 'rate_limit_exceeded');
      return true;
    });
    assert.equal(mock.requests.length, 2);
    const [asked, retried] = mock.requests;
    assert.ok(asked && retried);
    const gap = retried.receivedAt - asked.receivedAt;
    // Longer than any first back-off of the SDK's own (at most half a second): only the header explains it.
    assert.ok(gap >= 1150, `retry after ${gap} ms`);
  });

  it('500 then success: the SDK retries and returns the second answer', async () => {
    mock.enqueue('chat', { kind: 'error', status: 500 }, { kind: 'chat', content: 'recovered' });
    const r = await client(mock.baseURL, { maxRetries: 1 }).chat.completions.create({ model: 'gpt-4o', messages });
    assert.equal(r.choices[0]?.message.content, 'recovered');
    assert.deepEqual(
      mock.requests.map((q) => q.status),
      [500, 200],
    );
  });

  it('a custom error body and status reach the SDK error', async () => {
    mock.enqueue('chat', {
      kind: 'error',
      status: 400,
      body: { error: { message: 'Context too long.', type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } },
    });
    await assert.rejects(client(mock.baseURL).chat.completions.create({ model: 'gpt-4o', messages }), (err: unknown) => {
      assert.ok(err instanceof OpenAI.BadRequestError);
      assert.equal(err.code, 'context_length_exceeded');
      assert.match(err.message, /Context too long/);
      return true;
    });
  });

  it('hang → the SDK times out (once per attempt) with a timeout error', async () => {
    mock.enqueue('chat', { kind: 'hang' }, { kind: 'hang' });
    const t0 = Date.now();
    await assert.rejects(
      client(mock.baseURL, { maxRetries: 1, timeout: 200 }).chat.completions.create({ model: 'gpt-4o', messages }),
      (err: unknown) => err instanceof OpenAI.APIConnectionTimeoutError,
    );
    const elapsed = Date.now() - t0;
    assert.ok(elapsed >= 390, `gave up after ${elapsed} ms: two attempts of 200 ms each`);
    assert.equal(mock.requests.length, 2);
    assert.ok(
      mock.requests.every((q) => q.status === undefined),
      'nothing was answered',
    );
  });

  it('cut-stream → chunks arrive, then the stream fails', async () => {
    mock.enqueue('chat', { kind: 'cut-stream', afterChunks: 3, content: 'one two three four five six seven eight nine ten eleven twelve' });
    const stream = await client(mock.baseURL).chat.completions.create({ model: 'gpt-4o', messages, stream: true });
    let text = '';
    await assert.rejects(async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    });
    assert.equal(text, 'one two three four five six ');
  });

  it('cut-stream on a non-streamed request → a connection error', async () => {
    mock.enqueue('chat', { kind: 'cut-stream', afterChunks: 1 });
    await assert.rejects(client(mock.baseURL).chat.completions.create({ model: 'gpt-4o', messages }));
  });

  it('raw invalid JSON with 200 → the SDK fails to parse', async () => {
    mock.enqueue('chat', { kind: 'raw', status: 200, body: '{"id": "chatcmpl-1", "choices": [', contentType: 'application/json' });
    await assert.rejects(
      client(mock.baseURL).chat.completions.create({ model: 'gpt-4o', messages }),
      (err: unknown) => err instanceof Error && /JSON/i.test(err.message),
    );
  });

  it('a reply kind that does not fit the route is a 500 naming the misuse', async () => {
    mock.enqueue('chat', { kind: 'image' });
    await assert.rejects(
      client(mock.baseURL).chat.completions.create({ model: 'gpt-4o', messages }),
      (err: unknown) => err instanceof OpenAI.InternalServerError && /does not fit/.test(err.message),
    );
  });

  it('close() ends hanging requests and the port is released', async () => {
    const other = await MockOpenAI.start();
    other.enqueue('chat', { kind: 'hang' });
    // An hour's timeout: if the request ends, close() ended it (a cut connection, not a timeout).
    const pending = client(other.baseURL, { timeout: 3_600_000 }).chat.completions.create({ model: 'gpt-4o', messages });
    const settled = pending.then(
      () => 'resolved',
      (e: unknown) =>
        e instanceof OpenAI.APIConnectionTimeoutError ? 'timed out' : e instanceof OpenAI.APIConnectionError ? 'cut' : String(e),
    );
    await other.waitForRequests(1, { route: 'chat' });
    await other.close();
    assert.equal(await settled, 'cut');
    await assert.rejects(fetch(`${other.baseURL}/models`));
    await assert.rejects(other.waitForRequests(2, { timeoutMs: 30 }), /saw 1 of 2/);
  });
});
