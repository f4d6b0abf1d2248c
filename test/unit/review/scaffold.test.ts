import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { formatDiagnostic, isReviewFolder, loadReview, scaffoldReview } from '../../../src/core/review';
import { cleanupFixtures, makeReview, SAMPLE, tempDir } from './fixtures';

describe('scaffoldReview', () => {
  after(cleanupFixtures);

  it('sample: copies the sample review, which then validates clean', async () => {
    const target = path.join(await tempDir(), 'new-review');
    await scaffoldReview(target, 'sample', SAMPLE);
    const r = await loadReview(target);
    assert.deepEqual(r.diagnostics.map(formatDiagnostic), []);
    assert.equal(r.review!.options.length, 6);
    assert.equal(r.review!.designers.length, 4);
  });

  it('empty: brief with headings, options/ and rankings/ with .gitkeep, a commented review.yaml', async () => {
    const target = await tempDir();
    await scaffoldReview(target, 'empty', SAMPLE);
    assert.deepEqual((await fs.readdir(target)).sort(), ['brief.md', 'options', 'rankings', 'review.yaml']);
    assert.deepEqual(await fs.readdir(path.join(target, 'options')), ['.gitkeep']);
    assert.deepEqual(await fs.readdir(path.join(target, 'rankings')), ['.gitkeep']);
    assert.match(await fs.readFile(path.join(target, 'brief.md'), 'utf8'), /^# .+\n[\s\S]*## /);
    const yaml = await fs.readFile(path.join(target, 'review.yaml'), 'utf8');
    assert.ok(
      yaml.split('\n').every((l) => l === '' || l.startsWith('#')),
      'every line is a comment',
    );
    const r = await loadReview(target, { requireRankings: false });
    assert.deepEqual(r.diagnostics.map(formatDiagnostic), [
      'options:0:0: error: options/ has no images. Add 2 to 50 candidate images (.png, .jpg, .jpeg or .webp).',
    ]);
    assert.equal(await isReviewFolder(target), true);
  });

  it('refuses a non-empty folder or a file, and writes nothing then', async () => {
    const target = await tempDir();
    await fs.writeFile(path.join(target, 'keep.txt'), 'mine');
    await assert.rejects(scaffoldReview(target, 'empty', SAMPLE), /is not empty; choose a new or empty folder/);
    assert.deepEqual(await fs.readdir(target), ['keep.txt']);
    await assert.rejects(scaffoldReview(path.join(target, 'keep.txt'), 'sample', SAMPLE), /is a file/);
  });
});

describe('isReviewFolder', () => {
  after(cleanupFixtures);
  it('brief.md, or options/ with rankings/, make a review folder', async () => {
    assert.equal(await isReviewFolder(SAMPLE), true);
    assert.equal(await isReviewFolder(await makeReview({ brief: null })), true);
    assert.equal(await isReviewFolder(await makeReview({ brief: null, rankings: null })), false);
    assert.equal(await isReviewFolder(await makeReview({ brief: { dir: true }, rankings: null })), false);
    assert.equal(await isReviewFolder(path.join(SAMPLE, 'brief.md')), false);
    assert.equal(await isReviewFolder(path.join(SAMPLE, 'nope')), false);
  });
});
