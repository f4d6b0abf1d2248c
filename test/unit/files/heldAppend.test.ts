/**
 * HeldAppend (reviewWrites.ts): a run's journal and prompt parts opened once and kept open for the run. Each append
 * lands in the file at its name, synced; a file replaced, moved away or swapped for a link between two appends is
 * never written through: the name is opened afresh with the file room's checks (a link there is refused in words).
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { HeldAppend } from '../../../src/core/files/reviewWrites';
import { cleanupFixtures, tempDir } from '../review/fixtures';

describe('files: HeldAppend, a journal kept open for the run', () => {
  let root: string;
  let outside: string;
  beforeEach(async () => {
    root = await tempDir();
    outside = await tempDir();
  });
  after(cleanupFixtures);

  it('creates the file, then appends each line after the last, keeping the one handle', async () => {
    const held = new HeldAppend(root, 'runs/r1/journal.jsonl');
    try {
      await held.append('a\n');
      const first = await fs.stat(path.join(root, 'runs/r1/journal.jsonl'));
      await held.append('b\n');
      await held.append('c\n');
      assert.equal(await fs.readFile(path.join(root, 'runs/r1/journal.jsonl'), 'utf8'), 'a\nb\nc\n');
      assert.equal((await fs.stat(path.join(root, 'runs/r1/journal.jsonl'))).ino, first.ino);
    } finally {
      await held.close();
    }
  });

  it('a file replaced between two appends: the next append goes to the file now at the name, the old one is left alone', async () => {
    const file = path.join(root, 'runs/r1/journal.jsonl');
    const held = new HeldAppend(root, 'runs/r1/journal.jsonl');
    try {
      await held.append('a\n');
      await fs.rename(file, path.join(root, 'runs/r1/moved.jsonl'));
      await fs.writeFile(path.join(root, 'runs/r1/other.jsonl'), 'x\n');
      await fs.rename(path.join(root, 'runs/r1/other.jsonl'), file);
      await held.append('b\n');
      assert.equal(await fs.readFile(file, 'utf8'), 'x\nb\n');
      assert.equal(await fs.readFile(path.join(root, 'runs/r1/moved.jsonl'), 'utf8'), 'a\n');
    } finally {
      await held.close();
    }
  });

  it('a link put at the name between two appends is refused, and nothing is written where it leads', async () => {
    const file = path.join(root, 'runs/r1/journal.jsonl');
    const target = path.join(outside, 'victim.txt');
    await fs.writeFile(target, 'keep\n');
    const held = new HeldAppend(root, 'runs/r1/journal.jsonl');
    try {
      await held.append('a\n');
      await fs.rm(file);
      await fs.symlink(target, file);
      await assert.rejects(held.append('b\n'), /symbolic link/);
      assert.equal(await fs.readFile(target, 'utf8'), 'keep\n');
    } finally {
      await held.close();
    }
  });

  it('the file deleted between two appends: made again at its name', async () => {
    const file = path.join(root, 'runs/r1/journal.jsonl');
    const held = new HeldAppend(root, 'runs/r1/journal.jsonl');
    try {
      await held.append('a\n');
      await fs.rm(file);
      await held.append('b\n');
      assert.equal(await fs.readFile(file, 'utf8'), 'b\n');
    } finally {
      await held.close();
    }
  });
});
