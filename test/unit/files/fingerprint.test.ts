/**
 * The stat fingerprint live diagnostics compare to see changes on disk that no file event reported: it moves with every
 * change validation would read (a rewrite of the same size included), stays put when nothing changed or when only
 * something outside the review changed (a link out of the review is never followed), and never opens a file (a FIFO
 * does not hang it).
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { reviewFingerprint, runFingerprint } from '../../../src/core/files/fingerprint';
import { cleanupFixtures, makeReview, rankingYaml, tempDir } from '../review/fixtures';

describe('reviewFingerprint', () => {
  after(cleanupFixtures);

  it('stays the same while nothing changes', async () => {
    const root = await makeReview({
      reviewYaml: 'title: T\n',
      extra: { 'comments/alice.md': 'Hello\n', 'references.yaml': 'references: {}\n' },
    });
    assert.equal(await reviewFingerprint(root), await reviewFingerprint(root));
  });

  it('changes with every file validation reads: rankings, options, brief, settings, comments, references', async () => {
    const root = await makeReview({ reviewYaml: 'title: T\n' });
    const changes: [string, () => Promise<void>][] = [
      ['a ranking rewritten', () => fs.writeFile(path.join(root, 'rankings', 'alice.yaml'), rankingYaml('Alice', ['3', '2', '1']))],
      ['a ranking added', () => fs.writeFile(path.join(root, 'rankings', 'carol.yaml'), rankingYaml('Carol', ['1', '2', '3']))],
      ['a ranking removed', () => fs.rm(path.join(root, 'rankings', 'carol.yaml'))],
      ['an option replaced', () => fs.writeFile(path.join(root, 'options', '1.png'), Buffer.from('not a png'))],
      ['the brief edited', () => fs.appendFile(path.join(root, 'brief.md'), 'More.\n')],
      ['review.yaml edited', () => fs.writeFile(path.join(root, 'review.yaml'), 'title: Other\n')],
      [
        'a comment added',
        () => fs.mkdir(path.join(root, 'comments')).then(() => fs.writeFile(path.join(root, 'comments', 'bob.md'), 'Hi\n')),
      ],
      ['references.yaml added', () => fs.writeFile(path.join(root, 'references.yaml'), 'references: {}\n')],
      [
        'a reference note added',
        () => fs.mkdir(path.join(root, 'references')).then(() => fs.writeFile(path.join(root, 'references', 'README.md'), '## x\n')),
      ],
    ];
    for (const [what, change] of changes) {
      const before = await reviewFingerprint(root);
      await change();
      assert.notEqual(await reviewFingerprint(root), before, what);
    }
  });

  it('changes when a file is rewritten with the same size (its times move)', async () => {
    const root = await makeReview();
    const file = path.join(root, 'rankings', 'alice.yaml');
    const text = await fs.readFile(file, 'utf8');
    const before = await reviewFingerprint(root);
    // Same bytes count, different content, and a modification time set back to what it was: the change time still moves.
    const st = await fs.stat(file);
    await new Promise((r) => setTimeout(r, 20));
    await fs.writeFile(file, text.replace('Alice', 'Alicf'));
    await fs.utimes(file, st.atime, st.mtime);
    assert.equal((await fs.stat(file)).size, st.size);
    assert.notEqual(await reviewFingerprint(root), before);
  });

  it('does not follow a link out of the review: a change out there changes nothing', async () => {
    const root = await makeReview();
    const outside = path.join(await tempDir('tf-outside-'), 'secret.yaml');
    await fs.writeFile(outside, 'secret: 1\n');
    await fs.symlink(outside, path.join(root, 'rankings', 'mallory.yaml'));
    await fs.symlink(path.dirname(outside), path.join(root, 'references'));
    const before = await reviewFingerprint(root);
    await fs.writeFile(outside, 'secret: 2 and much longer than before\n');
    await fs.writeFile(path.join(path.dirname(outside), 'more.png'), 'x');
    assert.equal(await reviewFingerprint(root), before);
  });

  it('does not open files: a FIFO among the rankings is stat-ed, not read', async function () {
    if (process.platform === 'win32') this.skip();
    const root = await makeReview();
    execFileSync('mkfifo', [path.join(root, 'rankings', 'pipe.yaml')]);
    const a = await reviewFingerprint(root);
    assert.equal(await reviewFingerprint(root), a);
  });
});

describe('runFingerprint', () => {
  after(cleanupFixtures);

  /** A review with one run folder holding run.json and a votes/ folder. */
  async function withRun(): Promise<{ root: string; run: string }> {
    const root = await makeReview({ reviewYaml: 'title: T\n' });
    const run = path.join(root, 'runs', 'r1');
    await fs.mkdir(path.join(run, 'votes'), { recursive: true });
    await fs.writeFile(path.join(run, 'run.json'), '{}\n');
    await fs.writeFile(path.join(run, 'votes', 'ben.yaml'), 'designer: ben\n');
    return { root, run };
  }

  it('moves with a vote another process writes, a decision in run.json and a new run; stays put otherwise', async () => {
    const { root, run } = await withRun();
    const changes: [string, () => Promise<void>][] = [
      ['a vote added', () => fs.writeFile(path.join(run, 'votes', 'ana.yaml'), 'designer: ana\n')],
      ['a vote rewritten', () => fs.writeFile(path.join(run, 'votes', 'ana.yaml'), 'designer: ana # changed\n')],
      ['run.json rewritten', () => fs.writeFile(path.join(run, 'run.json'), '{"decided":true}\n')],
      ['a ratings folder made', () => fs.mkdir(path.join(run, 'ratings'))],
      ['another run', () => fs.mkdir(path.join(root, 'runs', 'r2'))],
    ];
    for (const [what, change] of changes) {
      const before = await runFingerprint(root, 'r1');
      assert.equal(await runFingerprint(root, 'r1'), before, `${what}: unchanged before`);
      await new Promise((r) => setTimeout(r, 20));
      await change();
      assert.notEqual(await runFingerprint(root, 'r1'), before, what);
    }
  });

  it("leaves out what the caller skips (a driver's lock refreshed every few seconds)", async () => {
    const { root, run } = await withRun();
    const skip = (name: string) => name.startsWith('.lock');
    const before = await runFingerprint(root, 'r1', skip);
    await fs.writeFile(path.join(run, '.lock'), 'pid 1\n');
    assert.equal(await runFingerprint(root, 'r1', skip), before);
    assert.notEqual(await runFingerprint(root, 'r1'), before);
  });

  it('looks at 500 entries of a run at most, however many a folder holds', async () => {
    const { root, run } = await withRun();
    await Promise.all(Array.from({ length: 700 }, (_, i) => fs.writeFile(path.join(run, 'votes', `m${i}.yaml`), 'x\n')));
    const lines = (await runFingerprint(root, 'r1')).split('\n');
    assert.ok(lines.length <= 503, `${lines.length} lines`);
    assert.ok(
      lines.some((l) => l === 'runs/r1/votes/#=701'),
      'the folder beyond the bound counts by its number of entries',
    );
  });
});
