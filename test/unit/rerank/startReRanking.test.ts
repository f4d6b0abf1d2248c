import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { rerankDir, startReRanking } from '../../../src/core/rerank';
import { loadReview } from '../../../src/core/review';
import { FINAL, makeReviewWithRun, RUN_ID, snapshot } from './fixtures';

describe('rerank: startReRanking', function () {
  this.timeout(20_000);
  const made: string[] = [];
  after(async () => {
    for (const d of made) await fs.rm(d, { recursive: true, force: true });
  });

  it('makes runs/<id>/rerank as a review of the final candidates, touching nothing else', async () => {
    const root = await makeReviewWithRun();
    made.push(root);
    const before = await snapshot(root);
    const dir = await startReRanking(root, RUN_ID);
    assert.equal(dir, rerankDir(root, RUN_ID));
    assert.equal(dir, path.join(root, 'runs', RUN_ID, 'rerank'));

    assert.deepEqual((await fs.readdir(path.join(dir, 'options'))).sort(), ['2.png', '4.png', 'r2.png']);
    assert.ok((await fs.readFile(path.join(dir, 'options', '4.png'))).equals(await fs.readFile(path.join(root, 'options', '4.png'))));
    assert.ok(
      (await fs.readFile(path.join(dir, 'options', 'r2.png'))).equals(await fs.readFile(path.join(root, 'runs', RUN_ID, 'iteration-2', 'remix.png'))),
      'the remix is copied as r2.png',
    );
    assert.deepEqual(await fs.readdir(path.join(dir, 'rankings')), ['.gitkeep']);
    assert.equal(await fs.readFile(path.join(dir, 'brief.md'), 'utf8'), await fs.readFile(path.join(root, 'brief.md'), 'utf8'));
    const config = parse(await fs.readFile(path.join(dir, 'review.yaml'), 'utf8')) as { title: string };
    assert.equal(config.title, `Lumen — perfume launch — re-ranking after run ${RUN_ID}`);
    assert.deepEqual((await fs.readdir(dir)).sort(), ['brief.md', 'options', 'rankings', 'review.yaml']);

    // An ordinary review: it loads without problems and its options are the final candidates.
    const loaded = await loadReview(dir, { requireRankings: false });
    assert.deepEqual(loaded.diagnostics, []);
    assert.deepEqual(loaded.review?.options.map((o) => o.id), FINAL);
    assert.equal(loaded.review?.title, config.title);

    // Everything that existed is byte-for-byte the same; only rerank/ was added.
    const afterwards = await snapshot(root, (rel) => rel === `runs/${RUN_ID}/rerank`);
    assert.deepEqual(afterwards, before);
    // The parent review is not confused by the nested one.
    const parent = await loadReview(root);
    assert.equal(parent.review?.options.length, 6);
    assert.equal(parent.review?.designers.length, 4);
  });

  it('refuses a second time and leaves the existing folder alone', async () => {
    const root = await makeReviewWithRun();
    made.push(root);
    const dir = await startReRanking(root, RUN_ID);
    await fs.writeFile(path.join(dir, 'rankings', 'ana.yaml'), 'designer: Ana\n');
    const was = await snapshot(dir);
    await assert.rejects(startReRanking(root, RUN_ID), /already has a re-ranking folder/);
    assert.deepEqual(await snapshot(dir), was);
    assert.deepEqual((await fs.readdir(path.join(root, 'runs', RUN_ID))).filter((n) => n.startsWith('rerank')), ['rerank']);
  });

  for (const status of ['running', 'failed', 'cancelled'] as const) {
    it(`refuses a ${status} run and writes nothing`, async () => {
      const root = await makeReviewWithRun(status);
      made.push(root);
      const was = await snapshot(root);
      await assert.rejects(startReRanking(root, RUN_ID), new RegExp(`Run ${RUN_ID} is ${status}; only a completed run can be re-ranked\\.`));
      assert.deepEqual(await snapshot(root), was);
    });
  }

  it('refuses a run that does not exist or an id that is not a run id, in a sentence', async () => {
    const root = await makeReviewWithRun();
    made.push(root);
    await assert.rejects(startReRanking(root, '2026-01-01T00-00-00Z-0000'), /There is no run "2026-01-01T00-00-00Z-0000"/);
    await assert.rejects(startReRanking(root, '../../etc'), /is not a run id/);
  });
});
