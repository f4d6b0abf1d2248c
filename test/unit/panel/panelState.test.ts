import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadReview } from '../../../src/core/review';
import { analyzeReview } from '../../../src/core/stats';
import type { RunRecord } from '../../../src/core/record/record';
import { AnalysisSchema, PanelStateSchema } from '../../../src/protocol/panel';
import { buildPanelState } from '../../../src/extension/panel/panelState';
import { notTakenIn } from '../../../src/core/people/apply';
import type { ReceivedEntry } from '../../../src/core/people/inbox';
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
    iterations: [
      {
        index: 1,
        candidates: ['1', '2'],
        messages: [{ speaker: 'ana', turn: 1, content: 'hi' }],
        remix: { id: 'r1', file: 'iteration-1/remix.png' },
      },
    ],
    finalPick: 'r1',
    usage: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 5, images: 1 },
    prompts: [
      {
        id: 'p1',
        iteration: 1,
        kind: 'proxy-turn',
        model: 'gpt-4o',
        at: startedAt,
        messages: [{ role: 'user', content: 'secret prompt' }],
      },
    ],
  };
}

describe('panel state', () => {
  it('carries the review, the analysis and the runs, without recorded prompts', async () => {
    const load = await loadReview(SAMPLE, { decodeImages: false });
    assert.ok(load.review);
    const analysis = AnalysisSchema.parse(analyzeReview(load.review));
    const runs = [record('b', '2026-11-21T23:00:00Z'), record('a', '2026-11-21T22:00:00Z')];
    const state = buildPanelState({
      root: SAMPLE,
      load,
      analysis: { value: analysis },
      runs,
      trusted: false,
      running: false,
      toWebviewUri: toUri,
    });
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
    const root = await makeReview({
      reviewYaml: 'iterations: many\n',
      rankings: { 'alice.yaml': rankingYaml('Alice', ['1', '2', '3']), 'bob.yaml': 'designer: Bob\nranking: []\n' },
    });
    try {
      // As the panel loads it (reviewPanel.reload).
      const load = await loadReview(root, { decodeImages: false, partial: true, despiteSettings: true });
      const state = PanelStateSchema.parse(
        JSON.parse(
          JSON.stringify(
            buildPanelState({ root, load, analysis: { error: 'Too few.' }, runs: [], trusted: true, running: false, toWebviewUri: toUri }),
          ),
        ),
      );
      assert.deepEqual(
        state.review?.designers.map((d) => d.id),
        ['alice'],
      );
      assert.deepEqual(
        state.review?.designers[0]?.entries.map((e) => e.option),
        ['1', '2', '3'],
      );
      assert.ok(
        state.diagnostics.some((d) => d.file === 'review.yaml' && d.severity === 'error'),
        'the review.yaml error is shown',
      );
      assert.ok(
        state.diagnostics.some((d) => d.file === 'rankings/bob.yaml' && d.severity === 'error'),
        'the broken ranking is shown',
      );
    } finally {
      await cleanupFixtures();
    }
  });

  it('shows the picked run and explains a missing analysis', async () => {
    const load = await loadReview(SAMPLE, { decodeImages: false });
    const runs = [record('b', '2026-11-21T23:00:00Z'), record('a', '2026-11-21T22:00:00Z')];
    const state = buildPanelState({
      root: SAMPLE,
      load,
      analysis: { error: 'Too few.' },
      runs,
      selectedRunId: 'a',
      trusted: true,
      running: true,
      toWebviewUri: toUri,
    });
    assert.equal(state.run?.id, 'a');
    assert.equal(state.analysisError, 'Too few.');
    assert.equal(state.runs.length, 2);
    assert.equal(state.runs[0]?.finalPick, 'r1');
  });

  it("a person's say or pin the run has not taken in shows as pending on the chosen run; one it holds does not", async () => {
    const load = await loadReview(SAMPLE, { decodeImages: false });
    const run = { ...record('b', '2026-11-21T23:00:00Z'), status: 'running' as const, takenIn: ['ben-1700000000000-000001-aaaaaaaa'] };
    const entries: ReceivedEntry[] = [
      {
        name: 'ben-1700000000000-000001-aaaaaaaa',
        entry: { type: 'say', speaker: 'ben', content: 'taken in already', at: '2026-11-21T23:01:00Z' },
      },
      { name: 'chen-1700000000001-000002-bbbbbbbb', entry: { type: 'pin', message: 'i1-m1', by: 'chen', at: '2026-11-21T23:02:00Z' } },
      {
        name: 'chen-1700000000002-000003-cccccccc',
        entry: { type: 'say', speaker: 'chen', content: 'Keep the gold cap.', at: '2026-11-21T23:03:00Z' },
      },
      // Whatever an entry holds, the state stays within the protocol's bounds (a state that does not parse is dropped whole).
      {
        name: 'dina-1700000000003-000004-dddddddd',
        entry: { type: 'pin', message: 'i1-m1'.padEnd(500, 'x'), by: 'd'.repeat(500), remove: true, at: 'x'.repeat(500) },
      },
    ];
    const waiting = notTakenIn(run, entries);
    assert.deepEqual(
      waiting.map((e) => e.name.split('-')[0]),
      ['chen', 'chen', 'dina'],
    );
    const base = {
      root: SAMPLE,
      load,
      analysis: { error: 'n/a' },
      runs: [run, record('a', '2026-11-21T22:00:00Z')],
      trusted: true,
      running: false,
      toWebviewUri: toUri,
    };
    const state = PanelStateSchema.parse(
      JSON.parse(JSON.stringify(buildPanelState({ ...base, pending: { runId: 'b', entries: waiting } }))),
    );
    assert.deepEqual(state.run?.pending?.slice(0, 2), [
      { type: 'pin', name: 'chen-1700000000001-000002-bbbbbbbb', person: 'chen', message: 'i1-m1', at: '2026-11-21T23:02:00Z' },
      {
        type: 'say',
        name: 'chen-1700000000002-000003-cccccccc',
        person: 'chen',
        content: 'Keep the gold cap.',
        at: '2026-11-21T23:03:00Z',
      },
    ]);
    assert.equal(state.run?.pending?.[2]?.type === 'pin' && state.run.pending[2].remove, true);
    // Entries of another run are not shown on the chosen one.
    const other = PanelStateSchema.parse(
      JSON.parse(JSON.stringify(buildPanelState({ ...base, pending: { runId: 'a', entries: waiting } }))),
    );
    assert.equal(other.run?.pending, undefined);
    // A message the record holds (from before takenIn: its entry named on the message) is not pending either.
    const held = {
      ...run,
      takenIn: [],
      iterations: [
        {
          ...run.iterations[0]!,
          messages: [{ speaker: 'chen', turn: null, kind: 'human' as const, content: 'x', entry: 'chen-1700000000002-000003-cccccccc' }],
        },
      ],
    };
    assert.deepEqual(
      notTakenIn(held, entries).map((e) => e.name.split('-')[0]),
      ['ben', 'chen', 'dina'],
    );
  });
});
