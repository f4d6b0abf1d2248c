import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { compareAgreement, formatAgreementLine, startReRanking } from '../../../src/core/rerank';
import { loadReview } from '../../../src/core/review';
import { analyzeReview } from '../../../src/core/stats';
import { makeReviewWithRun, RUN_ID, writeRerankRanking } from './fixtures';

const FAST = { permutations: 2000 };

describe('rerank: compareAgreement', function () {
  this.timeout(20_000);
  let root = '';
  let dir = '';
  let beforeW = 0;
  before(async () => {
    root = await makeReviewWithRun();
    const parent = await loadReview(root);
    assert.ok(parent.review);
    beforeW = analyzeReview(parent.review, FAST).kendall.w;
  });
  after(async () => {
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('has only "before" while there is no re-ranking folder', async () => {
    const c = await compareAgreement(root, RUN_ID, FAST);
    assert.equal(c.before.w, beforeW);
    assert.equal(c.before.designers, 4);
    assert.equal(c.before.options, 6);
    assert.equal(c.after, undefined);
    assert.equal(c.converged, undefined);
    assert.equal(c.rerankExists, false);
    assert.equal(c.rerankDir, path.join(root, 'runs', RUN_ID, 'rerank'));
  });

  it('waits for two valid re-rankings', async () => {
    dir = await startReRanking(root, RUN_ID);
    let c = await compareAgreement(root, RUN_ID, FAST);
    assert.equal(c.rerankExists, true);
    assert.equal(c.after, undefined);
    assert.match(formatAgreementLine(c), /waiting for re-rankings \(0 of 2\)$/);
    await writeRerankRanking(dir, 'ana', { '2': 1, '4': 2, r2: 3 });
    c = await compareAgreement(root, RUN_ID, FAST);
    assert.equal(c.rerankings, 1);
    assert.equal(c.after, undefined);
    assert.match(formatAgreementLine(c), /waiting for re-rankings \(1 of 2\)$/);
  });

  it('computes W after with a tie (average ranks, tie-corrected) and says the team converged', async () => {
    // ben ties 4 and r2 for second: ranks [1, 2, 3] and [1, 2.5, 2.5]. R = [2, 4.5, 5.5], S = 6.5,
    // W = 12 S / (m²(n³−n) − m ΣT) = 78 / (96 − 12) = 0.92857…
    await writeRerankRanking(dir, 'ben', { '2': 1, '4': 2, r2: 2 });
    const c = await compareAgreement(root, RUN_ID, FAST);
    assert.ok(c.after);
    assert.ok(Math.abs(c.after.w - 78 / 84) < 1e-12, `W after = ${c.after.w}`);
    assert.equal(c.after.band, 'almost-perfect');
    assert.equal(c.after.designers, 2);
    assert.equal(c.after.options, 3);
    assert.ok(c.before.w < c.after.w);
    assert.equal(c.converged, true);
    assert.equal(c.waiting, undefined);
    assert.equal(
      formatAgreementLine(c),
      `Agreement before → after: W ${c.before.w.toFixed(2)} (${c.before.band.replace('-', ' ')}) → 0.93 (almost perfect) — converged`,
    );
  });

  it('says "did not converge" when the re-rankings agree less than before', async () => {
    await writeRerankRanking(dir, 'ana', { '2': 1, '4': 2, r2: 3 });
    await writeRerankRanking(dir, 'ben', { '2': 3, '4': 2, r2: 1 });
    const c = await compareAgreement(root, RUN_ID, FAST);
    assert.ok(c.after);
    assert.equal(c.after.w, 0);
    assert.ok(c.before.w > 0, 'the fixture team agrees a little before');
    assert.equal(c.converged, false);
    assert.match(formatAgreementLine(c), /— did not converge$/);
  });

  it('reports a broken re-ranking file instead of throwing', async () => {
    await fs.writeFile(path.join(dir, 'rankings', 'cy.yaml'), 'designer: Cy\nranking: [\n');
    const c = await compareAgreement(root, RUN_ID, FAST);
    assert.ok(c.after, 'the two valid rankings still count');
    assert.equal(c.rerankings, 2);
    assert.match(c.waiting ?? '', /problem.*rankings\/cy\.yaml/);
    await fs.rm(path.join(dir, 'rankings', 'cy.yaml'));
  });
});
