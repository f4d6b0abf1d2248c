import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { formatDiagnostic, loadReview } from '../../../src/core/review';
import type { Diagnostic, LoadResult } from '../../../src/core/review';
import { IMAGE_HEAD_BYTES } from '../../../src/core/review/options';
import { cleanupFixtures, hashTree, imageBytes, makeReview, rankingJson, rankingYaml, SAMPLE, tempDir } from './fixtures';

const IDS = ['1', '2', '3'];

/** Loads and asserts that the tree is byte-for-byte unchanged afterwards. */
async function load(root: string, opts?: Parameters<typeof loadReview>[1]): Promise<LoadResult> {
  const before = await hashTree(root);
  const result = await loadReview(root, opts);
  assert.equal(await hashTree(root), before, 'loadReview changed something on disk');
  return result;
}

function errors(r: LoadResult): Diagnostic[] {
  return r.diagnostics.filter((d) => d.severity === 'error');
}

/** The one diagnostic of a file whose message matches; fails with the full list otherwise. */
function find(r: LoadResult, file: string, pattern: RegExp): Diagnostic {
  const hit = r.diagnostics.find((d) => d.file === file && pattern.test(d.message));
  assert.ok(hit, `no diagnostic for ${file} matching ${pattern}; got:\n${r.diagnostics.map(formatDiagnostic).join('\n')}`);
  return hit;
}

function at(d: Diagnostic, line: number, column: number, severity: 'error' | 'warning' = 'error'): void {
  assert.deepEqual([d.line, d.column, d.severity], [line, column, severity], formatDiagnostic(d));
}

