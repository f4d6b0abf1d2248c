import * as assert from 'node:assert/strict';
import { parseHostMessage, parsePersistedState, parseWebviewMessage, PanelStateSchema } from '../../../src/protocol/panel';

describe('panel protocol', () => {
  it('accepts the webview commands it defines', () => {
    for (const m of [
      { type: 'ready' },
      { type: 'run' },
      { type: 'refine', runId: 'r', feedback: 'warmer' },
      { type: 'cancel' },
      { type: 'openRun', runId: '2026-11-21T22-40-05Z-3f9c' },
      { type: 'saveRanking', requestId: 3, designer: 'Eve', ranking: [{ option: '1', rank: 1, justification: 'x' }] },
      { type: 'openFile', path: 'rankings/ana.yaml' },
      { type: 'setApiKey' },
      { type: 'log', level: 'error', message: 'boom' },
    ]) {
      const r = parseWebviewMessage(m);
      assert.equal(r.ok, true, JSON.stringify(m));
    }
  });

  it('drops unknown, malformed and oversized webview messages with a reason', () => {
    const bad: unknown[] = [
      null,
      'run',
      { type: 'deleteEverything' },
      { type: 'refine', runId: 'r' },
      { type: 'saveRanking', requestId: -1, designer: 'x', ranking: [] },
      { type: 'saveRanking', requestId: 1, designer: 'x', ranking: [{ option: '1', rank: 0, justification: 'x' }] },
      { type: 'log', level: 'error', message: 'x'.repeat(5000) },
    ];
    for (const m of bad) {
      const r = parseWebviewMessage(m);
      assert.equal(r.ok, false, JSON.stringify(m)?.slice(0, 80));
      if (!r.ok) assert.ok(r.error.length > 0);
    }
  });

  it('checks host messages, including the run events', () => {
    assert.equal(
      parseHostMessage({ type: 'runEvent', event: { type: 'turn-delta', runId: 'r', iteration: 1, speaker: 'ana', turn: 1, text: 'Hi' } })
        .ok,
      true,
    );
    assert.equal(parseHostMessage({ type: 'runEvent', event: { type: 'turn-delta', runId: 'r' } }).ok, false);
    assert.equal(
      parseHostMessage({ type: 'saveRankingResult', requestId: 1, ok: true, file: 'rankings/eve.yaml', diagnostics: [] }).ok,
      true,
    );
    assert.equal(parseHostMessage({ type: 'state', state: { root: '/x' } }).ok, false);
  });

  it('restores the persisted state only when it names a root', () => {
    assert.equal(parsePersistedState({ root: '/w/review', tab: 'run' }).ok, true);
    assert.equal(parsePersistedState(undefined).ok, false);
    assert.equal(parsePersistedState({ tab: 'run' }).ok, false);
  });

  it('carries the analysis exactly as the statistics core makes it, and rejects a malformed one', () => {
    const analysis = {
      options: ['1', '2'],
      designers: [{ id: 'a', name: 'A', weight: 1 }],
      kendall: {
        w: 0.5,
        wUncorrected: 0.5,
        chiSquare: 1,
        df: 1,
        pValue: 0.3,
        pPermutation: 0.4,
        permutations: 100,
        seed: 1,
        band: 'moderate',
        sentence: 'S.',
      },
      borda: [{ option: '1', points: 1, position: 1 }],
      weightedBorda: [{ option: '1', points: 1, position: 1 }],
      pairwise: { designers: ['a'], tau: [[1]] },
      perOption: [{ option: '1', meanRank: 1, sd: 0, min: 1, max: 1, contested: false }],
      outlier: null,
    };
    const base = { root: '/r', title: 'R', base: 'https://x/r', diagnostics: [], runs: [], trusted: true, running: false };
    const ok = PanelStateSchema.safeParse({ ...base, analysis });
    assert.ok(ok.success);
    assert.equal(ok.data.analysis?.kendall.w, 0.5);
    const bad = PanelStateSchema.safeParse({ ...base, analysis: { ...analysis, kendall: { ...analysis.kendall, w: '0.5' } } });
    assert.equal(bad.success, false);
    // The Schulze order travels with it (an older analysis without one still reads).
    const schulze = { ranking: [['1'], ['2']], winners: ['1'], differsFromBorda: false, condorcetWinner: '1', sentence: null };
    const withSchulze = PanelStateSchema.safeParse({ ...base, analysis: { ...analysis, schulze } });
    assert.ok(withSchulze.success);
    assert.deepEqual(withSchulze.data.analysis?.schulze?.ranking, [['1'], ['2']]);
    assert.equal(PanelStateSchema.safeParse({ ...base, analysis: { ...analysis, schulze: { ...schulze, winners: '1' } } }).success, false);
  });
});
