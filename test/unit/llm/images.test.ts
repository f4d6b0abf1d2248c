import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { clearImageMemo, defaultCacheDir, prepareImage, readImageFile, roundImageReads, toPng } from '../../../src/core/llm/images';
import { makeImage, makeTempDir } from '../run/fixtures';

describe('images for the models', function () {
  this.timeout(30_000);
  let dir: string;
  before(async () => {
    dir = await makeTempDir('tf-img-');
  });

  it('downscales to the long side, never enlarges, strips metadata and re-encodes deterministically', async () => {
    const big = path.join(dir, 'big.jpg');
    await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#c04030' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'Studio X', Artist: 'Someone' } } })
      .toFile(big);
    const a = await prepareImage(dir, path.basename(big), { cacheDir: false });
    const b = await prepareImage(dir, path.basename(big), { cacheDir: false });
    assert.equal(a.sha256, b.sha256, 'same input → same bytes');
    assert.equal(a.dataUrl, b.dataUrl);
    assert.equal(a.mime, 'image/jpeg');
    assert.deepEqual([a.width, a.height], [1024, 683]);
    const bytes = Buffer.from(a.dataUrl.split(',')[1]!, 'base64');
    assert.equal(bytes.length, a.bytes);
    const meta = await sharp(bytes).metadata();
    assert.equal(meta.exif, undefined, 'EXIF stripped');
    assert.ok(!bytes.includes(Buffer.from('Studio X')));

    const small = path.join(dir, 'small.png');
    await makeImage(small, 1, 300, 200, 'png');
    const s = await prepareImage(dir, path.basename(small), { cacheDir: false, maxSide: 1024 });
    assert.deepEqual([s.width, s.height], [300, 200], 'no enlargement');
    const custom = await prepareImage(dir, path.basename(big), { cacheDir: false, maxSide: 512 });
    assert.equal(Math.max(custom.width, custom.height), 512);
  });

  it('keeps transparency as PNG', async () => {
    const file = path.join(dir, 'alpha.png');
    await sharp({ create: { width: 200, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } })
      .png()
      .toFile(file);
    const p = await prepareImage(dir, path.basename(file), { cacheDir: false });
    assert.equal(p.mime, 'image/png');
    assert.ok(p.dataUrl.startsWith('data:image/png;base64,'));
  });

  it('caches by content hash outside the review, and a cache hit gives the same bytes', async () => {
    const cacheDir = await makeTempDir('tf-cache-');
    const file = path.join(dir, 'c.png');
    await makeImage(file, 2, 1600, 1200, 'png');
    const first = await prepareImage(dir, path.basename(file), { cacheDir });
    const list = async (): Promise<string[]> => (await fs.readdir(path.join(cacheDir, 'images'))).filter((e) => /\.(bin|json)$/.test(e));
    const entries = await list();
    assert.equal(entries.length, 2, 'one .bin + one .json');
    assert.equal((await fs.readdir(path.join(cacheDir, 'images', 'by-stat'))).length, 1, 'one stat index entry');
    clearImageMemo();
    const again = await prepareImage(dir, path.basename(file), { cacheDir });
    assert.equal(again.sha256, first.sha256);
    assert.equal(again.dataUrl, first.dataUrl);
    // a different size setting is a different entry
    await prepareImage(dir, path.basename(file), { cacheDir, maxSide: 512 });
    assert.equal((await list()).length, 4);
    // a damaged entry is not trusted
    const bin = entries.find((e) => e.endsWith('.bin'))!;
    await fs.writeFile(path.join(cacheDir, 'images', bin), 'garbage');
    clearImageMemo();
    assert.equal((await prepareImage(dir, path.basename(file), { cacheDir })).sha256, first.sha256);
    // a changed file is prepared anew (the stat index does not match it any more)
    clearImageMemo();
    await makeImage(file, 5, 1500, 1000, 'png');
    const changed = await prepareImage(dir, path.basename(file), { cacheDir });
    assert.notEqual(changed.sha256, first.sha256);
    assert.deepEqual([changed.width, changed.height], [1024, 683]);
  });

  it('uses XDG_CACHE_HOME for the default cache folder', () => {
    const saved = process.env.XDG_CACHE_HOME;
    try {
      process.env.XDG_CACHE_HOME = path.join(dir, 'xdg');
      assert.equal(defaultCacheDir(), path.join(dir, 'xdg', 'teamfusion'));
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
  });

  it('detects the real MIME type from the bytes, not the extension, and converts to PNG', async () => {
    const liar = path.join(dir, 'really-a-jpeg.png');
    await makeImage(liar, 3, 100, 80, 'jpeg');
    const f = await readImageFile(dir, path.basename(liar));
    assert.equal(f.mime, 'image/jpeg');
    const png = await toPng(f.data);
    assert.equal((await sharp(png).metadata()).format, 'png');
  });

  it("a round's reads read each file once and keep its bytes; a read that failed is tried again", async () => {
    const file = path.join(dir, 'candidate.png');
    await makeImage(file, 4, 60, 40, 'png');
    const read = roundImageReads(dir);
    const first = await read('candidate.png');
    // Replaced on disk after the round read it: the round's edit sends what it read (and its sha256 says so).
    await makeImage(file, 5, 60, 40, 'png');
    const again = await read('candidate.png');
    assert.equal(again.data, first.data);
    assert.notEqual((await readImageFile(dir, 'candidate.png')).sha256, first.sha256, 'a read outside the round sees the new file');
    await assert.rejects(read('later.png'), /later\.png is missing/);
    await makeImage(path.join(dir, 'later.png'), 6, 60, 40, 'png');
    assert.equal((await read('later.png')).mime, 'image/png');
  });
});
