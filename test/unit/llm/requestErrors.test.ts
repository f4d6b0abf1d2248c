/**
 * A failed request is classified once, in the backend: the real SDK fails against the scripted server, the OpenAI backends
 * throw a ModelRequestError of one kind (the SDK's error kept as its cause), and describeError says the same sentence
 * for each kind as it always did, naming the step.
 */
import * as assert from 'node:assert/strict';
import { MockOpenAI } from '../../support/openaiMock';
import { mockSuite } from '../run/helpers';
import { createModelClient } from '../../../src/core/llm/client';
import { OpenAIChatBackend, OpenAIImageBackend } from '../../../src/core/llm/openaiBackend';
import { ModelRequestError, isModelRequestError, type ModelRequestKind } from '../../../src/core/llm/backend';
import { TIMEOUT_ADVICE, describeError, isAbort } from '../../../src/core/llm/errors';
import { waitForBatch } from '../../../src/core/analysis/batch';
import { exitForRefusal } from '../../../src/cli/modelCommand';

const WHAT = "Jonas Berg's proxy (round 1, turn 1)";
const messages = [{ role: 'user' as const, content: 'Hello' }];

function backend(baseURL: string, o: { timeoutMs?: number } = {}): OpenAIChatBackend {
  return new OpenAIChatBackend(createModelClient({ apiKey: 'test-key', baseURL, maxRetries: 0, timeoutMs: o.timeoutMs ?? 30_000 }));
}

/** What the request failed with: it must be a ModelRequestError. */
async function failure(request: Promise<unknown>): Promise<ModelRequestError> {
  try {
    await request;
  } catch (err) {
    assert.ok(err instanceof ModelRequestError, `a ModelRequestError, not ${String(err)}`);
    return err;
  }
  assert.fail('the request succeeded');
}

