/**
 * The write side of the file room: exclusive creation under random names (a link planted at a temporary name is never
 * followed), renames that replace only regular files, removes that never follow a link at any level, and the handle
 * identity check after an open. After each attack, nothing outside the review changes and nothing inside is lost.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ReviewFileError } from '../../../src/core/files/reviewFiles';
import {
  appendReviewFile,
  makeOwnFolder,
  mkdirInReview,
  readOwnText,
  removeOwnFolder,
  removeReviewFile,
  renameOwnFolder,
  truncateReviewFile,
  writeReviewFile,
} from '../../../src/core/files/reviewWrites';
import { readRegular } from '../../../src/core/files/reviewFiles';
import { cleanupFixtures, tempDir } from '../review/fixtures';

/** Every path below `dir` (links listed as links, never followed) with its content or link target. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (abs: string, rel: string): Promise<void> => {
    for (const d of await fs.readdir(abs, { withFileTypes: true })) {
      const a = path.join(abs, d.name);
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isSymbolicLink()) out[r] = `-> ${await fs.readlink(a)}`;
      else if (d.isDirectory()) {
        out[`${r}/`] = 'dir';
        await walk(a, r);
      } else out[r] = await fs.readFile(a, 'utf8');
    }
  };
  await walk(dir, '');
  return out;
}

/** A review folder with a brief and a run folder, beside an "outside" folder with a file. */
async function setup(): Promise<{ top: string; root: string; outside: string }> {
  const top = await tempDir('tf-writes-');
  const root = path.join(top, 'review');
  const outside = path.join(top, 'outside');
  await fs.mkdir(path.join(root, 'runs', 'r1'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(root, 'brief.md'), '# Brief\n');
  await fs.writeFile(path.join(outside, 'secret.md'), 'SECRET\n');
  return { top, root, outside };
}

describe('file room: writes, renames and removes never follow a link', () => {
  after(cleanupFixtures);

  it('writeReviewFile creates its temporary file exclusively under a random name: no planted link is followed', async () => {
    const { top, root } = await setup();
    // Links at every name an attacker could guess (the old pid-based names, and names like the new ones).
    for (const name of [`.run.json.${process.pid}.tmp`, 'run.json.tmp', '.run.json.0.tmp']) {
      await fs.symlink('../../brief.md', path.join(root, 'runs', 'r1', name));
    }
    const before = await snapshot(top);
    await writeReviewFile(root, 'runs/r1/run.json', '{"ok":true}\n');
    const after = await snapshot(top);
    assert.equal(after['review/runs/r1/run.json'], '{"ok":true}\n');
    delete after['review/runs/r1/run.json'];
    assert.deepEqual(after, before, 'nothing else changed, no temporary file left');
  });

  it('a link (or a folder) at the target is refused in words, never followed or replaced; exclusive never replaces a file', async () => {
    const { top, root, outside } = await setup();
    await fs.symlink('../../brief.md', path.join(root, 'runs', 'r1', 'result.md'));
    await fs.symlink(path.join(outside, 'secret.md'), path.join(root, 'runs', 'r1', 'transcript.md'));
    await fs.symlink(path.join(outside, 'nothing.md'), path.join(root, 'runs', 'r1', 'dangling.md'));
    await fs.mkdir(path.join(root, 'runs', 'r1', 'folder.md'));
    await fs.writeFile(path.join(root, 'runs', 'r1', 'kept.md'), 'kept\n');
    const before = await snapshot(top);
    for (const name of ['result.md', 'transcript.md', 'dangling.md']) {
      await assert.rejects(
        writeReviewFile(root, `runs/r1/${name}`, 'x'),
        (e: unknown) => e instanceof ReviewFileError && /is a symbolic link/.test(e.message) && e.file === `runs/r1/${name}`,
      );
    }
    await assert.rejects(writeReviewFile(root, 'runs/r1/folder.md', 'x'), /is a folder/);
    await assert.rejects(writeReviewFile(root, 'runs/r1/kept.md', 'x', { exclusive: true }), /exists already/);
    assert.deepEqual(await snapshot(top), before);
  });

  it('a folder on the way that is a link (even one inside the review) is refused: nothing written through it', async () => {
    const { top, root, outside } = await setup();
    await fs.symlink(outside, path.join(root, 'out'));
    await fs.symlink('..', path.join(root, 'runs', 'up'));
    const before = await snapshot(top);
    await assert.rejects(writeReviewFile(root, 'out/x.md', 'x'), /out is a symbolic link/);
    await assert.rejects(writeReviewFile(root, 'runs/up/brief.md', 'x'), /runs\/up is a symbolic link/);
    await assert.rejects(mkdirInReview(root, 'out/new'), /symbolic link/);
    assert.deepEqual(await snapshot(top), before);
  });

  it('appends and truncations open the file without following a link: the linked file is unchanged', async () => {
    const { top, root } = await setup();
    await fs.symlink('../../brief.md', path.join(root, 'runs', 'r1', 'prompts.jsonl'));
    const before = await snapshot(top);
    await assert.rejects(appendReviewFile(root, 'runs/r1/prompts.jsonl', 'x\n'), /symbolic link/);
    await assert.rejects(truncateReviewFile(root, 'runs/r1/prompts.jsonl', 0), /symbolic link/);
    await assert.rejects(readOwnText(root, 'runs/r1/prompts.jsonl', 1000), /symbolic link/);
    assert.deepEqual(await snapshot(top), before);
    await appendReviewFile(root, 'runs/r1/new.jsonl', 'a\n');
    await appendReviewFile(root, 'runs/r1/new.jsonl', 'b\n');
    assert.equal(await readOwnText(root, 'runs/r1/new.jsonl', 100), 'a\nb\n');
  });

  it('a recursive remove of a folder this process made never follows a link inside it (a link to ..: target untouched)', async () => {
    const { top, root, outside } = await setup();
    const own = await makeOwnFolder(root, 'runs/r1', 'rerank');
    assert.match(own, /^runs\/r1\/\.rerank\.[0-9a-f]{24}\.partial$/);
    const abs = path.join(root, ...own.split('/'));
    await fs.symlink('..', path.join(abs, 'up'));
    await fs.symlink('../../..', path.join(abs, 'review'));
    await fs.symlink(outside, path.join(abs, 'outside'));
    await fs.mkdir(path.join(abs, 'sub'));
    await fs.symlink('../../../../brief.md', path.join(abs, 'sub', 'brief.md'));
    await fs.writeFile(path.join(abs, 'sub', 'own.txt'), 'own');
    await removeOwnFolder(root, own);
    await assert.rejects(fs.lstat(abs), /ENOENT/);
    assert.equal(await fs.readFile(path.join(root, 'brief.md'), 'utf8'), '# Brief\n');
    assert.equal(await fs.readFile(path.join(outside, 'secret.md'), 'utf8'), 'SECRET\n');
    assert.ok((await fs.lstat(path.join(root, 'runs', 'r1'))).isDirectory());
    void top;
  });

  it('a folder this process did not make (or a link to one) is never removed recursively', async () => {
    const { top, root } = await setup();
    await fs.mkdir(path.join(root, 'runs', 'r1', 'theirs'));
    await fs.writeFile(path.join(root, 'runs', 'r1', 'theirs', 'work.txt'), 'work');
    await fs.symlink('../..', path.join(root, 'runs', 'r1', 'link'));
    const before = await snapshot(top);
    await removeOwnFolder(root, 'runs/r1/theirs');
    await removeOwnFolder(root, 'runs/r1/link');
    assert.deepEqual(await snapshot(top), before);
  });

  it('renaming its own folder never replaces a link, a folder or a file at the new name', async () => {
    const { top, root } = await setup();
    await fs.symlink('../..', path.join(root, 'runs', 'r1', 'rerank'));
    await fs.mkdir(path.join(root, 'runs', 'r1', 'empty'));
    const own = await makeOwnFolder(root, 'runs/r1', 'rerank');
    const before = await snapshot(top);
    await assert.rejects(renameOwnFolder(root, own, 'runs/r1/rerank'), /exists already \(a symbolic link\)/);
    await assert.rejects(renameOwnFolder(root, own, 'runs/r1/empty'), /exists already \(a folder\)/);
    await assert.rejects(renameOwnFolder(root, 'runs/r1/empty', 'runs/r1/new'), /not a folder this tool made/);
    assert.deepEqual(await snapshot(top), before);
    await renameOwnFolder(root, own, 'runs/r1/new');
    assert.ok((await fs.lstat(path.join(root, 'runs', 'r1', 'new'))).isDirectory());
  });

  it('removeReviewFile removes a link itself, never its target; refuses a folder', async () => {
    const { root } = await setup();
    await fs.symlink('../../brief.md', path.join(root, 'runs', 'r1', 'entry.json'));
    await removeReviewFile(root, 'runs/r1/entry.json');
    await assert.rejects(fs.lstat(path.join(root, 'runs', 'r1', 'entry.json')), /ENOENT/);
    assert.equal(await fs.readFile(path.join(root, 'brief.md'), 'utf8'), '# Brief\n');
    await assert.rejects(removeReviewFile(root, 'runs/r1'), /is a folder/);
  });

  it('after an open, the handle must be the checked file (device and inode): a file swapped once by rename is read again, a file swapped at every open is refused', async () => {
    const { root } = await setup();
    const abs = path.join(root, 'brief.md');
    assert.equal((await readRegular(abs, 'brief.md', 1000, true)).toString(), '# Brief\n');
    // Another process saves the file by rename (as the driver saves run.json) right after this open, before the check.
    const orig = fs.open;
    let opens = 0;
    const swapAfterOpen = (times: number) => {
      (fs as { open: typeof fs.open }).open = async (...args: Parameters<typeof fs.open>) => {
        const h = await orig(...args);
        if (opens++ < times) {
          const next = path.join(root, `next-${opens}.md`);
          await orig(next, 'w').then(async (w) => {
            await w.writeFile(`version ${opens}\n`);
            await w.close();
          });
          await fs.rename(next, abs);
        }
        return h;
      };
    };
    try {
      swapAfterOpen(1);
      assert.equal((await readRegular(abs, 'brief.md', 1000, true)).toString(), 'version 1\n', 'the new file is read whole');
      opens = 0;
      swapAfterOpen(Number.POSITIVE_INFINITY);
      await assert.rejects(readRegular(abs, 'brief.md', 1000, true), /brief\.md was replaced while it was being opened; it is not read/);
      assert.equal(opens, 5, 'a bounded number of re-opens');
    } finally {
      (fs as { open: typeof fs.open }).open = orig;
    }
    // Swapped for a link after the open: refused at once, never re-opened through the link.
    const outside = path.join(path.dirname(root), `${path.basename(root)}-outside.md`);
    await fs.writeFile(outside, 'secret\n');
    opens = 0;
    (fs as { open: typeof fs.open }).open = async (...args: Parameters<typeof fs.open>) => {
      const h = await orig(...args);
      opens++;
      await fs.rm(abs, { force: true });
      await fs.symlink(outside, abs);
      return h;
    };
    try {
      await assert.rejects(readRegular(abs, 'brief.md', 1000, true), /brief\.md was replaced while it was being opened; it is not read/);
      assert.equal(opens, 1);
    } finally {
      (fs as { open: typeof fs.open }).open = orig;
      await fs.rm(outside, { force: true });
    }
  });
  it('a folder on the way swapped for a link between the check and the open: the read is refused, the write leaves nothing outside', async () => {
    const { root } = await setup();
    const outside = path.join(path.dirname(root), `${path.basename(root)}-outside`);
    await fs.mkdir(path.join(outside, 'r1'), { recursive: true });
    await fs.writeFile(path.join(outside, 'r1', 'entry.json'), 'SECRET\n');
    await fs.mkdir(path.join(root, 'runs', 'r1'), { recursive: true });
    await fs.writeFile(path.join(root, 'runs', 'r1', 'entry.json'), '{}\n');
    const orig = fs.open;
    // Every check has passed when open is called; the attacker swaps runs/ for a link out right then.
    const swapping = ((fs as { open: typeof fs.open }).open = async (...args: Parameters<typeof fs.open>) => {
      if (String(args[0]).includes(`${path.sep}runs${path.sep}`) && !(await fs.lstat(path.join(root, 'runs'))).isSymbolicLink()) {
        await fs.rename(path.join(root, 'runs'), path.join(root, 'runs-moved'));
        await fs.symlink(outside, path.join(root, 'runs'));
      }
      return orig(...args);
    });
    const restore = async (): Promise<void> => {
      await fs.rm(path.join(root, 'runs'), { force: true });
      await fs.rename(path.join(root, 'runs-moved'), path.join(root, 'runs'));
    };
    try {
      await assert.rejects(readOwnText(root, 'runs/r1/entry.json', 1000), /reached through a folder replaced by a link/);
      await restore();
      await assert.rejects(
        writeReviewFile(root, 'runs/r1/new.json', 'DATA'),
        /reached through a folder replaced by a link while it was being opened; nothing is written/,
      );
      await restore();
      await assert.rejects(appendReviewFile(root, 'runs/r1/entry.json', 'DATA'), /reached through a folder replaced by a link/);
      await restore();
    } finally {
      if ((fs as { open: typeof fs.open }).open === swapping) (fs as { open: typeof fs.open }).open = orig;
    }
    // Outside: the secret as it was, nothing new (the exclusive file made there for a moment was taken away again).
    assert.deepEqual(await fs.readdir(path.join(outside, 'r1')), ['entry.json']);
    assert.equal(await fs.readFile(path.join(outside, 'r1', 'entry.json'), 'utf8'), 'SECRET\n');
    assert.equal(await fs.readFile(path.join(root, 'runs', 'r1', 'entry.json'), 'utf8'), '{}\n');
  });
});
