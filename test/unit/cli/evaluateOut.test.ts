/**
 * `evaluate --out <dir>` writes where the user says: inside or outside the evaluated folder, never through a link, never
 * into a review's own folders (options/, rankings/, comments/, references/, runs/); a file already there is replaced only
 * with --force (said otherwise, exit 1); usage mistakes exit 2.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { useBuiltCli } from './buildCli';
import { makeReviewWithRun } from '../evaluation/fixtures';
import { makeTempDir } from '../run/fixtures';

describe('evaluate --out: where the user says', function () {
  this.timeout(120_000);
  const { run } = useBuiltCli();
  let top: string;
  let review: string;
  before(async () => {
    top = await makeTempDir('tf-evalout-');
    review = path.join(top, 'reviews', 'hero');
    await fs.mkdir(path.dirname(review));
    await fs.rename(await makeReviewWithRun(), review);
  });

  it('outside the evaluated folder: written there, the success line on stdout', async () => {
    const out = path.join(top, 'elsewhere', 'report');
    const r = await run('evaluate', path.join(top, 'reviews'), '--out', out);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Wrote evaluation\.md, evaluation\.json and \d+ charts to .*report$/m);
    assert.match(await fs.readFile(path.join(out, 'evaluation.md'), 'utf8'), /^# Did it help\?/);
  });

  it('an existing file is replaced only with --force; without it exit 1, in words, nothing changed', async () => {
    const out = path.join(top, 'again');
    assert.equal((await run('evaluate', path.join(top, 'reviews'), '--out', out)).code, 0);
    await fs.writeFile(path.join(out, 'evaluation.md'), 'MINE\n');
    const refused = await run('evaluate', path.join(top, 'reviews'), '--out', out);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /^teamfusion evaluate: .*again already has evaluation\.md, evaluation\.json, .*; add --force to replace them\.$/m,
    );
    assert.equal(await fs.readFile(path.join(out, 'evaluation.md'), 'utf8'), 'MINE\n');
    const forced = await run('evaluate', path.join(top, 'reviews'), '--out', out, '--force');
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(await fs.readFile(path.join(out, 'evaluation.md'), 'utf8'), /^# Did it help\?/);
  });

  it("never into a review's own folders, named directly or through a link above", async () => {
    for (const inside of ['options', 'rankings', 'comments', 'references', 'runs', 'runs/x/y']) {
      const r = await run('evaluate', path.join(top, 'reviews'), '--out', path.join(review, inside));
      assert.equal(r.code, 1, `${inside}: ${r.stderr}`);
      assert.match(r.stderr, /is inside .*, a review's own folder/, inside);
    }
    await fs.symlink(review, path.join(top, 'alias'));
    const r = await run('evaluate', path.join(top, 'reviews'), '--out', path.join(top, 'alias', 'options', 'report'));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /a review's own folder/);
    await assert.rejects(fs.stat(path.join(review, 'options', 'report')));
  });

  it('--out a link: refused, nothing written through it', async () => {
    await fs.mkdir(path.join(top, 'target'));
    await fs.symlink(path.join(top, 'target'), path.join(top, 'linked'));
    const r = await run('evaluate', path.join(top, 'reviews'), '--out', path.join(top, 'linked'));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /is a symbolic link; the tool never writes through a link/);
    assert.deepEqual(await fs.readdir(path.join(top, 'target')), []);
  });

  it('usage mistakes exit 2: --out without a folder, --force without --out', async () => {
    for (const args of [['--out'], ['--out', ''], ['--force']]) {
      const r = await run('evaluate', path.join(top, 'reviews'), ...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /See `teamfusion evaluate --help`/);
    }
  });
});
