import * as assert from 'node:assert/strict';
import { usageRows } from '../../../webview/panel/views/run/runOutcome';

type Run = Parameters<typeof usageRows>[0];

const usage = { inputTokens: 12_000, cachedInputTokens: 3_000, outputTokens: 900, images: 0, costUsd: 0.0123 };
const settings = { chatModel: 'gpt-4o-mini', imageModel: 'gpt-image-1', turnsPerAgent: 1, iterations: 2, imageSize: '1024x1024' };

describe('panel: tokens and cost', () => {
  it('a brief run shows no image rows and no image model, only its chat model, and the direct baseline cost apart', () => {
    const rows = usageRows({
      task: 'brief',
      usage,
      settings,
      iterations: [],
      baseline: { file: 'baseline.md', promptId: 'p9', costUsd: 0.0021 },
    } as Run);
    const labels = rows.map(([k]) => k);
    for (const gone of ['Images', 'Cost per remixed image', 'Models', 'Remix image']) assert.ok(!labels.includes(gone), gone);
    assert.deepEqual(
      rows.find(([k]) => k === 'Model'),
      ['Model', 'gpt-4o-mini'],
    );
    assert.ok(
      rows.some(([k, v]) => k === 'Direct baseline (cost apart)' && v === '< $0.01'),
      JSON.stringify(rows),
    );
    assert.ok(!rows.some(([, v]) => v.includes('gpt-image-1')));
  });

  it('a design run keeps its image rows', () => {
    const labels = usageRows({ usage: { ...usage, images: 2 }, settings, iterations: [] } as unknown as Run).map(([k]) => k);
    for (const kept of ['Images', 'Cost per remixed image', 'Models', 'Remix image']) assert.ok(labels.includes(kept), kept);
  });

  it('a scripted run says at each cost that it is not a real cost and is left out of every total', () => {
    const rows = usageRows({ usage: { ...usage, images: 2 }, settings, iterations: [], scripted: true } as unknown as Run);
    const costs = rows.filter(([k]) => /cost/i.test(k));
    assert.ok(costs.length >= 2);
    for (const [k, v] of costs) assert.match(v, /scripted run: not a real cost, left out of every total/, k);
    const real = usageRows({ usage: { ...usage, images: 2 }, settings, iterations: [] } as unknown as Run);
    assert.ok(!real.some(([, v]) => /scripted/.test(v)));
  });
});
