/**
 * The write side of the file room (re-exported by reviewFiles.ts: import from there). A review folder is untrusted, so
 * nothing the tool creates, replaces or deletes ever goes through a symbolic link:
 *   - folders: every component from the review's real root is lstat-checked (a link or a non-folder is refused in words)
 *     and a missing one is created with a plain mkdir that refuses an existing path;
 *   - files: created exclusively (O_CREAT | O_EXCL | O_NOFOLLOW) under a random name (crypto, never pid or time) beside
 *     the target, written, then moved into place; the move replaces only a regular file (never a link, a folder or a
 *     special file) and an exclusive write never replaces anything;
 *   - after every open, the handle's device and inode must equal those of the checked path (closes the swap race);
 *   - appends and truncations open the existing file without following a link and check it before a byte changes;
 *   - a recursive remove removes only a folder this process created, walking with lstat: a link is unlinked, never
 *     followed, at every level.
 */
import { constants as fsc, promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { ReviewFileError, readRegular, readReviewBytes, realRoot, toRel } from './reviewFiles';
import { checkReplaceable, createExclusive, failure, idOf, lstatOrUndefined, openChecked, randomName, whatIs } from './writePrimitives';

export { randomName } from './writePrimitives';

/** Folders (dev:ino) this process created: the only ones a recursive remove may take away. */
const ownFolders = new Set<string>();

/**
 * The absolute path of a folder of the review, every component checked without following links (a link, or something
 * that is not a folder, is refused in words); missing components are created when `create` (plain mkdir: an existing
 * path is checked again, never trusted). `rel` '' or '.' is the review root itself.
 */
export async function reviewFolder(root: string, rel: string, opts: { create?: boolean } = {}): Promise<string> {
  const file = toRel(rel);
  if (path.isAbsolute(rel) || /^[a-zA-Z]:/.test(rel) || rel.includes('\0') || file.split('/').includes('..')) {
    throw new ReviewFileError(file || rel, `${file || rel} is not a path inside the review folder.`, 'invalid-path');
  }
  let abs = await realRoot(root);
  const parts = file === '' ? [] : file.split('/');
  for (const [i, part] of parts.entries()) {
    abs = path.join(abs, part);
    const shown = parts.slice(0, i + 1).join('/');
    let st: Stats | undefined;
    try {
      st = await lstatOrUndefined(abs);
      if (!st) {
        if (!opts.create) throw new ReviewFileError(shown, `The folder ${shown} is missing.`, 'missing');
        try {
          await fs.mkdir(abs, 0o755);
          st = await fs.lstat(abs);
          if (st.isDirectory()) ownFolders.add(idOf(st));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
          st = await fs.lstat(abs); // made meanwhile by someone else: checked like any existing path
        }
      }
    } catch (err) {
      throw failure(shown, err, 'created');
    }
    if (st.isSymbolicLink()) {
      throw new ReviewFileError(
        shown,
        `${shown} is a symbolic link; the tool never writes through a link (it could lead outside the review folder), so nothing is written there.`,
        'outside',
      );
    }
    if (!st.isDirectory()) throw new ReviewFileError(shown, `${shown} is ${whatIs(st)}, but it must be a folder.`, 'not-regular');
  }
  return abs;
}

/** The folder of the review name `file` (relative, posix), through reviewFolder: contained, no link on the way; `create` makes what is missing. */
function folderOf(root: string, file: string, opts: { create?: boolean } = {}): Promise<string> {
  const dir = path.posix.dirname(file);
  return reviewFolder(root, dir === '.' ? '' : dir, opts);
}

/** The absolute path of the review name `file`: its folder through folderOf, then the name itself (never resolved). */
async function pathOf(root: string, file: string, opts: { create?: boolean } = {}): Promise<string> {
  return path.join(await folderOf(root, file, opts), path.posix.basename(file));
}

/** Creates a folder of the review (and its parents): contained, no link followed at any level. Returns its path. */
export async function mkdirInReview(root: string, rel: string): Promise<string> {
  return reviewFolder(root, rel, { create: true });
}

/**
 * Checks, before any work is done, that the tool may write every file of `rels` (relative to the review root): each
 * folder on the way is a folder, not a link (a missing one is fine: it is created when written), and each name holds
 * nothing or a regular file. Throws the first problem as a ReviewFileError naming the file, so a command that would
 * only find out at the end (after paying a model) refuses at the start, in one sentence, with nothing written.
 */
export async function checkWritable(root: string, rels: readonly string[]): Promise<void> {
  for (const rel of rels) {
    const file = toRel(rel);
    let absDir: string;
    try {
      absDir = await folderOf(root, file);
    } catch (err) {
      if (err instanceof ReviewFileError && err.reason === 'missing') continue;
      throw err;
    }
    await checkReplaceable(path.join(absDir, path.posix.basename(file)), file);
  }
}

/**
 * Writes a file of the review atomically: created exclusively under a random name beside it, then moved into place.
 * The folder is created and checked without following links; the target may only be missing or a regular file (a link,
 * a folder or a special file there is refused in words, never followed). `exclusive`: an existing target is refused
 * and never replaced, even if it appears meanwhile.
 */
export async function writeReviewFile(
  root: string,
  rel: string,
  data: string | Uint8Array,
  opts: { exclusive?: boolean; sync?: boolean } = {},
): Promise<void> {
  const file = toRel(rel);
  const absDir = await folderOf(root, file, { create: true });
  const base = path.posix.basename(file);
  const target = path.join(absDir, base);
  const existing = await checkReplaceable(target, file);
  if (opts.exclusive && existing) throw new ReviewFileError(file, `${file} exists already; it is not overwritten.`, 'invalid-path');
  const tmp = path.join(absDir, randomName(base));
  await createExclusive(tmp, file, data, opts.sync ?? false);
  try {
    if (opts.exclusive) {
      // link(2) never replaces: a name that appeared meanwhile stays as it is.
      await fs.link(tmp, target);
    } else {
      await checkReplaceable(target, file);
      await fs.rename(tmp, target);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw new ReviewFileError(file, `${file} exists already; it is not overwritten.`, 'invalid-path');
    if ((err as NodeJS.ErrnoException).code === 'EISDIR')
      throw new ReviewFileError(file, `${file} is a folder; the file cannot be written there.`, 'not-regular');
    throw failure(file, err, 'written');
  } finally {
    await fs.unlink(tmp).catch(() => undefined);
  }
}

/**
 * Reads a file the tool itself writes (prompts.jsonl, a lock, an inbox entry …) with no link followed at any level: a
 * link there is refused in words (`noFollow` false: a link inside the review is followed like any read).
 */
export async function readOwnBytes(root: string, rel: string, maxBytes: number, noFollow = true): Promise<Buffer> {
  const file = toRel(rel);
  if (!noFollow) return readReviewBytes(root, file, maxBytes);
  const abs = await pathOf(root, file);
  return readRegular(abs, file, maxBytes, true);
}

/** readOwnBytes as UTF-8 text (invalid UTF-8 is an error naming the file). */
export async function readOwnText(root: string, rel: string, maxBytes: number): Promise<string> {
  const bytes = await readOwnBytes(root, rel, maxBytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ReviewFileError(toRel(rel), `${toRel(rel)} is not UTF-8 text; it is not used.`);
  }
}

/** Opens a file of the review for appending (created exclusively when missing), through the checks of openChecked. */
async function openForAppend(root: string, file: string): Promise<{ handle: fs.FileHandle; abs: string }> {
  const abs = await pathOf(root, file, { create: true });
  try {
    return { handle: await openChecked(abs, file, fsc.O_WRONLY | fsc.O_APPEND, 'written'), abs };
  } catch (err) {
    if (!(err instanceof ReviewFileError && err.reason === 'missing')) throw err;
    return { handle: await openChecked(abs, file, fsc.O_WRONLY | fsc.O_APPEND | fsc.O_CREAT | fsc.O_EXCL, 'written'), abs };
  }
}

/**
 * Appends to a file of the review (created exclusively when missing), never through a link: the existing file is opened
 * with O_NOFOLLOW and checked (regular, same inode as the checked path) before a byte is written. Synced to disk before
 * it returns unless `sync: false`.
 */
export async function appendReviewFile(
  root: string,
  rel: string,
  data: string | Uint8Array,
  opts: { sync?: boolean } = { sync: true },
): Promise<void> {
  const file = toRel(rel);
  const { handle } = await openForAppend(root, file);
  try {
    await handle.appendFile(data);
    if (opts.sync) await handle.sync();
  } catch (err) {
    throw failure(file, err, 'written');
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * A file of the review a writer appends to again and again (a run's journal and prompt parts): opened once like
 * appendReviewFile opens it (contained, no link followed, the handle checked against the path), then kept open, so an
 * append is a write and a sync. Before each append the name must still be that file (an lstat, no link): a file replaced
 * or moved meanwhile is opened afresh through the same checks. `close()` when done.
 */
export class HeldAppend {
  private handle: fs.FileHandle | undefined;
  private abs = '';
  private id = '';

  constructor(
    private readonly root: string,
    private readonly rel: string,
  ) {}

  /** Appends `data` and syncs it to disk before it returns. */
  async append(data: string | Uint8Array): Promise<void> {
    const file = toRel(this.rel);
    if (this.handle) {
      const now = await lstatOrUndefined(this.abs).catch(() => undefined);
      if (!now || now.isSymbolicLink() || idOf(now) !== this.id) await this.close();
    }
    if (!this.handle) {
      const { handle, abs } = await openForAppend(this.root, file);
      try {
        this.id = idOf(await handle.stat());
      } catch (err) {
        await handle.close().catch(() => undefined);
        throw failure(file, err, 'written');
      }
      this.handle = handle;
      this.abs = abs;
    }
    try {
      await this.handle.appendFile(data);
      await this.handle.sync();
    } catch (err) {
      await this.close();
      throw failure(file, err, 'written');
    }
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = undefined;
    await h?.close().catch(() => undefined);
  }
}

/** Cuts a regular file of the review to `length` bytes; opened without following a link and checked first. */
export async function truncateReviewFile(root: string, rel: string, length: number): Promise<void> {
  const file = toRel(rel);
  const abs = await pathOf(root, file);
  const handle = await openChecked(abs, file, fsc.O_WRONLY, 'shortened');
  try {
    await handle.truncate(length);
    await handle.sync();
  } catch (err) {
    throw failure(file, err, 'shortened');
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Removes one name of the review: a regular file or a link (the link itself; its target is never touched). A folder or
 * a special file is refused. Missing is fine.
 */
export async function removeReviewFile(root: string, rel: string): Promise<void> {
  const file = toRel(rel);
  let abs: string;
  try {
    abs = await pathOf(root, file);
  } catch (err) {
    if (err instanceof ReviewFileError && err.reason === 'missing') return;
    throw err;
  }
  const st = await lstatOrUndefined(abs).catch((err: unknown) => {
    throw failure(file, err, 'removed');
  });
  if (!st) return;
  if (!st.isFile() && !st.isSymbolicLink())
    throw new ReviewFileError(file, `${file} is ${whatIs(st)}; the tool removes only its own files.`, 'not-regular');
  await fs.unlink(abs).catch((err: unknown) => {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw failure(file, err, 'removed');
  });
}

/**
 * A new folder of the review under a random name inside `parentRel` (checked, created when missing), made by this
 * process: the only kind of folder removeOwnFolder takes away. Returns its path relative to the review root.
 */
export async function makeOwnFolder(root: string, parentRel: string, label: string): Promise<string> {
  const parent = await reviewFolder(root, parentRel, { create: true });
  const name = randomName(label, 'partial');
  const abs = path.join(parent, name);
  const rel = `${toRel(parentRel)}/${name}`;
  try {
    await fs.mkdir(abs, 0o755); // refuses an existing path, link or not
    const st = await fs.lstat(abs);
    if (!st.isDirectory()) throw new ReviewFileError(rel, `${rel} was replaced while it was being made.`, 'outside');
    ownFolders.add(idOf(st));
  } catch (err) {
    throw failure(rel, err, 'created');
  }
  return rel;
}

/** Whether this process created the folder at `abs` (checked without following a link). */
async function isOwnFolder(abs: string): Promise<boolean> {
  const st = await lstatOrUndefined(abs).catch(() => undefined);
  return st !== undefined && st.isDirectory() && ownFolders.has(idOf(st));
}

const MAX_REMOVE_DEPTH = 64;

/**
 * Removes a folder this process created (makeOwnFolder, or created by mkdirInReview) with everything in it. The walk
 * uses lstat and never follows a link at any level: a link is unlinked, its target untouched. Anything else (a folder
 * not made by this process, a link) is left alone. Errors are swallowed: this cleans up after a failure.
 */
export async function removeOwnFolder(root: string, rel: string): Promise<void> {
  const file = toRel(rel);
  let abs: string;
  try {
    abs = await pathOf(root, file);
  } catch {
    return;
  }
  if (!(await isOwnFolder(abs))) return;
  await removeTree(abs, 0);
}

async function removeTree(abs: string, depth: number): Promise<void> {
  const st = await lstatOrUndefined(abs).catch(() => undefined);
  if (!st) return;
  if (!st.isDirectory()) {
    await fs.unlink(abs).catch(() => undefined); // a file or a link: the name goes, a link's target is never touched
    return;
  }
  if (depth >= MAX_REMOVE_DEPTH) return;
  const names = await fs.readdir(abs).catch(() => [] as string[]);
  for (const name of names) await removeTree(path.join(abs, name), depth + 1);
  await fs.rmdir(abs).catch(() => undefined);
}

/**
 * Moves a folder this process created (makeOwnFolder) to a new name of the review, which must not exist (nothing is
 * replaced: an existing name, link or not, is refused in words).
 */
export async function renameOwnFolder(root: string, fromRel: string, toRelPath: string): Promise<void> {
  const from = toRel(fromRel);
  const to = toRel(toRelPath);
  const fromAbs = await pathOf(root, from);
  if (!(await isOwnFolder(fromAbs)))
    throw new ReviewFileError(from, `${from} is not a folder this tool made; it is not moved.`, 'not-regular');
  const toAbs = await pathOf(root, to, { create: true });
  const existing = await lstatOrUndefined(toAbs).catch((err: unknown) => {
    throw failure(to, err, 'created');
  });
  if (existing) throw new ReviewFileError(to, `${to} exists already (${whatIs(existing)}); it is never replaced.`, 'invalid-path');
  try {
    await fs.rename(fromAbs, toAbs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTEMPTY' || code === 'ENOTDIR')
      throw new ReviewFileError(to, `${to} exists already; it is never replaced.`, 'invalid-path');
    throw failure(to, err, 'created');
  }
}

/**
 * Moves a name of the review aside to a new random name in the same folder (a stale lock, say): the name itself moves,
 * a link is never followed. Returns the new name relative to the review root, or undefined when nothing was there.
 */
export async function moveAside(root: string, rel: string, label: string): Promise<string | undefined> {
  const file = toRel(rel);
  const dir = path.posix.dirname(file);
  const absDir = await reviewFolder(root, dir === '.' ? '' : dir);
  const name = randomName(label, 'aside');
  try {
    await fs.rename(path.join(absDir, path.posix.basename(file)), path.join(absDir, name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw failure(file, err, 'moved');
  }
  return dir === '.' ? name : `${dir}/${name}`;
}

/** Puts a name moved aside (moveAside) back at `rel` with a hard link, which never replaces anything already there. */
export async function restoreAside(root: string, asideRel: string, rel: string): Promise<void> {
  const file = toRel(rel);
  const absDir = await folderOf(root, file);
  await fs
    .link(path.join(absDir, path.posix.basename(toRel(asideRel))), path.join(absDir, path.posix.basename(file)))
    .catch(() => undefined);
}

/** Sets a file's modification time to now without following a link (a lock's heartbeat). */
export async function touchReviewFile(root: string, rel: string): Promise<void> {
  const file = toRel(rel);
  const absDir = await folderOf(root, file);
  const now = new Date();
  await fs.lutimes(path.join(absDir, path.posix.basename(file)), now, now);
}

/**
 * Writes a file the tool owns outside any review (its image cache): the same exclusive creation under a random name
 * and a move that replaces only a regular file; the folder is created when missing.
 */
export async function writeLocalFile(target: string, data: string | Uint8Array): Promise<void> {
  const dir = path.dirname(target);
  await fs.mkdir(dir, { recursive: true });
  const shown = path.basename(target);
  const tmp = path.join(dir, randomName(shown));
  await createExclusive(tmp, shown, data, false, false); // the tool's own cache: its path may hold a link the user made
  try {
    await checkReplaceable(target, shown);
    await fs.rename(tmp, target);
  } finally {
    await fs.unlink(tmp).catch(() => undefined);
  }
}

/** Creates a folder the tool owns outside any review (its caches), with its parents. */
export async function mkdirLocal(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
}
