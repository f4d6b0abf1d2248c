import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadReview } from '../../../src/core/review';
import { analyzeReview } from '../../../src/core/stats';
import type { RunRecord } from '../../../src/core/record/record';
import { AnalysisSchema, PanelStateSchema } from '../../../src/protocol/panel';
import { buildPanelState } from '../../../src/extension/panel/panelState';
import { cleanupFixtures, makeReview, rankingYaml } from '../review/fixtures';

const SAMPLE = path.resolve(__dirname, '../../../../samples/lumen-perfume');
const toUri = (p: string) => `https://webview.test${p.split(path.sep).join('/')}`;

function record(id: string, startedAt: string): RunRecord {
  return {
    version: 1,
    id,
    status: 'completed',
    startedAt,
    updatedAt: startedAt,
    settings: { chatModel: 'gpt-4o', imageModel: 'gpt-image-1', turnsPerAgent: 2, iterations: 3 },
    options: [{ id: '1', label: 'Image 1', file: 'options/1.png' }],
    iterations: [{ index: 1, candidates: ['1', '2'], messages: [{ speaker: 'ana', turn: 1, content: 'hi' }], remix: { id: 'r1', file: 'iteration-1/remix.png' } }],
    finalPick: 'r1',
    usage: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 5, images: 1 },
    prompts: [{ id: 'p1', iteration: 1, kind: 'proxy-turn', model: 'gpt-4o', at: startedAt, messages: [{ role: 'user', content: 'secret prompt' }] }],
  };
}

describe('panel state', () => {
  it('carries the review, the analysis and the runs, without recorded prompts', async () => {
    const load = await loadReview(SAMPLE, { decodeImages: false });
    assert.ok(load.review);
    const analysis = AnalysisSchema.parse(analyzeReview(load.review));
    const runs = [record('b', '2026-11-21T23:00:00Z'), record('a', '2026-11-21T22:00:00Z')];
    const state = buildPanelState({ root: SAMPLE, load, analysis: { value: analysis }, runs, trusted: false, running: false, toWebviewUri: toUri });
    const parsed = PanelStateSchema.parse(JSON.parse(JSON.stringify(state)));
    assert.equal(parsed.review?.options.length, load.review.options.length);
    assert.ok(parsed.review?.options[0]?.src.startsWith('https://webview.test/'));
    assert.equal(parsed.run?.id, 'b', 'the newest run by default');
    assert.equal('prompts' in (parsed.run ?? {}), false);
    assert.ok(!JSON.stringify(state).includes('secret prompt'));
    assert.equal(parsed.run?.base, toUri(path.join(SAMPLE, 'runs', 'b')));
    assert.equal(parsed.analysis?.kendall.w, analysis.kendall.w);
    assert.equal(parsed.trusted, false);
  });

  it('a review.yaml with an error: the valid rankings are still listed, with the error in the diagnostics', async () => {
    const root = await makeReview({ reviewYaml: 'iterations: many\n', rankings: { 'alice.yaml': rankingYaml('Alice', ['1', '2', '3']), 'bob.yaml': 'designer: Bob\nranking: []\n' } });
    try {
      // As the panel loads it (reviewPanel.reload).
      const load = await loadReview(root, { decodeImages: false, partial: true, despiteSettings: true });
      const state = PanelStateSchema.parse(JSON.parse(JSON.stringify(buildPanelState({ root, load, analysis: { error: 'Too few.' }, runs: [], trusted: true, running: false, toWebviewUri: toUri }))));
      assert.deepEqual(state.review?.designers.map((d) => d.id), ['alice']);
      assert.deepEqual(state.review?.designers[0]?.entries.map((e) => e.option), ['1', '2', '3']);
      assert.ok(state.diagnostics.some((d) => d.file === 'review.yaml' && d.severity === 'error'), 'the review.yaml error is shown');
      assert.ok(state.diagnostics.some((d) => d.file === 'rankings/bob.yaml' && d.severity === 'error'), 'the broken ranking is shown');
    } finally {
      await cleanupFixtures();
    }
  });

  it('shows the picked run and explains a missing analysis', async () => {
    const load = await loadReview(SAMPLE, { decodeImages: false });
    const runs = [record('b', '2026-11-21T23:00:00Z'), record('a', '2026-11-21T22:00:00Z')];
    const state = buildPanelState({ root: SAMPLE, load, analysis: { error: 'Too few.' }, runs, selectedRunId: 'a', trusted: true, running: true, toWebviewUri: toUri });
    assert.equal(state.run?.id, 'a');
    assert.equal(state.analysisError, 'Too few.');
    assert.equal(state.runs.length, 2);
    assert.equal(state.runs[0]?.finalPick, 'r1');
  });
});
