import * as assert from 'node:assert/strict';
import { MockOpenAI } from '../../support/openaiMock';
import { client, sseData, subsetValidator } from './helpers';

describe('mock OpenAI: chat completions with the real SDK', () => {
  let mock: MockOpenAI;
  before(async () => {
    mock = await MockOpenAI.start();
  });
  afterEach(() => {
    assert.deepEqual(mock.specErrors(), [], 'the SDK sent only spec-valid requests');
    mock.reset();
  });
  after(() => mock.close());

  it('answers a scripted non-streamed chat with content and usage', async () => {
    mock.enqueue('chat', {
      kind: 'chat',
      content: 'Image 2 wins.',
      usage: { prompt_tokens: 1200, completion_tokens: 7, cached_tokens: 1024 },
    });
    const r = await client(mock.baseURL).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Which one?' }] });
    assert.equal(r.object, 'chat.completion');
    assert.equal(r.model, 'gpt-4o');
    assert.equal(r.choices[0]?.message.content, 'Image 2 wins.');
    assert.equal(r.choices[0]?.finish_reason, 'stop');
    assert.deepEqual(
      {
        p: r.usage?.prompt_tokens,
        c: r.usage?.completion_tokens,
        t: r.usage?.total_tokens,
        cached: r.usage?.prompt_tokens_details?.cached_tokens,
      },
      { p: 1200, c: 7, t: 1207, cached: 1024 },
    );
    assert.equal(mock.requests.length, 1);
    const req = mock.requests[0];
    assert.ok(req);
    assert.equal(req.path, '/v1/chat/completions');
    assert.equal(req.headers.authorization, 'Bearer test-key');
    assert.ok(!JSON.stringify(req).includes('test-key'), 'the key is never serialised');
    assert.deepEqual((req.body as { messages: unknown[] }).messages, [{ role: 'user', content: 'Which one?' }]);
  });

  it('streams SSE chunks that join to the content, with a final usage chunk when asked', async () => {
    const content = 'Keep the teal label of Image 3 and the softer light of Image 5.';
    mock.enqueue('chat', { kind: 'chat', content });
    const stream = await client(mock.baseURL).chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Talk.' }],
    });
    let text = '';
    let chunks = 0;
    let usageChunks = 0;
    let finish: string | null = null;
    for await (const chunk of stream) {
      chunks++;
      assert.equal(chunk.object, 'chat.completion.chunk');
      text += chunk.choices[0]?.delta?.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) {
        usageChunks++;
        assert.equal(chunk.choices.length, 0);
        assert.ok(chunk.usage.completion_tokens > 0 && chunk.usage.prompt_tokens > 0);
      }
    }
    assert.equal(text, content);
    assert.equal(finish, 'stop');
    assert.equal(usageChunks, 1);
    assert.ok(chunks >= 5, `several deltas (got ${chunks})`);
  });

  it('sends chunks and completions that are valid against the official response schemas', async () => {
    const checkCompletion = subsetValidator('CreateChatCompletionResponse');
    const checkChunk = subsetValidator('CreateChatCompletionStreamResponse');
    const post = (body: object): Promise<Response> =>
      fetch(`${mock.baseURL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
        body: JSON.stringify(body),
      });
    const messages = [{ role: 'user', content: 'Compare Image 1 with Image 2.' }];
    const plain = await post({ model: 'gpt-4o', messages });
    assert.deepEqual(checkCompletion(await plain.json()), []);
    const streamed = await post({ model: 'gpt-4o', messages, stream: true, stream_options: { include_usage: true } });
    assert.match(streamed.headers.get('content-type') ?? '', /^text\/event-stream/);
    const data = sseData(await streamed.text());
    assert.equal(data.at(-1), '[DONE]');
    for (const payload of data.slice(0, -1)) assert.deepEqual(checkChunk(JSON.parse(payload)), [], payload);
  });

  it('auto-answers a proxy turn with a designer-like message naming image labels from the request', async () => {
    const r = await client(mock.baseURL).chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are Ana, a designer. Image 1 is option a, Image 2 is option b, Image 3 is option c.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Give your view.' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
          ],
        },
      ],
    });
    const text = r.choices[0]?.message.content ?? '';
    assert.match(text, /Image [123]/);
    assert.ok(text.length > 20 && text.length < 400, text);
  });

  it('reports cached prompt tokens when a long prompt repeats its prefix', async () => {
    const long = 'The brief: a calm perfume poster. '.repeat(200); // ≈ 1700 tokens
    const c = client(mock.baseURL);
    const first = await c.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: long },
        { role: 'user', content: 'Turn 1' },
      ],
    });
    const second = await c.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: long },
        { role: 'user', content: 'Turn 2' },
      ],
    });
    assert.equal(first.usage?.prompt_tokens_details?.cached_tokens, 0);
    const cached = second.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    assert.ok(cached >= 1024 && cached % 128 === 0 && cached <= (second.usage?.prompt_tokens ?? 0), `cached ${cached}`);
  });

  it('lists models and answers unknown routes with an OpenAI-style 404', async () => {
    const c = client(mock.baseURL);
    const models = [];
    for await (const m of c.models.list()) models.push(m.id);
    assert.ok(models.includes('gpt-4o') && models.includes('gpt-image-1'));
    const res = await fetch(`${mock.baseURL}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(res.status, 404);
    const body = (await res.json()) as { error: { message: string; type: string; code: string } };
    assert.equal(body.error.type, 'invalid_request_error');
    assert.equal(body.error.code, 'unknown_url');
  });

  it('uses the fallback before the default, and queued replies before the fallback', async () => {
    mock.setFallback((req) => (req.route === 'chat' ? { kind: 'chat', content: `fallback #${req.seq}` } : undefined));
    mock.enqueue('chat', { kind: 'chat', content: 'queued' });
    const c = client(mock.baseURL);
    const ask = async (): Promise<string | null> =>
      (await c.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).choices[0]?.message.content ??
      null;
    assert.equal(await ask(), 'queued');
    assert.equal(await ask(), 'fallback #2');
    mock.setFallback(() => undefined);
    assert.notEqual(await ask(), 'fallback #3');
  });

  it('delays every answer by latencyMs', async () => {
    mock.latencyMs = 120;
    try {
      const t0 = Date.now();
      await client(mock.baseURL).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
      assert.ok(Date.now() - t0 >= 115, `took ${Date.now() - t0} ms`);
    } finally {
      mock.latencyMs = 0;
    }
  });
});
