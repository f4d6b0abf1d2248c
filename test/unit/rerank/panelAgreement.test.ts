import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { startReRanking } from '../../../src/core/rerank';
import { loadReview } from '../../../src/core/review';
import { readRunRecord } from '../../../src/core/run/store';
import { buildPanelState } from '../../../src/extension/panel/panelState';
import { rerankAgreement } from '../../../src/extension/panel/rerankAgreement';
import { parseHostMessage } from '../../../src/protocol/panel';
import { makeReviewWithRun, RUN_ID, writeRerankRanking } from './fixtures';

describe('rerank: the panel’s before → after agreement', function () {
  this.timeout(20_000);
  let root = '';
  const logged: string[] = [];
  const log = (line: string) => logged.push(line);
  before(async () => {
    root = await makeReviewWithRun();
  });
  after(async () => {
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('is absent while the run has no re-ranking folder', async () => {
    assert.equal(await rerankAgreement(root, RUN_ID, log), undefined);
    assert.deepEqual(logged, []);
  });

  it('waits, then carries W before → after in a state message that parses at the webview end', async () => {
    const dir = await startReRanking(root, RUN_ID);
    await writeRerankRanking(dir, 'ana', { '2': 1, '4': 2, r2: 3 });
    const waiting = await rerankAgreement(root, RUN_ID, log);
    assert.ok(waiting);
    assert.equal(waiting.after, undefined);
    assert.equal(waiting.rerankings, 1);
    assert.equal(waiting.folder, `runs/${RUN_ID}/rerank`);

    await writeRerankRanking(dir, 'ben', { '2': 1, '4': 2, r2: 2 });
    const done = await rerankAgreement(root, RUN_ID, log);
    assert.ok(done?.after);
    assert.equal(done.converged, true);

    const load = await loadReview(root, { decodeImages: false });
    const runs = [await readRunRecord(root, RUN_ID)];
    const base = { root, load, analysis: { error: 'n/a' }, runs, trusted: true, running: false, toWebviewUri: (p: string) => `https://webview.test/${path.basename(p)}` };
    const state = buildPanelState({ ...base, rerank: done });
    const parsed = parseHostMessage(JSON.parse(JSON.stringify({ type: 'state', state })));
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    assert.ok(parsed.value.type === 'state' && parsed.value.state.rerank?.after?.w === done.after.w);

    // An agreement for another run than the one shown is not carried.
    const other = buildPanelState({ ...base, rerank: { ...done, runId: '2026-11-21T23-00-00Z-aaaa' } });
    assert.equal(other.rerank, undefined);
    assert.deepEqual(logged, []);
  });

  it('a bad band or W from a broken host never reaches the webview', () => {
    const bad = parseHostMessage({ type: 'state', state: { root, title: 't', base: 'b', diagnostics: [], runs: [], trusted: true, running: false, rerank: { runId: RUN_ID, before: { w: 0.3, band: 'great', pValue: 0.5, pPermutation: 0.5, designers: 2, options: 3 }, rerankings: 0, folder: 'x' } } });
    assert.equal(bad.ok, false);
  });
});
