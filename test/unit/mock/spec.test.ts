import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { toFile } from 'openai';
import { MockOpenAI } from '../../support/openaiMock';
import { convertOpenApiSchema } from '../../support/openaiMock/openapiSchema';
import { loadSpecValidator, resolveSpecPath, SpecNotFoundError } from '../../support/openaiMock/specValidator';
import { client } from './helpers';

const post = (baseURL: string, body: string, contentType = 'application/json'): Promise<Response> =>
  fetch(`${baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': contentType, authorization: 'Bearer k' }, body });

describe('mock OpenAI: request validation against the official spec', () => {
  let mock: MockOpenAI;
  before(async () => {
    mock = await MockOpenAI.start();
  });
  afterEach(() => {
    mock.strict = true;
    mock.reset();
  });
  after(() => mock.close());

  it('finds the spec kept in the repository (test/support/openai-spec) and reads the chat and edit operations', () => {
    const file = resolveSpecPath();
    assert.equal(path.basename(file), 'openapi.json');
    assert.equal(path.basename(path.dirname(file)), 'openai-spec');
    const v = loadSpecValidator();
    assert.deepEqual(v.schemaNames, {
      chat: 'CreateChatCompletionRequest',
      edit: 'CreateImageEditRequest',
      editJson: 'EditImageBodyJsonParam',
      file: 'CreateFileRequest',
      batch: 'CreateBatchRequest',
    });
  });

  it('takes the spec from an explicit path or TEAMFUSION_OPENAI_SPEC, and says so plainly when it is missing', () => {
    const file = resolveSpecPath();
    assert.equal(resolveSpecPath(path.dirname(file)), file, 'a folder means its openapi.json');
    const saved = process.env.TEAMFUSION_OPENAI_SPEC;
    try {
      process.env.TEAMFUSION_OPENAI_SPEC = path.join(path.dirname(file), 'missing.json');
      assert.throws(
        () => resolveSpecPath(),
        (err: unknown) => err instanceof SpecNotFoundError && /not found at .*missing\.json; set TEAMFUSION_OPENAI_SPEC/.test(err.message),
      );
      process.env.TEAMFUSION_OPENAI_SPEC = file;
      assert.equal(resolveSpecPath(), file);
    } finally {
      if (saved === undefined) delete process.env.TEAMFUSION_OPENAI_SPEC;
      else process.env.TEAMFUSION_OPENAI_SPEC = saved;
    }
  });

  it('rejects a chat body without messages with 400 and records the violation', async () => {
    const res = await post(mock.baseURL, JSON.stringify({ model: 'gpt-4o' }));
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { message: string; code: string } };
    assert.equal(body.error.code, 'spec_violation');
    assert.match(body.error.message, /messages/);
    assert.equal(mock.specErrors().length, 1);
    assert.match(mock.specErrors()[0] ?? '', /^POST \/v1\/chat\/completions: body must have required property 'messages'/);
    assert.deepEqual(mock.requests[0]?.validationErrors.length, 1);
  });

  it('catches deeper mistakes: an unknown role, a wrong content part, a bad response_format', async () => {
    const bodies = [
      { model: 'gpt-4o', messages: [{ role: 'designer', content: 'hi' }] },
      { model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'image', url: 'x' }] }] },
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema', schema: {} } },
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], temperature: 'warm' },
    ];
    for (const b of bodies) assert.equal((await post(mock.baseURL, JSON.stringify(b))).status, 400, JSON.stringify(b));
    assert.equal(new Set(mock.specErrors().map((e) => e.split(':')[0])).size, 1);
    assert.equal(mock.requests.filter((r) => r.validationErrors.length > 0).length, 4);
  });

  it('flags invalid JSON and a wrong content type', async () => {
    assert.equal((await post(mock.baseURL, '{"model": ')).status, 400);
    assert.equal((await post(mock.baseURL, JSON.stringify({ model: 'm', messages: [] }), 'text/plain')).status, 400);
    assert.match(mock.specErrors()[0] ?? '', /not valid JSON/);
    assert.match(mock.specErrors()[1] ?? '', /content-type text\/plain/);
  });

  it('with strict = false, records the violation but still answers', async () => {
    mock.strict = false;
    mock.enqueue('chat', { kind: 'chat', content: 'served anyway' });
    const res = await post(mock.baseURL, JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user' }] }));
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content, 'served anyway');
    assert.ok(mock.specErrors().length >= 1);
    assert.equal(mock.requests[0]?.validationErrors.length, mock.specErrors().length);
    assert.ok(
      mock.specErrors().every((e) => e.startsWith('POST /v1/chat/completions: body/messages/0')),
      mock.specErrors().join('\n'),
    );
  });

  it('a spec-rejected request does not consume a queued reply', async () => {
    mock.enqueue('chat', { kind: 'chat', content: 'kept' });
    await post(mock.baseURL, JSON.stringify({ model: 'gpt-4o' }));
    assert.equal(mock.queued('chat'), 1);
  });

  it('the SDK’s own requests (many parameter shapes) produce zero spec errors', async () => {
    const c = client(mock.baseURL);
    await c.chat.completions.create({
      model: 'gpt-4o',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'system', content: [{ type: 'text', text: 'You are a proxy for Ana.' }] },
        {
          role: 'user',
          name: 'ana',
          content: [
            { type: 'text', text: 'Image 1:' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
          ],
        },
        { role: 'assistant', content: 'Earlier turn.' },
      ],
      temperature: 0.7,
      max_completion_tokens: 300,
      seed: 7,
      user: 'teamfusion',
      prompt_cache_key: 'review-1',
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'out',
          strict: true,
          schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false },
        },
      },
    });
    await c.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], stream: true, stream_options: { include_usage: true } })
      .then(async (s) => {
        for await (const _chunk of s) void _chunk;
      });
    await c.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'x' }],
      response_format: { type: 'json_object' },
    });
    await c.images.edit({
      model: 'gpt-image-1',
      prompt: 'p',
      image: [await toFile(Buffer.from('png'), 'a.png', { type: 'image/png' })],
      n: 1,
      size: '1024x1024',
      quality: 'medium',
      input_fidelity: 'high',
      background: 'opaque',
    });
    assert.deepEqual(mock.specErrors(), []);
  });

  it('converting openapi.json itself gives the same verdicts as the ready-made subset', () => {
    const subset = loadSpecValidator(undefined, 'subset');
    const converted = loadSpecValidator(undefined, 'openapi');
    assert.equal(subset.source, 'subset');
    assert.equal(converted.source, 'openapi');
    const cases: unknown[] = [
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] },
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], seed: null, n: null, stop: null },
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], prediction: null },
      { model: 'gpt-4o', messages: [{ role: 'tool', content: 'x' }] },
      { model: 'gpt-4o' },
      { messages: [{ role: 'user', content: 'x' }] },
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], stream_options: { include_usage: 'yes' } },
    ];
    const verdicts = (v: typeof subset): boolean[] => cases.map((c) => v.validateJson('chat', c).length === 0);
    assert.deepEqual(verdicts(converted), verdicts(subset));
    assert.deepEqual(verdicts(subset), [true, true, true, false, false, false, false]);
  });
});

describe('mock OpenAI: OpenAPI → JSON Schema conversion', () => {
  it('turns nullable into a null type or a null alternative and drops OpenAPI-only keywords', () => {
    assert.deepEqual(convertOpenApiSchema({ type: 'string', enum: ['a'], nullable: true, 'x-stainless-const': true }), {
      type: ['string', 'null'],
      enum: ['a', null],
    });
    assert.deepEqual(convertOpenApiSchema({ $ref: '#/components/schemas/Foo', nullable: true, description: 'd' }), {
      anyOf: [{ $ref: '#/$defs/Foo' }, { type: 'null' }],
      description: 'd',
    });
    assert.deepEqual(
      convertOpenApiSchema({
        oneOf: [{ $ref: '#/components/schemas/A' }],
        discriminator: { propertyName: 'type' },
        example: { type: 'a' },
      }),
      { oneOf: [{ $ref: '#/$defs/A' }] },
    );
    assert.deepEqual(
      convertOpenApiSchema({ type: 'object', properties: { nullable: { type: 'boolean' } }, default: { nullable: true } }),
      {
        type: 'object',
        properties: { nullable: { type: 'boolean' } },
        default: { nullable: true },
      },
      'a property named like a keyword and data values stay untouched',
    );
  });
});