describe('a failed model request, classified by its backend', function () {
  this.timeout(30_000);
  const suite = mockSuite();

  const statuses: { status: number; kind: ModelRequestKind; sentence: string }[] = [
    { status: 401, kind: 'auth', sentence: `${WHAT} was refused: the API key was not accepted (401).` },
    { status: 403, kind: 'permission', sentence: `${WHAT} was refused: no permission for this model (403).` },
    {
      status: 404,
      kind: 'not-found',
      sentence: `${WHAT} failed: the endpoint or model was not found (404). Check the model name and base URL.`,
    },
    { status: 429, kind: 'rate-limit', sentence: `${WHAT} was rate-limited (429), also after retries. Resume the run later.` },
    {
      status: 500,
      kind: 'status',
      sentence: `${WHAT} failed with HTTP 500: The server had an error while processing your request (mock). Resume the run to try again.`,
    },
  ];
  for (const { status, kind, sentence } of statuses) {
    for (const streamed of [false, true]) {
      it(`HTTP ${status}${streamed ? ' on a streamed turn' : ''} → kind "${kind}", and the sentence names the step`, async () => {
        suite.mock.enqueue('chat', { kind: 'error', status, headers: { 'retry-after-ms': '10' } });
        const err = await failure(
          backend(suite.mock.baseURL).chat({ model: 'gpt-4o', messages, ...(streamed ? { onDelta: () => undefined } : {}) }),
        );
        assert.equal(err.kind, kind);
        assert.equal(err.status, status);
        assert.equal(err.cause instanceof Error, true, 'the SDK error is kept as the cause');
        assert.equal(describeError(err, WHAT), sentence);
        assert.equal(isAbort(err), false);
      });
    }
  }

  it("another status quotes the endpoint's own words", async () => {
    suite.mock.enqueue('chat', {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: 'Context too long.\n Shorten it.',
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    });
    const err = await failure(backend(suite.mock.baseURL).chat({ model: 'gpt-4o', messages }));
    assert.equal(err.kind, 'status');
    assert.equal(describeError(err, WHAT), `${WHAT} failed with HTTP 400: Context too long. Shorten it. Resume the run to try again.`);
  });

  it('no answer within the timeout → kind "timeout", and the sentence names the setting that raises it', async () => {
    suite.mock.enqueue('chat', { kind: 'hang' });
    const err = await failure(
      backend(suite.mock.baseURL, { timeoutMs: 200 }).chat({ model: 'gpt-4o', messages, onDelta: () => undefined }),
    );
    assert.equal(err.kind, 'timeout');
    assert.equal(err.status, undefined);
    const said = describeError(err, WHAT);
    assert.equal(said, `${WHAT} timed out, also after retries. ${TIMEOUT_ADVICE}`);
    assert.match(said, /teamfusion\.requestTimeoutSeconds/);
    assert.match(said, /TEAMFUSION_REQUEST_TIMEOUT_SECONDS/);
  });

  it('a refused connection → kind "connection", and the sentence quotes the SDK', async () => {
    const gone = await MockOpenAI.start();
    const baseURL = gone.baseURL;
    await gone.close();
    const err = await failure(backend(baseURL).chat({ model: 'gpt-4o', messages }));
    assert.equal(err.kind, 'connection');
    assert.equal(describeError(err, WHAT), `${WHAT} could not reach the model endpoint (Connection error). Resume the run to try again.`);
  });

  it('the caller\'s abort → kind "aborted", which is cancellation', async () => {
    suite.mock.enqueue('chat', { kind: 'hang' });
    const controller = new AbortController();
    const asked = backend(suite.mock.baseURL).chat({ model: 'gpt-4o', messages, signal: controller.signal });
    await suite.mock.waitForRequests(1, { route: 'chat' });
    controller.abort();
    const err = await failure(asked);
    assert.equal(err.kind, 'aborted');
    assert.equal(isAbort(err), true, 'recognised without the signal too');
  });

  it("an error that is not the SDK's (an answer that is not JSON) passes as it is", async () => {
    suite.mock.enqueue('chat', { kind: 'raw', status: 200, body: '{"id": "chatcmpl-1", "choices": [', contentType: 'application/json' });
    await assert.rejects(backend(suite.mock.baseURL).chat({ model: 'gpt-4o', messages }), (err: unknown) => {
      assert.equal(isModelRequestError(err), false);
      assert.match(describeError(err, WHAT), /^The run stopped: .*JSON.*\. Resume the run to try again\.$/);
      return true;
    });
  });

  it('the image backend classifies a failed edit the same way', async () => {
    suite.mock.enqueue('edit', { kind: 'error', status: 401 });
    const images = new OpenAIImageBackend(createModelClient({ apiKey: 'test-key', baseURL: suite.mock.baseURL, maxRetries: 0 }));
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    const err = await failure(
      images.edit({ model: 'gpt-image-1', prompt: 'Blend them.', images: [{ data: png, name: 'a.png', mime: 'image/png' }] }),
    );
    assert.equal(err.kind, 'auth');
    assert.equal(
      describeError(err, 'The image edit of remix r1-A'),
      'The image edit of remix r1-A was refused: the API key was not accepted (401).',
    );
  });

  it("the image endpoint's check reads a 404 on the model list from the kind", async () => {
    const images = new OpenAIImageBackend(
      createModelClient({ apiKey: 'test-key', baseURL: `${suite.mock.baseURL}/nowhere`, maxRetries: 0 }),
    );
    const said = await images.check('gpt-image-1');
    assert.match(said ?? '', /has no model list \(404 on \/models\)/);
  });

  it('the Batch API: an unknown batch → kind "not-found" (the coding job forgets it)', async () => {
    const client = createModelClient({ apiKey: 'test-key', baseURL: suite.mock.baseURL, maxRetries: 0 });
    const err = await failure(waitForBatch(client, 'batch_unknown', { intervalMs: 10, maxWaitMs: 0 }));
    assert.equal(err.kind, 'not-found');
    assert.equal(err.status, 404);
  });

  it('a backend that said the whole sentence itself (a VS Code model) is shown as it said it', () => {
    const sentence = 'Some Model (copilot) refused the request (blocked, for example by a quota); resume the run later.';
    const err = new ModelRequestError(sentence, 'refused', { said: true });
    assert.equal(describeError(err, WHAT), sentence);
    assert.equal(isModelRequestError(err, 'refused'), true);
    assert.equal(isModelRequestError(err, 'not-found', 'auth'), false);
  });

  it('a model command of the CLI says a failed request in one line, with its own ending, and exits 1', async () => {
    suite.mock.enqueue('chat', { kind: 'error', status: 500 });
    const err = await failure(backend(suite.mock.baseURL).chat({ model: 'gpt-4o', messages }));
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stderr.write;
    let code: number;
    try {
      code = exitForRefusal(err, { command: 'judge', request: 'The judge', again: 'judge again later' });
    } finally {
      process.stderr.write = write;
    }
    assert.equal(code, 1);
    assert.deepEqual(written, [
      'teamfusion judge: The judge failed with HTTP 500: The server had an error while processing your request (mock). Nothing was written; judge again later.\n',
    ]);
    assert.throws(
      () => exitForRefusal(new Error('not a request'), { command: 'judge', request: 'The judge', again: 'judge again later' }),
      /not a request/,
    );
  });
});