describe('loadReview', () => {
  after(cleanupFixtures);

  it('loads the shipped sample with no diagnostics at all', async () => {
    const r = await load(SAMPLE);
    assert.deepEqual(r.diagnostics.map(formatDiagnostic), []);
    const review = r.review!;
    assert.equal(review.title, 'Lumen perfume — launch hero banner');
    assert.deepEqual(
      review.options.map((o) => [o.id, o.label, o.file, o.mime]),
      [1, 2, 3, 4, 5, 6].map((i) => [String(i), `Image ${i}`, `options/${i}.png`, 'image/png']),
    );
    assert.ok(review.options.every((o) => o.width === 1200 && o.height === 800));
    assert.deepEqual(
      review.designers.map((d) => [d.id, d.weight, d.entries.length]),
      [
        ['ana', 2, 6],
        ['ben', 1, 6],
        ['chen', 1, 6],
        ['dina', 1, 6],
      ],
    );
    assert.equal(review.designers[3]?.file, 'rankings/dina.json');
    const chenRanks = review.designers[2]?.entries.map((e) => e.rank) ?? [];
    assert.ok(new Set(chenRanks).size < chenRanks.length, 'the sample must contain a tie');
    assert.equal(review.config.lead, 'ana');
  });

  it('orders options naturally ("2" before "10"), labels them Image 1…n, accepts .PNG/.JPEG/.webp in any case', async () => {
    const root = await makeReview({ options: ['10.png', '2.JPEG', '1.webp', 'b.Jpg'], rankings: null });
    const r = await load(root, { requireRankings: false });
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(
      r.review!.options.map((o) => `${o.id}=${o.label}:${o.mime}`),
      ['1=Image 1:image/webp', '2=Image 2:image/jpeg', '10=Image 3:image/png', 'b=Image 4:image/jpeg'],
    );
    assert.equal(r.review!.title, 'Test brief');
  });

  it('takes the title from review.yaml, else the first heading of brief.md', async () => {
    const root = await makeReview({ brief: 'Intro\n\n# Spring banner ##\n' });
    assert.equal((await load(root)).review!.title, 'Spring banner');
  });

  it('a valid default review has a review and no diagnostics', async () => {
    const r = await load(await makeReview());
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(
      r.review?.designers.map((d) => d.id),
      ['alice', 'bob'],
    );
    assert.deepEqual(
      r.review?.designers[1]?.entries.map((e) => e.option),
      ['3', '2', '1'],
    );
  });

  describe('the review folder itself', () => {
    it('a path that does not exist → .:0:0 error, no review', async () => {
      const r = await loadReview(path.join(await tempDir(), 'no-such-folder'));
      assert.equal(r.review, undefined);
      at(find(r, '.', /does not exist/), 0, 0);
    });
    it('a file instead of a folder → error', async () => {
      const r = await loadReview(path.join(SAMPLE, 'brief.md'));
      at(find(r, '.', /is a file; a review is a folder/), 0, 0);
    });
  });

  describe('brief.md', () => {
    it('missing → error that says to add it', async () => {
      const r = await load(await makeReview({ brief: null }));
      at(find(r, 'brief.md', /brief\.md is missing\. Add the client brief/), 0, 0);
      assert.equal(r.review, undefined);
    });
    it('a folder named brief.md → error', async () => {
      const r = await load(await makeReview({ brief: { dir: true } }));
      find(r, 'brief.md', /is a folder, but it must be a file/);
      assert.equal(r.review, undefined);
    });
    it('empty or whitespace only → error', async () => {
      const r = await load(await makeReview({ brief: ' \n\n\t\n' }));
      find(r, 'brief.md', /is empty/);
    });
    it('not UTF-8 → error at the line and column of the first bad byte', async () => {
      const r = await load(await makeReview({ brief: Buffer.from([...Buffer.from('# Brief\nCaf'), 0xe9, ...Buffer.from(' au lait\n')]) }));
      const d = find(r, 'brief.md', /is not UTF-8 text\. The byte 0xE9 is not valid UTF-8/);
      at(d, 2, 4);
    });
    it('UTF-16 → says so', async () => {
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# Brief\n', 'utf16le')]);
      const r = await load(await makeReview({ brief: utf16 }));
      find(r, 'brief.md', /UTF-16; save it again as UTF-8/);
    });
  });

  describe('options/', () => {
    it('missing folder → error', async () => {
      const r = await load(await makeReview({ options: null, rankings: null }), { requireRankings: false });
      at(find(r, 'options', /options\/ folder is missing/), 0, 0);
      assert.equal(r.review, undefined);
    });
    it('fewer than two images → error', async () => {
      const r = await load(await makeReview({ options: ['1.png'], rankings: null }), { requireRankings: false });
      find(r, 'options', /has only 1 image; a review compares 2 to 50/);
    });
    it('no images at all → error', async () => {
      const r = await load(await makeReview({ options: [], rankings: null }), { requireRankings: false });
      find(r, 'options', /has no images/);
    });
    it('more than 50 images → error', async () => {
      const names = Array.from({ length: 51 }, (_, i) => `${i + 1}.png`);
      const r = await load(await makeReview({ options: names, rankings: null }), { requireRankings: false, decodeImages: false });
      find(r, 'options', /has 51 images; a review compares at most 50/);
    });
    it('two files with one id (4.png and 4.jpg) → error naming both', async () => {
      const r = await load(await makeReview({ options: ['1.png', '4.png', '4.jpg'], rankings: null }), { requireRankings: false });
      find(r, 'options/4.png', /options\/4\.png and options\/4\.jpg both have the option id "4"/);
      assert.equal(r.review, undefined);
    });
    it('an image that does not decode → error on that file', async () => {
      const png = await imageBytes('png', '#123456', 64, 64);
      const root = await makeReview({
        extra: { 'options/3.png': 'this is not a png', 'options/4.webp': png.subarray(0, Math.floor(png.length / 2)) },
        rankings: null,
      });
      const r = await load(root, { requireRankings: false });
      find(r, 'options/3.png', /cannot be opened as an image/);
      find(r, 'options/4.webp', /cannot be opened as an image/);
      assert.equal(r.review, undefined);
    });
    it('a truncated PNG whose header is fine fails the real decode', async () => {
      const sharp = (await import('sharp')).default;
      const noisy = await sharp({
        create: { width: 300, height: 300, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
      })
        .png()
        .toBuffer();
      const root = await makeReview({ extra: { 'options/3.png': noisy.subarray(0, Math.floor(noisy.length * 0.6)) }, rankings: null });
      const r = await load(root, { requireRankings: false });
      find(r, 'options/3.png', /cannot be opened as an image/);
    });
    it('without a decode only the header is read: a truncated image passes, a header over the pixel cap or text does not', async () => {
      const png = await imageBytes('png', '#123456', 64, 64);
      // A PNG header claiming 20 000 × 20 000 pixels (400 million, over the cap), and nothing after it.
      const huge = Buffer.from(png.subarray(0, 33));
      huge.writeUInt32BE(20_000, 16);
      huge.writeUInt32BE(20_000, 20);
      const root = await makeReview({
        extra: { 'options/3.png': png.subarray(0, 40), 'options/4.png': huge, 'options/5.png': 'this is not a png' },
        rankings: null,
      });
      const r = await load(root, { requireRankings: false, decodeImages: false });
      assert.equal(
        r.diagnostics.some((d) => d.file === 'options/3.png'),
        false,
      );
      find(r, 'options/4.png', /20000 × 20000 pixels, more than the 100 million/);
      find(r, 'options/5.png', /not a PNG, JPEG or WebP image/);
      // The decode the run asks for finds the truncated one.
      find(await load(root, { requireRankings: false }), 'options/3.png', /cannot be opened as an image/);
    });
    it("without a decode a JPEG's size is found after metadata longer than the head read first", async () => {
      const jpeg = await imageBytes('jpeg', '#654321', 48, 32);
      // Five APP1 segments of 64 KB each between the start marker and the frame: the size comes after the first 256 KB.
      const app = Buffer.alloc(4 + 65_533);
      app.writeUInt16BE(0xffe1, 0);
      app.writeUInt16BE(65_535, 2);
      const padded = Buffer.concat([jpeg.subarray(0, 2), ...Array.from({ length: 5 }, () => app), jpeg.subarray(2)]);
      assert.ok(padded.length > IMAGE_HEAD_BYTES);
      const root = await makeReview({ extra: { 'options/9.jpg': padded }, rankings: null });
      for (const decodeImages of [false, true]) {
        const r = await load(root, { requireRankings: false, decodeImages });
        assert.deepEqual(errors(r), []);
        const option = r.review!.options.find((o) => o.id === '9')!;
        assert.deepEqual([option.width, option.height, option.mime], [48, 32, 'image/jpeg'], `decodeImages: ${decodeImages}`);
      }
    });
    it('without a decode the image library is not loaded at all (a view or a vote starts without it)', () => {
      const core = path.resolve(__dirname, '../../../src/core/review');
      const script = `require(${JSON.stringify(core)}).loadReview(${JSON.stringify(SAMPLE)}, { decodeImages: false }).then((r) => {
        const sharp = Object.keys(require.cache).some((f) => /[\\/]sharp[\\/]/.test(f));
        process.stdout.write(JSON.stringify({ options: r.review.options.length, sharp }));
      });`;
      const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
      assert.deepEqual(JSON.parse(out.stdout || '{}'), { options: 6, sharp: false }, out.stderr);
    });
    it('non-image files and folders in options/ → warnings; dotfiles are ignored; review still loads', async () => {
      const root = await makeReview({ extra: { 'options/notes.txt': 'hi', 'options/.gitkeep': '', 'options/old': { dir: true } } });
      const r = await load(root);
      at(find(r, 'options/notes.txt', /is not a \.png, \.jpg, \.jpeg or \.webp image and is ignored/), 0, 0, 'warning');
      find(r, 'options/old', /folder options\/old is ignored/);
      assert.equal(errors(r).length, 0);
      assert.ok(r.review);
    });
    it('a folder with an image name → error', async () => {
      const r = await load(await makeReview({ extra: { 'options/9.png': { dir: true } }, rankings: null }), { requireRankings: false });
      find(r, 'options/9.png', /is a folder, not an image file/);
    });
    it('an image replaced on disk is read afresh (no stale size from a cache)', async () => {
      const root = await makeReview({ rankings: null });
      assert.equal((await load(root, { requireRankings: false })).review?.options[0]?.width, 24);
      await fs.writeFile(path.join(root, 'options', '1.png'), await imageBytes('png', '#000000', 50, 10));
      const again = (await load(root, { requireRankings: false })).review?.options[0];
      assert.deepEqual([again?.width, again?.height], [50, 10]);
    });
    it('a JPEG saved as .png → warning, mime follows the real content', async () => {
      const root = await makeReview({ rankings: null });
      await fs.writeFile(path.join(root, 'options', '2.png'), await imageBytes('jpeg'));
      const r = await load(root, { requireRankings: false });
      find(r, 'options/2.png', /really a JPEG image/);
      assert.equal(r.review?.options[1]?.mime, 'image/jpeg');
    });
  });

  describe('rankings/', () => {
    it('missing folder → error only when rankings are required', async () => {
      const root = await makeReview({ rankings: null });
      at(find(await load(root), 'rankings', /rankings\/ folder is missing/), 0, 0);
      const lenient = await load(root, { requireRankings: false });
      assert.deepEqual(lenient.diagnostics, []);
      assert.deepEqual(lenient.review!.designers, []);
    });
    it('no ranking files → error', async () => {
      const r = await load(await makeReview({ rankings: { '.gitkeep': '' } }));
      find(r, 'rankings', /has no ranking files yet/);
    });
    it('a folder named x.yaml → error', async () => {
      const r = await load(await makeReview({ rankings: { 'a.yaml': rankingYaml('A', IDS), 'x.yaml': { dir: true } } }));
      find(r, 'rankings/x.yaml', /is a folder, but it must be a file/);
      assert.equal(r.review, undefined);
    });
    it('an empty file → error', async () => {
      const r = await load(await makeReview({ rankings: { 'a.yaml': rankingYaml('A', IDS), 'b.yaml': '' } }));
      at(find(r, 'rankings/b.yaml', /The file is empty\. A ranking file needs designer:/), 0, 0);
    });
    it('a non-UTF-8 file → error with position', async () => {
      const bytes = Buffer.concat([Buffer.from('designer: Jos'), Buffer.from([0xe9]), Buffer.from('\n')]);
      const r = await load(await makeReview({ rankings: { 'a.yaml': rankingYaml('A', IDS), 'jose.yaml': bytes } }));
      at(find(r, 'rankings/jose.yaml', /not UTF-8/), 1, 14);
    });
    it('two files for one designer id (alice.yaml + alice.json) → error on the second', async () => {
      const r = await load(await makeReview({ rankings: { 'alice.yaml': rankingYaml('A', IDS), 'alice.json': rankingJson('A', IDS) } }));
      find(r, 'rankings/alice.yaml', /rankings\/alice\.yaml and rankings\/alice\.json are both for the designer id "alice"/);
    });
    it('other files → warning; one designer only → warning; .yml works', async () => {
      const r = await load(await makeReview({ rankings: { 'README.md': '# hi', 'solo.yml': rankingYaml('Solo', IDS) } }));
      find(r, 'rankings/README.md', /is not a \.yaml, \.yml or \.json ranking file/);
      find(r, 'rankings', /only one ranking file/);
      assert.deepEqual(
        r.review!.designers.map((d) => d.id),
        ['solo'],
      );
    });
    it('a ranking with errors → no review; with partial: true the review is built without that designer', async () => {
      const root = await makeReview({ rankings: { 'a.yaml': rankingYaml('A', IDS), 'b.yaml': 'designer: B\nranking: []\n' } });
      assert.equal((await load(root)).review, undefined);
      const partial = await load(root, { partial: true });
      assert.deepEqual(
        partial.review!.designers.map((d) => d.id),
        ['a'],
      );
      find(partial, 'rankings/b.yaml', /Options "1", "2", "3" are missing/);
    });
    it('an error in review.yaml → no review, even partial; with despiteSettings the valid rankings and settings are kept', async () => {
      const root = await makeReview({ reviewYaml: 'title: Kept\niterations: many\n' });
      assert.equal((await load(root)).review, undefined);
      assert.equal((await load(root, { partial: true })).review, undefined);
      const shown = await load(root, { partial: true, despiteSettings: true });
      assert.deepEqual(
        shown.review!.designers.map((d) => d.id),
        ['alice', 'bob'],
      );
      assert.equal(shown.review!.config.title, 'Kept');
      assert.equal(shown.review!.config.iterations, undefined);
      assert.ok(shown.diagnostics.some((d) => d.file === 'review.yaml' && d.severity === 'error'));
    });
    it('despiteSettings still does not hide a broken options/ folder', async () => {
      const r = await load(await makeReview({ options: ['1.png'], reviewYaml: 'iterations: many\n' }), {
        partial: true,
        despiteSettings: true,
      });
      assert.equal(r.review, undefined);
    });
    it('partial does not hide a broken options/ folder', async () => {
      const r = await load(await makeReview({ options: ['1.png'] }), { partial: true });
      assert.equal(r.review, undefined);
    });
  });

  describe('ranking file contents (positions are line:col of the offending node)', () => {
    async function rankingDiag(text: string, name = 'alice.yaml'): Promise<LoadResult> {
      return load(await makeReview({ rankings: { [name]: text, 'zed.yaml': rankingYaml('Zed', IDS) } }));
    }
    const entries = (rank2: string, extra = ''): string =>
      [
        'designer: Alice',
        'ranking:',
        '  - option: "1"',
        '    rank: 1',
        '    justification: Fine.',
        '  - option: "2"',
        `    rank: ${rank2}`,
        '    justification: Also fine.',
        '  - option: "3"',
        '    rank: 3',
        `    justification: Last.${extra}`,
        '',
      ].join('\n');

    it('rank 1.5 → "Rank must be a whole number of 1 or more (found 1.5)." at 7:11', async () => {
      const r = await rankingDiag(entries('1.5'));
      const d = find(r, 'rankings/alice.yaml', /^Rank must be a whole number of 1 or more \(found 1\.5\)\.$/);
      at(d, 7, 11);
      assert.equal(formatDiagnostic(d), 'rankings/alice.yaml:7:11: error: Rank must be a whole number of 1 or more (found 1.5).');
      assert.equal(r.review, undefined);
    });
    for (const [bad, found] of [
      ['0', 'found 0'],
      ['-2', 'found -2'],
      ['"1"', 'found "1", which is text: remove the quotes'],
      ['two', 'found "two"'],
      ['', 'found nothing'],
    ] as const) {
      it(`rank ${bad || '(empty)'} → error (${found})`, async () => {
        const r = await rankingDiag(entries(bad));
        const d = find(
          r,
          'rankings/alice.yaml',
          new RegExp(`^Rank must be a whole number of 1 or more \\(${found.replace(/[()"]/g, (c) => `\\${c}`)}\\)`),
        );
        assert.equal(d.line, 7);
      });
    }
    it('a missing option → error naming the missing id at the ranking: key', async () => {
      const text = entries('2').split('\n').slice(0, 8).join('\n');
      const r = await rankingDiag(text);
      at(
        find(r, 'rankings/alice.yaml', /^Option "3" is missing from the ranking\. Every image in options\/ must be ranked exactly once\.$/),
        2,
        1,
      );
    });
    it('a duplicate option → error at the duplicate, naming the first line', async () => {
      const text = entries('2').replace('  - option: "3"', '  - option: "1"');
      const r = await rankingDiag(text);
      at(find(r, 'rankings/alice.yaml', /^Option "1" is ranked twice \(first on line 3\)/), 9, 13);
      find(r, 'rankings/alice.yaml', /Option "3" is missing/);
    });
    it('unknown and path-like ids → error with "did you mean"', async () => {
      const r1 = await rankingDiag(entries('2').replace('option: "3"', 'option: "options/3.png"'));
      at(
        find(
          r1,
          'rankings/alice.yaml',
          /^There is no option "options\/3\.png" in options\/\. Write the option id only.*Did you mean "3"\?/,
        ),
        9,
        13,
      );
      const r2 = await rankingDiag(entries('2').replace('option: "3"', 'option: "../x"'));
      const d2 = find(r2, 'rankings/alice.yaml', /^There is no option "\.\.\/x" in options\/\. Write the option id only/);
      assert.doesNotMatch(d2.message, /Did you mean/);
      const r3 = await rankingDiag(entries('2').replace('option: "3"', 'option: "7"'));
      const d3 = find(r3, 'rankings/alice.yaml', /^There is no option "7" in options\/\. The options are "1", "2", "3"\.$/);
      at(d3, 9, 13);
    });
    it('a bare number id is read as text with a warning (and stays valid)', async () => {
      const r = await rankingDiag(entries('2').replace('option: "3"', 'option: 3'));
      at(find(r, 'rankings/alice.yaml', /^Write option ids in quotes: option: "3"/), 9, 13, 'warning');
      assert.ok(r.review);
    });
    it('justification missing or empty → error', async () => {
      const r1 = await rankingDiag(entries('2').replace('    justification: Also fine.\n', ''));
      at(find(r1, 'rankings/alice.yaml', /^Entry 2 of the ranking has no justification for option "2"/), 6, 5);
      const r2 = await rankingDiag(entries('2').replace('Also fine.', '"  "'));
      at(find(r2, 'rankings/alice.yaml', /^The justification is empty/), 8, 20);
    });
    it('designer missing or empty → error', async () => {
      const r1 = await rankingDiag(entries('2').replace('designer: Alice\n', ''));
      at(find(r1, 'rankings/alice.yaml', /^The designer field is missing/), 1, 1);
      const r2 = await rankingDiag(entries('2').replace('designer: Alice', 'designer: ""'));
      at(find(r2, 'rankings/alice.yaml', /^The designer name is empty/), 1, 11);
    });
    it('weight must be > 0; default 1; role optional', async () => {
      const r0 = await rankingDiag(entries('2').replace('designer: Alice', 'designer: Alice\nweight: 0'));
      at(find(r0, 'rankings/alice.yaml', /^The weight must be a number greater than 0 \(found 0\)/), 2, 9);
      const rs = await rankingDiag(entries('2').replace('designer: Alice', 'designer: Alice\nweight: "2"'));
      find(rs, 'rankings/alice.yaml', /found "2", which is text/);
      const ok = await rankingDiag(entries('2').replace('designer: Alice', 'designer: Alice\nrole: Lead\nweight: 2.5'));
      const [alice, bob] = ok.review?.designers ?? [];
      assert.deepEqual([alice?.name, alice?.role, alice?.weight], ['Alice', 'Lead', 2.5]);
      assert.equal(bob?.weight, 1);
    });
    it('unknown fields → warnings with a suggestion', async () => {
      const r = await rankingDiag(entries('2', '\n    ranks: 4').replace('designer: Alice', 'designer: Alice\ncolour: red'));
      at(find(r, 'rankings/alice.yaml', /^Unknown field "colour" is ignored/), 2, 1, 'warning');
      find(r, 'rankings/alice.yaml', /^Unknown field "ranks" in a ranking entry is ignored\. Did you mean "rank"\?/);
      assert.ok(r.review);
    });
    it('a YAML syntax error → one error at its position, in words', async () => {
      const r = await rankingDiag(entries('2').replace('Also fine.', '"Glow" is nice'));
      const d = find(r, 'rankings/alice.yaml', /^This is not valid YAML: More text follows a finished value/);
      assert.equal(d.line, 8);
      assert.equal(r.diagnostics.filter((x) => x.file === 'rankings/alice.yaml').length, 1);
    });
    it('two YAML documents in one file → error at the second', async () => {
      const r = await rankingDiag(`${entries('2')}---\ndesigner: Other\n`);
      at(find(r, 'rankings/alice.yaml', /holds one document; remove the extra "---" line/), 12, 1);
    });
    it('tabs for indentation → error that says so', async () => {
      const r = await rankingDiag('designer: A\nranking:\n\t- option: "1"\n');
      at(find(r, 'rankings/alice.yaml', /tabs for indentation/), 3, 1);
    });
    it('a list instead of fields → error', async () => {
      const r = await rankingDiag('- 1\n- 2\n');
      at(find(r, 'rankings/alice.yaml', /must be a group of fields .* not a list/), 1, 1);
    });
    it('JSON: a syntax error is reported with line and column', async () => {
      const text = '{\n  "designer": "Dina",\n  "ranking": [],\n}\n';
      const r = await rankingDiag(text, 'dina.json');
      at(find(r, 'rankings/dina.json', /^This is not valid JSON: Remove the comma before "}"/), 4, 1);
    });
    it('JSON: shape errors carry the position of the node', async () => {
      const text =
        '{\n  "designer": "Dina",\n  "ranking": [\n    { "option": "1", "rank": 1.5, "justification": "a" },\n    { "option": "2", "rank": 2, "justification": "b" },\n    { "option": "3", "rank": 3, "justification": "c" }\n  ]\n}\n';
      const r = await rankingDiag(text, 'dina.json');
      at(find(r, 'rankings/dina.json', /^Rank must be a whole number of 1 or more \(found 1\.5\)\.$/), 4, 30);
    });
    it('JSON: comments and single quotes are not JSON', async () => {
      const r = await rankingDiag("{\n  // note\n  'designer': 'x'\n}\n", 'c.json');
      at(find(r, 'rankings/c.json', /JSON does not allow comments/), 2, 3);
    });
  });

  describe('review.yaml', () => {
    it('unknown keys → warning with suggestion; bad values → error at the value', async () => {
      const root = await makeReview({ reviewYaml: 'title: T\niteration: 3\nturnsPerAgent: 0\nimageMaxSide: big\n' });
      const r = await load(root);
      at(find(r, 'review.yaml', /^Unknown setting "iteration" is ignored\. Did you mean "iterations"\?/), 2, 1, 'warning');
      at(find(r, 'review.yaml', /^turnsPerAgent must be a whole number from 1 to 10 \(found 0\)/), 3, 16);
      find(r, 'review.yaml', /^imageMaxSide must be a whole number from 256 to 4096 \(found "big"\)/);
      assert.equal(r.review, undefined);
    });
    it('valid settings and team roles/weights fill in what ranking files leave out', async () => {
      const root = await makeReview({
        reviewYaml:
          'title: Spring\nchatModel: gpt-4o-mini\niterations: 2\nteam:\n  alice: { role: Lead, weight: 3 }\n  bob: { weight: 0.5 }\n',
        rankings: { 'alice.yaml': rankingYaml('Alice', IDS), 'bob.yaml': rankingYaml('Bob', IDS, 'weight: 2') },
      });
      const r = await load(root);
      assert.deepEqual(r.diagnostics, []);
      assert.equal(r.review!.title, 'Spring');
      assert.deepEqual(r.review!.config.chatModel, 'gpt-4o-mini');
      assert.deepEqual(
        r.review!.designers.map((d) => [d.id, d.role, d.weight]),
        [
          ['alice', 'Lead', 3],
          ['bob', undefined, 2],
        ],
      );
    });
    it('team naming a designer without a ranking file → warning at that key', async () => {
      const r = await load(
        await makeReview({ reviewYaml: 'title: T\nlead: alice\nteam:\n  alice: { weight: 2 }\n  dave: { role: Intern }\n' }),
      );
      at(find(r, 'review.yaml', /^team lists "dave", but there is no rankings\/dave\.yaml/), 5, 3, 'warning');
      assert.equal(r.review?.designers[0]?.weight, 2);
    });
    it('hierarchy: lead-decides without a lead → error at the hierarchy line', async () => {
      const r = await load(await makeReview({ reviewYaml: 'title: T\nhierarchy: lead-decides\n' }));
      at(find(r, 'review.yaml', /^hierarchy is lead-decides, but review.yaml names no lead/), 2, 1, 'error');
    });
    it('a lead who is not a designer → error at the lead line (the review cannot run)', async () => {
      const r = await load(await makeReview({ reviewYaml: 'title: T\nlead: carol\n' }));
      at(find(r, 'review.yaml', /^lead is "carol", but no ranking file has that designer id; name one of the designers/), 2, 1, 'error');
      assert.equal(r.review, undefined);
    });
    it('a YAML syntax error in review.yaml → error with position; only comments → fine', async () => {
      const r = await load(await makeReview({ reviewYaml: 'title: [a\n' }));
      assert.ok(find(r, 'review.yaml', /^This is not valid YAML/).line > 0);
      const ok = await load(await makeReview({ reviewYaml: '# nothing yet\n' }));
      assert.deepEqual(ok.diagnostics, []);
    });
  });

  it('never throws and reports everything at once on a thoroughly broken folder', async () => {
    const root = await makeReview({
      brief: { dir: true },
      options: ['1.png'],
      rankings: { 'a.yaml': '::: [', 'b.json': '{', 'c.yml': Buffer.from([0xff, 0xfe, 0x00]), 'd.yaml': { dir: true } },
      reviewYaml: { dir: true },
      extra: { 'options/2.gif': 'GIF89a' },
    });
    const r = await load(root);
    assert.equal(r.review, undefined);
    const files = new Set(r.diagnostics.map((d) => d.file));
    for (const f of [
      'brief.md',
      'options',
      'options/2.gif',
      'rankings/a.yaml',
      'rankings/b.json',
      'rankings/c.yml',
      'rankings/d.yaml',
      'review.yaml',
    ]) {
      assert.ok(files.has(f), `missing diagnostic for ${f}:\n${r.diagnostics.map(formatDiagnostic).join('\n')}`);
    }
    for (const d of r.diagnostics) assert.match(formatDiagnostic(d), /^[^:]+:\d+:\d+: (error|warning): \S/);
  });
});
