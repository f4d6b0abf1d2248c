import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { assignLetters, bordaTop, letterOf, makeRerankSet, rerankDir } from '../../../src/core/evaluation';
import { loadReview } from '../../../src/core/review';
import type { Review } from '../../../src/core/review/model';
import { makeReviewWithRun, RUN_ID, snapshot } from './fixtures';

function review(options: string[], designers: { weight: number; ranks: number[] }[]): Review {
  return {
    root: '/r',
    title: 't',
    brief: '',
    comments: [],
    config: {},
    options: options.map((id, i) => ({
      id,
      label: `Image ${i + 1}`,
      file: `options/${id}.png`,
      absPath: '',
      mime: 'image/png',
      width: 1,
      height: 1,
    })),
    designers: designers.map((d, j) => ({
      id: `d${j + 1}`,
      name: `D${j + 1}`,
      weight: d.weight,
      file: `rankings/d${j + 1}.yaml`,
      entries: d.ranks.map((rank, i) => ({ option: options[i]!, rank, justification: 'x' })),
    })),
  };
}

describe('evaluation: the blind re-rank set', function () {
  this.timeout(30_000);
  const made: string[] = [];
  after(async () => {
    for (const d of made) await fs.rm(d, { recursive: true, force: true });
  });

  it('Borda top N: weighted points, then the lower mean rank, then natural order', () => {
    // Weighted points: "1" = 2·2 + 0 = 4, "2" = 2·1 + 2 = 4, "3" = 0 + 1 = 1; mean ranks "1" 2, "2" 1.5 → "2" first.
    const r = review(
      ['1', '2', '3'],
      [
        { weight: 2, ranks: [1, 2, 3] },
        { weight: 1, ranks: [3, 1, 2] },
      ],
    );
    assert.deepEqual(bordaTop(r, 2), ['2', '1']);
    // Equal points and equal mean ranks: natural order.
    const tie = review(
      ['1', '2', '10'],
      [
        { weight: 1, ranks: [2, 1, 3] },
        { weight: 1, ranks: [1, 2, 3] },
      ],
    );
    assert.deepEqual(bordaTop(tie, 3), ['1', '2', '10']);
  });

  it('letters: A…Z, AA…; the same run id always gives the same shuffle, another id another one', () => {
    assert.deepEqual([0, 1, 25, 26, 27].map(letterOf), ['A', 'B', 'Z', 'AA', 'AB']);
    const src = ['1', '2', '3', 'r1', 'r2', 'r3'].map((id) => ({
      kind: id.startsWith('r') ? ('remix' as const) : ('option' as const),
      id,
      file: `x/${id}.png`,
    }));
    const a = assignLetters(RUN_ID, src);
    assert.deepEqual(assignLetters(RUN_ID, src), a);
    assert.deepEqual(Object.keys(a), ['A', 'B', 'C', 'D', 'E', 'F']);
    assert.deepEqual(
      Object.values(a)
        .map((e) => e.id)
        .sort(),
      ['1', '2', '3', 'r1', 'r2', 'r3'],
    );
    const others = ['2026-01-01T00-00-00Z-0001', '2026-01-01T00-00-00Z-0002', '2026-01-01T00-00-00Z-0003'].map((id) =>
      JSON.stringify(assignLetters(id, src)),
    );
    assert.ok(
      others.some((o) => o !== JSON.stringify(a)),
      'the shuffle depends on the run id',
    );
  });

  it('makes runs/<id>/rerank: Borda top 3 + every remix under letters, key.json, nothing else touched', async () => {
    const root = await makeReviewWithRun();
    made.push(root);
    const before = await snapshot(root);
    const { dir, key } = await makeRerankSet(root, RUN_ID);
    assert.equal(dir, rerankDir(root, RUN_ID));
    // The fixture's mean ranks: 4 → 2.5, 3 → 3, 2 and 5 → 3.5 (tie: natural order), so the top 3 is 4, 3, 2.
    const sources = Object.values(key)
      .map((e) => `${e.kind}:${e.id}`)
      .sort();
    assert.deepEqual(sources, ['option:2', 'option:3', 'option:4', 'remix:r1', 'remix:r2']);
    const onDisk = JSON.parse(await fs.readFile(path.join(dir, 'key.json'), 'utf8')) as typeof key;
    assert.deepEqual(onDisk, key);
    for (const [letter, e] of Object.entries(key)) {
      assert.deepEqual(Object.keys(e), ['kind', 'id', 'file']);
      // The same pixels as the source, re-encoded as PNG without metadata.
      const copy = await sharp(path.join(dir, 'options', `${letter}.png`))
        .raw()
        .toBuffer({ resolveWithObject: true });
      const source = await sharp(path.join(root, ...e.file.split('/')))
        .raw()
        .toBuffer({ resolveWithObject: true });
      assert.equal(copy.info.width, source.info.width, letter);
      assert.ok(copy.data.equals(source.data), letter);
      const meta = await sharp(path.join(dir, 'options', `${letter}.png`)).metadata();
      assert.equal(meta.format, 'png');
      assert.equal(meta.exif, undefined);
      assert.equal(meta.comments, undefined);
    }
    assert.equal(key[Object.keys(key).find((l) => key[l]!.id === 'r1')!]!.file, `runs/${RUN_ID}/iteration-1/remix.png`);
    // Blind: no file name says which is generated.
    const names = await fs.readdir(path.join(dir, 'options'));
    assert.deepEqual(names.sort(), ['A.png', 'B.png', 'C.png', 'D.png', 'E.png']);
    assert.deepEqual((await fs.readdir(dir)).sort(), ['brief.md', 'key.json', 'options', 'rankings', 'review.yaml']);
    assert.deepEqual(await fs.readdir(path.join(dir, 'rankings')), ['.gitkeep']);
    assert.doesNotMatch(await fs.readFile(path.join(dir, 'review.yaml'), 'utf8'), /remix|r1|r2/);
    // An ordinary review: it loads, its options are the letters.
    const loaded = await loadReview(dir, { requireRankings: false });
    assert.deepEqual(loaded.diagnostics, []);
    assert.deepEqual(
      loaded.review?.options.map((o) => o.id),
      ['A', 'B', 'C', 'D', 'E'],
    );
    // Besides its folder, rerank keeps the key's sha256 in run.json (a key changed afterwards is noticed).
    const recordRel = `runs/${RUN_ID}/run.json`;
    const others = new Map([...before].filter(([rel]) => rel !== recordRel));
    assert.deepEqual(await snapshot(root, (rel) => rel === `runs/${RUN_ID}/rerank` || rel === recordRel), others);
    const record = JSON.parse(await fs.readFile(path.join(root, 'runs', RUN_ID, 'run.json'), 'utf8')) as { rerankKeySha256?: string };
    assert.match(record.rerankKeySha256 ?? '', /^[0-9a-f]{64}$/);
  });

  it('a JPEG option and a remix with metadata both become plain PNGs: format and metadata do not tell a remix', async () => {
    const root = await makeReviewWithRun();
    made.push(root);
    // Option 4 (in the top 3) as a JPEG with EXIF, the remix r1 with a PNG text comment naming its maker.
    const jpeg = await sharp(path.join(root, 'options', '4.png'))
      .jpeg()
      .withMetadata({ exif: { IFD0: { Software: 'camera' } } })
      .toBuffer();
    await fs.rm(path.join(root, 'options', '4.png'));
    await fs.writeFile(path.join(root, 'options', '4.jpg'), jpeg);
    const remix = path.join(root, 'runs', RUN_ID, 'iteration-1', 'remix.png');
    const tagged = await sharp(remix)
      .png()
      .withMetadata({ exif: { IFD0: { Software: 'image model' } } })
      .toBuffer();
    assert.match(tagged.toString('latin1'), /image model/, 'the source carries the tell');
    assert.match(jpeg.toString('latin1'), /camera/);
    await fs.writeFile(remix, tagged);
    const record = JSON.parse(await fs.readFile(path.join(root, 'runs', RUN_ID, 'run.json'), 'utf8')) as {
      options: { id: string; file: string }[];
    };
    record.options.find((o) => o.id === '4')!.file = 'options/4.jpg';
    await fs.writeFile(path.join(root, 'runs', RUN_ID, 'run.json'), JSON.stringify(record));
    const { dir, key } = await makeRerankSet(root, RUN_ID);
    assert.deepEqual((await fs.readdir(path.join(dir, 'options'))).sort(), ['A.png', 'B.png', 'C.png', 'D.png', 'E.png']);
    for (const letter of Object.keys(key)) {
      const bytes = await fs.readFile(path.join(dir, 'options', `${letter}.png`));
      const meta = await sharp(bytes).metadata();
      assert.equal(meta.format, 'png', letter);
      assert.equal(meta.exif, undefined, letter);
      assert.doesNotMatch(bytes.toString('latin1'), /camera|image model|Software/);
    }
  });

  it('--top changes the number of original options; an existing folder is never overwritten', async () => {
    const root = await makeReviewWithRun();
    made.push(root);
    const { key } = await makeRerankSet(root, RUN_ID, { top: 1 });
    assert.deepEqual(
      Object.values(key)
        .map((e) => e.id)
        .sort(),
      ['4', 'r1', 'r2'],
    );
    const dir = rerankDir(root, RUN_ID);
    await fs.writeFile(path.join(dir, 'rankings', 'd1.yaml'), 'designer: D1\n');
    const was = await snapshot(dir);
    await assert.rejects(makeRerankSet(root, RUN_ID), /already has a re-rank folder .* never overwritten/);
    assert.deepEqual(await snapshot(dir), was);
    assert.deepEqual(
      (await fs.readdir(path.join(root, 'runs', RUN_ID))).filter((n) => n.includes('rerank')),
      ['rerank'],
    );
  });

  it('refuses a run that is not completed, and a remix path that leads outside the review', async () => {
    const running = await makeReviewWithRun('running');
    made.push(running);
    await assert.rejects(makeRerankSet(running, RUN_ID), /is running; only a completed run/);
    const root = await makeReviewWithRun();
    made.push(root);
    const outside = await fs.mkdtemp(path.join(path.dirname(root), 'outside-'));
    made.push(outside);
    await fs.writeFile(path.join(outside, 'secret.png'), 'x');
    const remix = path.join(root, 'runs', RUN_ID, 'iteration-2', 'remix.png');
    await fs.rm(remix);
    await fs.symlink(path.join(outside, 'secret.png'), remix);
    await assert.rejects(makeRerankSet(root, RUN_ID), /outside the review/);
    await assert.rejects(fs.stat(rerankDir(root, RUN_ID)));
  });
});
