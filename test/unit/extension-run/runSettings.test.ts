import * as assert from 'node:assert/strict';
import { DEFAULT_POOL } from '../../../src/core/settings/discussionSettings';
import { DEFAULT_SETTINGS } from '../../../src/core/run/runSettings';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  DISCUSSION_DEFAULTS,
  DISCUSSION_MODES,
  HIERARCHIES,
  IMAGE_QUALITIES,
  IMAGE_SIZES,
  PERSONA_ROLES,
  SPEAKING_ORDERS,
} from '../../../src/core/settings/discussionSettings';
import { OTHER_BOUNDS, SETTING_BOUNDS } from '../../../src/core/settings/settingBounds';
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

describe('extension-run: discussion settings', () => {
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as {
    contributes: {
      configuration: { properties: Record<string, { enum?: string[]; default?: unknown; minimum?: number; maximum?: number }> };
    };
  };
  const props = manifest.contributes.configuration.properties;

  it("contributes every discussion setting with the engine's values and defaults", () => {
    assert.deepEqual(props['teamfusion.mode']!.enum, [...DISCUSSION_MODES]);
    assert.deepEqual(props['teamfusion.order']!.enum, [...SPEAKING_ORDERS]);
    assert.deepEqual(props['teamfusion.hierarchy']!.enum, [...HIERARCHIES]);
    assert.deepEqual(props['teamfusion.personaRole']!.enum, [...PERSONA_ROLES]);
    assert.deepEqual(props['teamfusion.imageSize']!.enum, [...IMAGE_SIZES]);
    assert.deepEqual(props['teamfusion.imageQuality']!.enum, [...IMAGE_QUALITIES]);
    for (const k of ['mode', 'order', 'maxConcurrency', 'hierarchy', 'personaRole', 'temperature', 'imageSize', 'imageQuality'] as const) {
      assert.equal(props[`teamfusion.${k}`]!.default, DISCUSSION_DEFAULTS[k], k);
    }
    assert.equal(props['teamfusion.temperature']!.minimum, OTHER_BOUNDS.temperature.min);
    assert.equal(props['teamfusion.temperature']!.maximum, OTHER_BOUNDS.temperature.max);
  });

  it("passes the discussion settings the user set; bad values are ignored with a warning; the picker's subset is explicit", () => {
    const r = resolveRunSettings(
      inspector({
        mode: { workspaceValue: 'together' },
        order: { globalValue: 'shuffle' },
        orderSeed: { globalValue: 99 },
        maxConcurrency: { globalValue: 8 },
        hierarchy: { globalValue: 'lead-decides' },
        personaRole: { globalValue: 'user' },
        temperature: { globalValue: 0.2 },
        imageSize: { globalValue: '1024x1536' },
        imageQuality: { globalValue: 'high' },
      }),
      { designers: ['ana', 'ben'] },
    );
    assert.deepEqual(r.settings, {
      mode: 'together',
      order: 'shuffle',
      orderSeed: 99,
      maxConcurrency: 8,
      hierarchy: 'lead-decides',
      personaRole: 'user',
      temperature: 0.2,
      imageSize: '1024x1536',
      imageQuality: 'high',
      designers: ['ana', 'ben'],
    });
    const bad = resolveRunSettings(
      inspector({ mode: { globalValue: 'debate' }, temperature: { globalValue: 3 }, maxConcurrency: { globalValue: 17 } }),
    );
    assert.deepEqual(bad.settings, {});
    assert.deepEqual(bad.warnings, [
      'The setting teamfusion.maxConcurrency (17) is not a whole number from 1 to 16; it is ignored.',
      'The setting teamfusion.mode ("debate") is not "separate-then-together", "together" or "separate"; it is ignored.',
      'The setting teamfusion.temperature (3) is not a number from 0 to 2; it is ignored.',
    ]);
  });

  it("teamfusion.remixesPerIteration: contributed with the engine's bounds (default 1 = one remix a round), passed when set, 0 or 5 ignored with a warning", () => {
    const p = props['teamfusion.remixesPerIteration']!;
    assert.equal(p.default, 1);
    assert.equal(p.minimum, SETTING_BOUNDS.remixesPerIteration.min);
    assert.equal(p.maximum, SETTING_BOUNDS.remixesPerIteration.max);
    assert.deepEqual(resolveRunSettings(inspector({ remixesPerIteration: { defaultValue: 1 } })).settings, {});
    assert.deepEqual(resolveRunSettings(inspector({ remixesPerIteration: { workspaceValue: 3 } })).settings, { remixesPerIteration: 3 });
    for (const bad of [0, 5, 2.5]) {
      const r = resolveRunSettings(inspector({ remixesPerIteration: { globalValue: bad } }));
      assert.deepEqual(r.settings, {});
      assert.deepEqual(r.warnings, [
        `The setting teamfusion.remixesPerIteration (${bad}) is not a whole number from 1 to 4; it is ignored.`,
      ]);
    }
  });

  it("teamfusion.pool (issue 41): contributed with the engine's bounds and default (4; 1 = no pool), passed when set, 0 or 9 ignored with a warning", () => {
    const p = props['teamfusion.pool']!;
    assert.equal(p.default, DEFAULT_POOL);
    assert.equal(DEFAULT_SETTINGS.pool, DEFAULT_POOL);
    assert.equal(DEFAULT_POOL, 4);
    assert.deepEqual(
      resolveRunSettings(inspector({ pool: { defaultValue: 4, workspaceValue: 1 } })).settings,
      { pool: 1 },
      'pool 1 set: no pool',
    );
    assert.equal(p.minimum, SETTING_BOUNDS.pool.min);
    assert.equal(p.maximum, SETTING_BOUNDS.pool.max);
    assert.deepEqual(resolveRunSettings(inspector({ pool: { defaultValue: 4 } })).settings, {}, 'at its default, review.yaml decides');
    assert.deepEqual(resolveRunSettings(inspector({ pool: { workspaceValue: 4 } })).settings, { pool: 4 });
    for (const bad of [0, 9, 2.5]) {
      const r = resolveRunSettings(inspector({ pool: { globalValue: bad } }));
      assert.deepEqual(r.settings, {});
      assert.deepEqual(r.warnings, [`The setting teamfusion.pool (${bad}) is not a whole number from 1 to 8; it is ignored.`]);
    }
  });
});
