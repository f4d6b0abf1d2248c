import { strict as assert } from 'node:assert';
import { ModelConfigError, NO_KEY_MESSAGE, createModelClient, endpointHost } from '../../../src/core/llm/client';
import {
  DEFAULT_PRICES,
  IMAGE_OUTPUT_TOKENS,
  estimateCost,
  imageCost,
  imageOutputTokens,
  mergePrices,
} from '../../../src/core/llm/pricing';
import { resolveRunSettings } from '../../../src/core/run/runSettings';

function withEnv(vars: Record<string, string | undefined>, fn: () => void): void {
  const saved: Record<string, string | undefined> = {};
  for (const k of Object.keys(vars)) {
    saved[k] = process.env[k];
    if (vars[k] === undefined) delete process.env[k];
    else process.env[k] = vars[k];
  }
  try {
    fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('model client', () => {
  it('refuses to start without a key, in one sentence that names OPENAI_API_KEY', () => {
    withEnv({ OPENAI_API_KEY: undefined }, () => {
      assert.throws(
        () => createModelClient({}),
        (e: unknown) => e instanceof ModelConfigError && e.message === NO_KEY_MESSAGE,
      );
      assert.throws(() => createModelClient({ apiKey: '   ' }), ModelConfigError);
    });
    assert.equal(NO_KEY_MESSAGE.split(/\.\s/).length, 1, 'one sentence');
    assert.match(NO_KEY_MESSAGE, /OPENAI_API_KEY/);
    assert.match(NO_KEY_MESSAGE, /OPENAI_BASE_URL/);
  });

  it('reads the key and base URL from the environment when not given, with explicit timeout and retries', () => {
    withEnv({ OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }, () => {
      const c = createModelClient({ timeoutMs: 1234, maxRetries: 5 });
      assert.equal(c.apiKey, 'sk-env');
      assert.equal(c.baseURL, 'http://127.0.0.1:9/v1');
      assert.equal(c.timeout, 1234);
      assert.equal(c.maxRetries, 5);
      assert.equal(endpointHost(c), '127.0.0.1:9');
    });
    const explicit = createModelClient({ apiKey: 'sk-x', baseURL: 'https://example.invalid/v1' });
    assert.equal(explicit.timeout, 120_000);
    assert.equal(endpointHost(explicit), 'example.invalid');
  });
});

describe('run settings precedence', () => {
  it('explicit > review.yaml > TEAMFUSION_* env > defaults', () => {
    const env = { TEAMFUSION_CHAT_MODEL: 'env-chat', TEAMFUSION_IMAGE_MODEL: 'env-image' };
    const defaults = resolveRunSettings(undefined, {}, {});
    assert.ok(Number.isInteger(defaults.orderSeed), 'a seed is drawn and recorded when none is given');
    assert.deepEqual(
      { ...defaults, orderSeed: 0 },
      {
        chatModel: 'gpt-4o',
        imageModel: 'gpt-image-1',
        turnsPerAgent: 2,
        iterations: 3,
        imageMaxSide: 1024,
        mode: 'separate-then-together',
        order: 'rotate',
        orderSeed: 0,
        leadSpeaksLast: true,
        maxConcurrency: 4,
        hierarchy: 'flat',
        personaRole: 'system',
        temperature: 1,
        imageSize: 'auto',
        imageQuality: 'medium',
        forks: 'auto',
        pool: 4,
        checklist: { repeat: 1 },
      },
    );
    assert.equal(resolveRunSettings({ orderSeed: 42 }, { orderSeed: 7 }, {}).orderSeed, 42);
    assert.equal(resolveRunSettings(undefined, { orderSeed: 7, mode: 'separate', prompts: { goal: 'G.' } }, {}).orderSeed, 7);
    const fromEnv = resolveRunSettings(undefined, {}, env);
    assert.equal(fromEnv.chatModel, 'env-chat');
    assert.equal(fromEnv.imageModel, 'env-image');
    const fromReview = resolveRunSettings(undefined, { chatModel: 'yaml-chat', turnsPerAgent: 3 }, env);
    assert.equal(fromReview.chatModel, 'yaml-chat');
    assert.equal(fromReview.imageModel, 'env-image');
    assert.equal(fromReview.turnsPerAgent, 3);
    const explicit = resolveRunSettings({ chatModel: 'flag-chat', turnsPerAgent: 1 }, { chatModel: 'yaml-chat', turnsPerAgent: 3 }, env);
    assert.equal(explicit.chatModel, 'flag-chat');
    assert.equal(explicit.turnsPerAgent, 1);
  });
});

describe('cost estimate', () => {
  const usage = { inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 100_000, images: 2 };
  it('bills cached input at the cached price and images per image', () => {
    // gpt-4o: 600k × 2.5 + 400k × 1.25 + 100k × 10 per M = 1.5 + 0.5 + 1.0; 2 images × 0.042
    assert.equal(estimateCost(usage, { chatModel: 'gpt-4o', imageModel: 'gpt-image-1' }), 3.084);
  });
  it('is undefined (not 0) for a model without a price, and the table is configurable', () => {
    assert.equal(estimateCost(usage, { chatModel: 'my-local-llama', imageModel: 'gpt-image-1' }), undefined);
    assert.equal(estimateCost(usage, { chatModel: 'gpt-4o', imageModel: 'mystery-image' }), undefined);
    const prices = mergePrices({ 'my-local-llama': { inputPerMTok: 0, outputPerMTok: 0 }, 'gpt-image-1': { perImage: 0.1 } });
    assert.equal(estimateCost(usage, { chatModel: 'my-local-llama', imageModel: 'gpt-image-1' }, prices), 0.2);
    assert.equal(DEFAULT_PRICES['gpt-image-1']!.perImage, 0.042, 'defaults untouched');
  });
  it('bills gpt-image-1 by its list prices per token: text $5, image input $10, image output $40 per 1M', () => {
    // one edit: 200 prompt tokens, 3 input images of 194 tokens, a medium 1024×1024 image (1056 tokens)
    const edit = { imageTextInputTokens: 200, imageInputTokens: 582, imageOutputTokens: 1056, images: 1 };
    // 200 × 5 + 582 × 10 + 1056 × 40 = 1000 + 5820 + 42240 = 49060 per 1M = $0.04906
    assert.equal(Math.round(imageCost(edit, 'gpt-image-1')! * 1e6), 49060);
    assert.equal(
      estimateCost({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, ...edit }, { chatModel: 'gpt-4o', imageModel: 'gpt-image-1' }),
      0.04906,
    );
  });
  it('knows the published output tokens per image by quality and size', () => {
    assert.deepEqual(
      ['low', 'medium', 'high'].map((q) => IMAGE_OUTPUT_TOKENS[q as 'low']['1024x1024']),
      [272, 1056, 4160],
    );
    assert.deepEqual(
      ['low', 'medium', 'high'].map((q) => IMAGE_OUTPUT_TOKENS[q as 'low']['1536x1024']),
      [408, 1584, 6240],
    );
    assert.deepEqual(
      ['low', 'medium', 'high'].map((q) => IMAGE_OUTPUT_TOKENS[q as 'low']['1024x1536']),
      [408, 1584, 6240],
    );
    // an image returned without usage: by the quality asked for (auto = high) and the shape returned
    assert.equal(imageOutputTokens('medium', 1536, 1024), 1584);
    assert.equal(imageOutputTokens('auto', 1024, 1024), 4160);
    assert.equal(imageOutputTokens('low', 1024, 1536), 408);
  });
});
