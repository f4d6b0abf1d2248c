/**
 * Chat and image edits on endpoints apart (issue 20): through the real built CLI against two scripted servers, each with a
 * key of its own; and an image endpoint that cannot edit images is found out for free before anything is spent.
 */
import { strict as assert } from 'node:assert';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { RunRecordSchema } from '../../../src/core/record/record';
import { makeReview, makeTempDir } from './fixtures';
import { TEST_KEY, startCli } from './helpers';

const IMAGE_KEY = 'sk-image-SECRET-do-not-write-9876543210';

describe('chat and image endpoints apart (command line)', function () {
  this.timeout(90_000);
  let chat: MockOpenAI;
  let images: MockOpenAI;
  let chatOnly: MockOpenAI;
  let cache: string;
  before(async () => {
    chat = await MockOpenAI.start();
    images = await MockOpenAI.start();
    chatOnly = await MockOpenAI.start({ models: ['llama3.1', 'qwen2.5'], missingRoutes: ['edit'] });
    cache = await makeTempDir('tf-xdg-');
  });
  after(async () => Promise.all([chat.close(), images.close(), chatOnly.close()]));
  beforeEach(() => [chat, images, chatOnly].forEach((m) => m.reset()));

  it('chat requests reach only the chat endpoint and edits only the image endpoint, each with its own key; the record names both hosts', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const env = {
      OPENAI_API_KEY: TEST_KEY,
      OPENAI_BASE_URL: chat.baseURL,
      TEAMFUSION_IMAGE_API_KEY: IMAGE_KEY,
      XDG_CACHE_HOME: cache,
      TEAMFUSION_MAX_RETRIES: '0',
    };
    const r = await startCli(['run', root, '--turns', '1', '--iterations', '2', '--image-base-url', images.baseURL, '--json'], env).done;
    assert.equal(r.code, 0, r.stderr);
    assert.ok(chat.requests.length > 0 && chat.requests.every((q) => q.route === 'chat'), 'only chat requests on the chat endpoint');
    assert.deepEqual(
      [...new Set(images.requests.map((q) => q.route))].sort(),
      ['edit', 'models'],
      'the model list (free check), then the edit',
    );
    assert.equal(images.requests.filter((q) => q.route === 'edit').length, 1);
    for (const q of chat.requests) assert.equal(q.headers.authorization, `Bearer ${TEST_KEY}`);
    for (const q of images.requests) assert.equal(q.headers.authorization, `Bearer ${IMAGE_KEY}`);
    const summary = JSON.parse(r.stdout) as { runDir: string };
    const text = await fs.readFile(path.join(summary.runDir, 'run.json'), 'utf8');
    const rec = RunRecordSchema.parse(JSON.parse(text));
    assert.equal(rec.settings.endpoint, new URL(chat.baseURL).host);
    assert.equal(rec.settings.imageEndpoint, new URL(images.baseURL).host);
    assert.ok(!text.includes(TEST_KEY) && !text.includes(IMAGE_KEY), 'no key in the record');
    assert.deepEqual([...chat.specErrors(), ...images.specErrors()], []);
  });

  it('TEAMFUSION_IMAGE_BASE_URL without a key of its own: the image endpoint gets the chat key', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const env = {
      OPENAI_API_KEY: TEST_KEY,
      OPENAI_BASE_URL: chat.baseURL,
      TEAMFUSION_IMAGE_BASE_URL: images.baseURL,
      XDG_CACHE_HOME: cache,
      TEAMFUSION_MAX_RETRIES: '0',
    };
    const r = await startCli(['run', root, '--turns', '1', '--iterations', '2', '--json'], env).done;
    assert.equal(r.code, 0, r.stderr);
    assert.equal(chat.requests.filter((q) => q.route === 'edit').length, 0);
    assert.equal(images.requests.filter((q) => q.route === 'edit').length, 1);
    for (const q of images.requests) assert.equal(q.headers.authorization, `Bearer ${TEST_KEY}`);
  });

  it('an image endpoint that cannot edit images: one sentence naming it and the setting, before any chat request, nothing written', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const env = { OPENAI_API_KEY: TEST_KEY, OPENAI_BASE_URL: chat.baseURL, XDG_CACHE_HOME: cache, TEAMFUSION_MAX_RETRIES: '0' };
    const r = await startCli(['run', root, '--turns', '1', '--iterations', '2', '--image-base-url', chatOnly.baseURL], env).done;
    assert.equal(r.code, 1, r.stderr);
    const line = r.stderr.trim();
    assert.equal(line.split('\n').length, 1, line);
    assert.match(
      line,
      new RegExp(`The image endpoint ${new URL(chatOnly.baseURL).host.replace('.', '\\.')} does not list the image model "gpt-image-1"`),
    );
    assert.match(line, /--image-base-url/);
    assert.equal(chat.requests.length, 0, 'no discussion money spent');
    assert.deepEqual(
      chatOnly.requests.map((q) => q.route),
      ['models'],
    );
    assert.equal(existsSync(path.join(root, 'runs')), false);
  });

  it('a server without a model list (404): the same kind of sentence; a run without edits (one iteration) does not ask', async () => {
    const noModels = await MockOpenAI.start({ missingRoutes: ['edit', 'models'] });
    try {
      const root = await makeReview({ options: 3, designers: 2 });
      const env = {
        OPENAI_API_KEY: TEST_KEY,
        OPENAI_BASE_URL: chat.baseURL,
        TEAMFUSION_IMAGE_BASE_URL: noModels.baseURL,
        XDG_CACHE_HOME: cache,
        TEAMFUSION_MAX_RETRIES: '0',
      };
      const r = await startCli(['run', root, '--turns', '1', '--iterations', '2'], env).done;
      assert.equal(r.code, 1);
      assert.match(r.stderr, /The image endpoint 127\.0\.0\.1:\d+ has no model list \(404 on \/models\).*teamfusion\.imageBaseUrl/);
      assert.equal(chat.requests.length, 0);
      noModels.reset();
      const one = await startCli(['run', root, '--turns', '1', '--iterations', '1'], env).done;
      assert.equal(one.code, 0, one.stderr);
      assert.equal(noModels.requests.length, 0);
    } finally {
      await noModels.close();
    }
  });

  it('an invalid review sends nothing at all, not even the free model-list check', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    await fs.writeFile(path.join(root, 'rankings', 'd1.yaml'), 'designer: Ana\nranking: [\n');
    const env = { OPENAI_API_KEY: TEST_KEY, OPENAI_BASE_URL: chat.baseURL, XDG_CACHE_HOME: cache };
    const r = await startCli(['run', root, '--image-base-url', images.baseURL], env).done;
    assert.equal(r.code, 1);
    assert.equal(chat.requests.length + images.requests.length, 0);
  });

  it('Azure OpenAI through the SDK (AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY, OPENAI_API_VERSION): every request carries api-key and api-version, deployments as models; the run completes', async () => {
    const azure = await MockOpenAI.start({ azure: true });
    try {
      const root = await makeReview({ options: 3, designers: 2 });
      await fs.writeFile(path.join(root, 'review.yaml'), 'title: Azure\nchatModel: my-gpt-4o\nimageModel: my-image\n');
      const env = {
        AZURE_OPENAI_ENDPOINT: azure.baseURL,
        AZURE_OPENAI_API_KEY: IMAGE_KEY,
        OPENAI_API_VERSION: '2025-04-01-preview',
        XDG_CACHE_HOME: cache,
        TEAMFUSION_MAX_RETRIES: '0',
      };
      const r = await startCli(['run', root, '--turns', '1', '--iterations', '2', '--json'], env).done;
      assert.equal(r.code, 0, r.stderr);
      assert.ok(azure.requests.length > 0);
      for (const q of azure.requests) {
        assert.equal(q.headers['api-key'], IMAGE_KEY, `${q.method} ${q.path}`);
        assert.equal(q.headers.authorization, undefined);
        assert.equal(q.query?.['api-version'], '2025-04-01-preview', `${q.method} ${q.path}`);
      }
      assert.deepEqual([...new Set(azure.requests.map((q) => `${q.route} ${q.deployment}`))].sort(), ['chat my-gpt-4o', 'edit my-image']);
      assert.ok(azure.requests.every((q) => q.path.startsWith('/openai/deployments/')));
      const summary = JSON.parse(r.stdout) as { runDir: string; status: string };
      assert.equal(summary.status, 'completed');
      const rec = RunRecordSchema.parse(JSON.parse(await fs.readFile(path.join(summary.runDir, 'run.json'), 'utf8')));
      assert.equal(rec.settings.endpoint, new URL(azure.baseURL).host);
      assert.deepEqual(azure.specErrors(), []);
    } finally {
      await azure.close();
    }
  });

  it('Azure without OPENAI_API_VERSION: one sentence that names it, nothing sent', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const r = await startCli(['run', root], {
      AZURE_OPENAI_ENDPOINT: chat.baseURL.replace(/\/v1$/, ''),
      AZURE_OPENAI_API_KEY: TEST_KEY,
      XDG_CACHE_HOME: cache,
    }).done;
    assert.equal(r.code, 1);
    assert.match(r.stderr.trim(), /^AZURE_OPENAI_ENDPOINT is set but not the API version: set OPENAI_API_VERSION[^\n]*$/);
    assert.equal(chat.requests.length, 0);
  });
});
