/**
 * A review folder is untrusted input: every entry point of the core (and the extension's file code) refuses a file that
 * leads outside the review through a symbolic link, naming the file, and reads nothing from it. Beside each review sits a
 * "secret" folder whose contents must never show up anywhere.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { importRankingsCsv, loadReview, formatDiagnostic } from '../../../src/core/review';
import { isReviewFolder } from '../../../src/core/review/reviewFolder';
import { prepareImage, readImageFile } from '../../../src/core/llm/images';
import { writeDeliverables } from '../../../src/core/run/deliverables/deliverables';
import { compareRun, makeRerankSet } from '../../../src/core/evaluation';
import { saveRanking } from '../../../src/extension/panel/rankingWriter';
import { readReviewContents } from '../../../src/extension/foundation/reviewContents';
import { ReviewFileError } from '../../../src/core/files/reviewFiles';
import { writeReviewFile } from '../../../src/core/files/reviewWrites';
import type { RunRecord } from '../../../src/core/record/record';
import { cleanupFixtures, imageBytes, makeReview, rankingYaml, tempDir } from '../review/fixtures';
import { makeReviewWithRun, RUN_ID } from '../evaluation/fixtures';

const SECRET = 'TOP-SECRET-DO-NOT-READ';

/** A folder beside the review holding a secret text file, a secret image and an empty folder to write into. */
async function secretBeside(root: string): Promise<{ dir: string; text: string; image: string; empty: string }> {
  const dir = path.join(path.dirname(root), `${path.basename(root)}-secret`);
  await fs.mkdir(path.join(dir, 'empty'), { recursive: true });
  const text = path.join(dir, 'secret.md');
  await fs.writeFile(text, `# ${SECRET}\n\n${SECRET}\n`);
  const image = path.join(dir, 'secret.png');
  await fs.writeFile(image, await imageBytes('png', '#123456'));
  return { dir, text, image, empty: path.join(dir, 'empty') };
}

async function replaceWithLink(abs: string, target: string): Promise<void> {
  await fs.rm(abs, { recursive: true, force: true });
  await fs.symlink(target, abs);
}

function allText(diagnostics: { file: string; message: string }[]): string {
  return diagnostics.map((d) => `${d.file} ${d.message}`).join('\n');
}

async function listAll(dir: string): Promise<string[]> {
  return (await fs.readdir(dir, { recursive: true })).map(String).sort();
}

