/**
 * The primitives of the file room's writes (reviewWrites.ts): exclusive creation under an unpredictable name, opening
 * without following a link with the handle checked against the path, and the check that a move replaces only a regular file.
 */
import { randomBytes } from 'node:crypto';
import { constants as fsc, promises as fs, type Stats } from 'node:fs';
import { ReviewFileError, handlePath } from './reviewFiles';

export const O_NOFOLLOW = (fsc as Record<string, number>).O_NOFOLLOW ?? 0;
export const O_NONBLOCK = (fsc as Record<string, number>).O_NONBLOCK ?? 0;

export const idOf = (st: { dev: number | bigint; ino: number | bigint }): string => `${st.dev}:${st.ino}`;

/** A random name nobody can predict: `.<label>.<24 hex>.<suffix>`. */
export function randomName(label: string, suffix = 'tmp'): string {
  return `.${label}.${randomBytes(12).toString('hex')}.${suffix}`;
}

export function whatIs(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return 'a folder';
  if (st.isFile()) return 'a file';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  return 'a device';
}

export function failure(file: string, err: unknown, doing: string): ReviewFileError {
  if (err instanceof ReviewFileError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ELOOP')
    return new ReviewFileError(
      file,
      `${file} is a symbolic link; the tool never writes through a link, so it is left as it is.`,
      'outside',
    );
  if (code === 'ENOSPC') return new ReviewFileError(file, `${file} could not be ${doing}: the disk is full.`);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return new ReviewFileError(file, `${file} could not be ${doing} (permission denied).`);
  return new ReviewFileError(file, `${file} could not be ${doing} (${code ?? 'error'}).`);
}

export async function lstatOrUndefined(abs: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Opens `abs` with `flags` (O_NOFOLLOW added) and checks the handle: a regular file, the same device and inode as the
 * path, and (`canonical`: `abs` is a real path, every folder on it checked) where the system says the handle is must be
 * `abs` itself, so a folder swapped for a link since it was checked is caught before a byte is written.
 */
export async function openChecked(
  abs: string,
  file: string,
  flags: number,
  doing: string,
  mode = 0o644,
  canonical = true,
): Promise<fs.FileHandle> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(abs, flags | O_NOFOLLOW | O_NONBLOCK, mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ReviewFileError(file, `${file} is missing.`, 'missing');
    if (code === 'EEXIST') throw new ReviewFileError(file, `${file} exists already; it is not overwritten.`, 'invalid-path');
    if (code === 'EISDIR') throw new ReviewFileError(file, `${file} is a folder, but it must be a file.`, 'not-regular');
    if (code === 'ENXIO') throw new ReviewFileError(file, `${file} is not a regular file; it is left as it is.`, 'not-regular');
    throw failure(file, err, doing);
  }
  try {
    const [st, now] = await Promise.all([handle.stat(), fs.lstat(abs)]);
    if (!st.isFile()) throw new ReviewFileError(file, `${file} is ${whatIs(st)}, not a regular file; it is left as it is.`, 'not-regular');
    if (now.isSymbolicLink() || idOf(now) !== idOf(st)) {
      throw new ReviewFileError(file, `${file} was replaced while it was being opened; nothing is written.`, 'outside');
    }
    const where = canonical ? await handlePath(handle) : undefined;
    if (where !== undefined && where !== abs) {
      // Created just now (exclusive, a random name, empty) where the link led: taken away again if it is still ours.
      if (flags & fsc.O_EXCL) {
        const there = await fs.lstat(where).catch(() => undefined);
        if (there && idOf(there) === idOf(st)) await fs.unlink(where).catch(() => undefined);
      }
      throw new ReviewFileError(
        file,
        `${file} was reached through a folder replaced by a link while it was being opened; nothing is written.`,
        'outside',
      );
    }
    return handle;
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw failure(file, err, doing);
  }
}

/** Creates `abs` exclusively (never through a link, never over anything) with `data`. */
export async function createExclusive(
  abs: string,
  file: string,
  data: string | Uint8Array,
  sync: boolean,
  canonical = true,
): Promise<void> {
  const handle = await openChecked(abs, file, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 'written', 0o644, canonical);
  try {
    await handle.writeFile(data);
    if (sync) await handle.sync();
  } finally {
    await handle.close();
  }
}

/** What may stand at a name the tool replaces: nothing, or a regular file. Anything else is refused in words. */
export async function checkReplaceable(abs: string, file: string): Promise<Stats | undefined> {
  const st = await lstatOrUndefined(abs).catch((err: unknown) => {
    throw failure(file, err, 'written');
  });
  if (st && !st.isFile()) {
    const what = whatIs(st);
    throw new ReviewFileError(
      file,
      `${file} is ${what}, not a file this tool writes; it is not replaced${st.isSymbolicLink() ? ' (a link is never followed)' : ''}. Remove it and try again.`,
      st.isSymbolicLink() ? 'outside' : 'not-regular',
    );
  }
  return st;
}
