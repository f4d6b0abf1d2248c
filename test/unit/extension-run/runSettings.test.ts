import * as assert from 'node:assert/strict';
import { explicitValue, resolveConnection, resolveRunSettings, type InspectedValue } from '../../../src/extension/run/runSettings';

const DEFAULTS: Record<string, unknown> = {
  baseUrl: '',
  chatModel: 'gpt-4o',
  imageModel: 'gpt-image-1',
  turnsPerAgent: 2,
  iterations: 3,
  imageMaxSide: 1024,
  requestTimeoutSeconds: 120,
  maxRetries: 3,
  prices: {},
};

function inspector(user: Record<string, InspectedValue<unknown>>) {
  return (key: string): InspectedValue<unknown> => ({ defaultValue: DEFAULTS[key], ...user[key] });
}

describe('extension-run: run settings precedence', () => {
  it('passes nothing when every setting is at its default (review.yaml then decides)', () => {
    const r = resolveRunSettings(inspector({}));
    assert.deepEqual(r.settings, {});
    assert.equal(r.prices, undefined);
    assert.deepEqual(r.warnings, []);
  });

  it('passes a setting the user set, even when it equals the default value', () => {
    const r = resolveRunSettings(inspector({ chatModel: { globalValue: 'gpt-4o' }, iterations: { workspaceValue: 2 } }));
    assert.deepEqual(r.settings, { chatModel: 'gpt-4o', iterations: 2 });
  });

  it('prefers folder over workspace over user values', () => {
    assert.equal(explicitValue({ globalValue: 'a', workspaceValue: 'b', workspaceFolderValue: 'c' }), 'c');
    assert.equal(explicitValue({ globalValue: 'a', workspaceValue: 'b' }), 'b');
    assert.equal(explicitValue({ defaultValue: 'd' }), undefined);
  });

  it('lets command arguments override settings', () => {
    const r = resolveRunSettings(inspector({ iterations: { globalValue: 5 }, turnsPerAgent: { globalValue: 3 } }), {
      iterations: 2,
      turns: 1,
    });
    assert.equal(r.settings.iterations, 2);
    assert.equal(r.settings.turnsPerAgent, 1);
  });

  it('ignores invalid values with a warning naming the setting', () => {
    const r = resolveRunSettings(
      inspector({ iterations: { globalValue: 0 }, chatModel: { globalValue: '  ' }, imageMaxSide: { globalValue: 64 } }),
    );
    assert.deepEqual(r.settings, {});
    assert.equal(r.warnings.length, 3);
    assert.ok(r.warnings.some((w) => w.includes('teamfusion.iterations')));
    assert.ok(r.warnings.some((w) => w.includes('teamfusion.imageMaxSide')));
  });

  it('passes a valid price table and rejects one with a typo', () => {
    const ok = resolveRunSettings(inspector({ prices: { globalValue: { 'my-model': { inputPerMTok: 1, outputPerMTok: 2 } } } }));
    assert.deepEqual(ok.prices, { 'my-model': { inputPerMTok: 1, outputPerMTok: 2 } });
    const bad = resolveRunSettings(inspector({ prices: { globalValue: { 'my-model': { inputPerMtok: 1 } } } }));
    assert.equal(bad.prices, undefined);
    assert.equal(bad.warnings.length, 1);
  });
});

describe('extension-run: connection settings', () => {
  const get = (over: Record<string, unknown>) => (key: string) => (key in over ? over[key] : DEFAULTS[key]);

  it('uses the baseUrl setting before OPENAI_BASE_URL', () => {
    const c = resolveConnection(get({ baseUrl: 'http://127.0.0.1:9/v1' }), { OPENAI_BASE_URL: 'http://env/v1' });
    assert.equal(c.baseURL, 'http://127.0.0.1:9/v1');
  });

  it('falls back to OPENAI_BASE_URL, then to the SDK default', () => {
    assert.equal(resolveConnection(get({}), { OPENAI_BASE_URL: 'http://env/v1' }).baseURL, 'http://env/v1');
    assert.equal(resolveConnection(get({}), {}).baseURL, undefined);
  });

  it('turns seconds into milliseconds and keeps retries', () => {
    const c = resolveConnection(get({ requestTimeoutSeconds: 7.5, maxRetries: 0 }), {});
    assert.equal(c.timeoutMs, 7500);
    assert.equal(c.maxRetries, 0);
  });
});