describe('containment: nothing outside the review is read or written', function () {
  this.timeout(30_000);
  after(cleanupFixtures);

  for (const [what, rel] of [
    ['brief.md', 'brief.md'],
    ['a ranking', 'rankings/alice.yaml'],
    ['review.yaml', 'review.yaml'],
  ] as const) {
    it(`loadReview: ${what} that is a symlink out of the review is an error naming it, and nothing is read from it`, async () => {
      const root = await makeReview({ reviewYaml: 'title: T\n' });
      const secret = await secretBeside(root);
      await replaceWithLink(path.join(root, rel), secret.text);
      const { review, diagnostics } = await loadReview(root);
      assert.equal(review, undefined);
      const d = diagnostics.find((x) => x.file === rel && x.severity === 'error');
      assert.ok(d, `an error on ${rel}: ${allText(diagnostics)}`);
      assert.match(d.message, /outside the review folder/);
      assert.ok(!allText(diagnostics).includes(SECRET));
    });
  }

  it('loadReview: an option that is a symlink out of the review is an error naming it', async () => {
    const root = await makeReview();
    const secret = await secretBeside(root);
    await replaceWithLink(path.join(root, 'options', '3.png'), secret.image);
    const { review, diagnostics } = await loadReview(root);
    assert.equal(review, undefined);
    assert.match(
      formatDiagnostic(diagnostics.find((d) => d.file === 'options/3.png')!),
      /^options\/3\.png:0:0: error: .*outside the review folder/,
    );
  });

  for (const dir of ['options', 'rankings'] as const) {
    it(`loadReview: the ${dir}/ folder itself as a symlink out of the review is an error, nothing listed or read in it`, async () => {
      const root = await makeReview();
      const secret = await secretBeside(root);
      await fs.cp(path.join(root, dir), path.join(secret.dir, dir), { recursive: true });
      await replaceWithLink(path.join(root, dir), path.join(secret.dir, dir));
      const { review, diagnostics } = await loadReview(root);
      assert.equal(review, undefined);
      const d = diagnostics.find((x) => x.file === dir);
      assert.ok(d, allText(diagnostics));
      assert.match(d.message, /outside the review folder/);
      assert.ok(!diagnostics.some((x) => x.file.startsWith(`${dir}/`)), 'no file inside the linked folder was looked at');
    });
  }

  it('isReviewFolder never follows a link out, but still recognises the folder so its problems are shown', async () => {
    const root = await makeReview();
    const secret = await secretBeside(root);
    await replaceWithLink(path.join(root, 'brief.md'), secret.text);
    assert.equal(await isReviewFolder(root), true);
  });

  it('prepareImage / readImageFile: an image that leads outside the review is refused before a byte is read', async () => {
    const root = await makeReview();
    const secret = await secretBeside(root);
    await replaceWithLink(path.join(root, 'options', '2.png'), secret.image);
    await assert.rejects(
      prepareImage(root, 'options/2.png', { cacheDir: false }),
      (e: unknown) => e instanceof ReviewFileError && e.file === 'options/2.png' && e.reason === 'outside',
    );
    await assert.rejects(readImageFile(root, 'options/2.png'), (e: unknown) => e instanceof ReviewFileError && e.reason === 'outside');
    await assert.rejects(
      readImageFile(root, '../x-secret/secret.png'),
      (e: unknown) => e instanceof ReviewFileError && e.reason === 'invalid-path',
    );
    // The real thing still works.
    assert.equal((await readImageFile(root, 'options/1.png')).mime, 'image/png');
  });

  it('writeDeliverables: a run folder that is a symlink out of the review gets nothing written through it', async () => {
    const root = await makeReviewWithRun();
    const secret = await secretBeside(root);
    const record = JSON.parse(await fs.readFile(path.join(root, 'runs', RUN_ID, 'run.json'), 'utf8')) as RunRecord;
    await replaceWithLink(path.join(root, 'runs', RUN_ID), secret.empty);
    await assert.rejects(
      writeDeliverables(root, record, []),
      (e: unknown) => e instanceof ReviewFileError && /outside the review folder/.test(e.message),
    );
    assert.deepEqual(await listAll(secret.empty), []);
  });

  it('the remix write (writeReviewFile) never lands outside: iteration folder linked out → error, nothing written', async () => {
    const root = await makeReview();
    const secret = await secretBeside(root);
    await fs.mkdir(path.join(root, 'runs', RUN_ID), { recursive: true });
    await fs.symlink(secret.empty, path.join(root, 'runs', RUN_ID, 'iteration-1'));
    await assert.rejects(writeReviewFile(root, `runs/${RUN_ID}/iteration-1/remix.png`, Buffer.from('png')), /outside the review folder/);
    await assert.rejects(writeReviewFile(root, '../escape.png', Buffer.from('png')), /not a path inside the review folder/);
    assert.deepEqual(await listAll(secret.empty), []);
    // A symlink AT the target is refused in words: never followed, never replaced.
    await fs.mkdir(path.join(root, 'runs', RUN_ID, 'iteration-2'));
    await fs.symlink(secret.text, path.join(root, 'runs', RUN_ID, 'iteration-2', 'remix.png'));
    await assert.rejects(
      writeReviewFile(root, `runs/${RUN_ID}/iteration-2/remix.png`, 'new'),
      /remix\.png is a symbolic link, not a file this tool writes; it is not replaced/,
    );
    assert.match(await fs.readFile(secret.text, 'utf8'), new RegExp(SECRET));
    assert.equal((await fs.lstat(path.join(root, 'runs', RUN_ID, 'iteration-2', 'remix.png'))).isSymbolicLink(), true);
  });

  it('makeRerankSet: a candidate that is a symlink out of the review is refused, nothing is copied', async () => {
    const root = await makeReviewWithRun();
    const secret = await secretBeside(root);
    await replaceWithLink(path.join(root, 'options', '4.png'), secret.image);
    await assert.rejects(makeRerankSet(root, RUN_ID), /outside the review folder/);
    assert.equal(await fs.stat(path.join(root, 'runs', RUN_ID, 'rerank')).catch(() => undefined), undefined);
    assert.deepEqual(
      (await fs.readdir(path.join(root, 'runs', RUN_ID))).filter((n) => n.includes('rerank')),
      [],
    );
  });

  it('makeRerankSet: a record whose remix file climbs out of the review is refused in words', async () => {
    const root = await makeReviewWithRun();
    const file = path.join(root, 'runs', RUN_ID, 'run.json');
    const record = JSON.parse(await fs.readFile(file, 'utf8')) as RunRecord;
    record.iterations[1]!.remix!.file = '../../../outside.png';
    await fs.writeFile(file, JSON.stringify(record));
    await assert.rejects(
      makeRerankSet(root, RUN_ID),
      /run\.json:\d+:\d+: error: The remix file of iteration 2 must be iteration-2\/remix\.png/,
    );
  });

  it('compareRun: a re-rank folder that is a symlink out of the review is an error naming it', async () => {
    const root = await makeReviewWithRun();
    const secret = await secretBeside(root);
    await fs.symlink(secret.empty, path.join(root, 'runs', RUN_ID, 'rerank'));
    await assert.rejects(compareRun(root, RUN_ID, { permutations: 100 }), /runs\/.*\/rerank leads outside the review folder/);
  });

  it('importRankingsCsv: a rankings/ folder linked out of the review gets nothing written', async () => {
    const root = await makeReview({ rankings: {} });
    const secret = await secretBeside(root);
    await replaceWithLink(path.join(root, 'rankings'), secret.empty);
    const csv = path.join(await tempDir(), 'r.csv');
    await fs.writeFile(csv, 'designer,rank:1,justification:1,rank:2,justification:2,rank:3,justification:3\nAna,1,a,2,b,3,c\n');
    const result = await importRankingsCsv(csv, root, { force: false });
    assert.deepEqual(result.written, []);
    assert.match(allText(result.diagnostics), /rankings leads outside the review folder/);
    assert.deepEqual(await listAll(secret.empty), []);
  });

  it('importRankingsCsv: a CSV that is a FIFO or too large is an error, never a hang', async () => {
    const root = await makeReview({ rankings: {} });
    const dir = await tempDir();
    const fifo = path.join(dir, 'pipe.csv');
    execFileSync('mkfifo', [fifo]);
    // (a FIFO opened for reading would block forever: mocha's timeout is the hang's witness, not a clock here)
    const r1 = await importRankingsCsv(fifo, root, { force: false });
    assert.match(allText(r1.diagnostics), /named pipe \(FIFO\), not a regular file/);
    const big = path.join(dir, 'big.csv');
    await fs.writeFile(big, Buffer.alloc(5 * 1024 * 1024, 'a'));
    const r2 = await importRankingsCsv(big, root, { force: false });
    assert.match(allText(r2.diagnostics), /too large \(5 MB; at most 4 MB\)/);
  });

  it('saveRanking (the panel form): a rankings/ folder linked out of the review is refused, nothing written', async () => {
    const root = await makeReview();
    const { review } = await loadReview(root);
    assert.ok(review);
    const secret = await secretBeside(root);
    await replaceWithLink(path.join(root, 'rankings'), secret.empty);
    const out = await saveRanking(review, {
      type: 'saveRanking',
      requestId: 1,
      designer: 'Carla',
      ranking: review.options.map((o, i) => ({ option: o.id, rank: i + 1, justification: 'Because.' })),
    } as Parameters<typeof saveRanking>[1]);
    assert.equal(out.ok, false);
    assert.match(allText(out.diagnostics), /outside the review folder/);
    assert.deepEqual(await listAll(secret.empty), []);
  });

  it('readReviewContents (the Reviews tree): a linked ranking or run record is not read; a huge ranking is skipped', async () => {
    const root = await makeReviewWithRun();
    const secret = await secretBeside(root);
    await fs.writeFile(path.join(secret.dir, 'ranking.yaml'), rankingYaml(SECRET, ['1', '2']));
    await fs.symlink(path.join(secret.dir, 'ranking.yaml'), path.join(root, 'rankings', 'zed.yaml'));
    await fs.writeFile(path.join(root, 'rankings', 'huge.yaml'), `designer: Huge\n# ${'x'.repeat(3 * 1024 * 1024)}\n`);
    await fs.writeFile(path.join(root, 'rankings', 'deep.yaml'), `designer: ${'['.repeat(100_000)}`);
    const contents = await readReviewContents(root);
    assert.ok(!JSON.stringify(contents).includes(SECRET));
    assert.equal(contents.designers.find((d) => d.id === 'zed')?.name, 'zed');
    assert.equal(contents.designers.find((d) => d.id === 'huge')?.name, 'huge');
    assert.equal(contents.designers.find((d) => d.id === 'deep')?.name, 'deep');
    assert.equal(contents.runs.length, 1);
  });
});
