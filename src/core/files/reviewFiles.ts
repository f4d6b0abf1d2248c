/**
 * The one room that owns every file access of a review folder. A review folder is untrusted input (people clone other
 * people's repositories), so every path the core reads or writes goes through here:
 *   - containment: the path is resolved with symlinks followed (real path) and must stay inside the review folder;
 *   - regular files only: a file is opened without blocking and fstat-checked before any byte is read (no FIFO, device,
 *     socket: an error in words, never a hang);
 *   - size caps: every kind of file has a byte cap (LIMITS) checked before it is parsed.
 * Errors are ReviewFileError, whose `file` is the path relative to the review root (forward slashes) and whose message names it.
 */
import { constants as fsc, promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { printable } from '../kernel/text';

/** Byte caps per kind of file, checked before a file is parsed (docs/security.md "Limits"). */
export const LIMITS = {
  /** A ranking file (YAML or JSON). */
  ranking: 2 * 1024 * 1024,
  /** review.yaml. */
  reviewConfig: 1024 * 1024,
  /** brief.md: plenty for a real brief. */
  brief: 200 * 1024,
  /** comments/<designer-id>.md: one member's reading of the brief (a brief review). */
  comment: 100 * 1024,
  /** runs/<id>/baseline.md, iteration-<k>/brief.md: a revised brief written by a model. */
  briefText: 400 * 1024,
  /** A CSV spreadsheet to import. */
  csv: 4 * 1024 * 1024,
  /** ratings/<id>.yaml, survey/<id>.yaml, rerank/key.json and other small YAML/JSON files. */
  smallFile: 1024 * 1024,
  /** runs/<id>/run.json. */
  runRecord: 8 * 1024 * 1024,
  /** runs/<id>/analysis.json. */
  analysis: 8 * 1024 * 1024,
  /** One image file (option or remix), before decoding. */
  imageBytes: 40 * 1024 * 1024,
  /** Pixels sharp may decode from one image (width × height). */
  imagePixels: 100_000_000,
} as const;

/** A file of the review that cannot be used; `file` is relative to the review root. */
export class ReviewFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
    readonly reason: 'outside' | 'missing' | 'not-regular' | 'too-large' | 'unreadable' | 'invalid-path' = 'unreadable',
  ) {
    super(message);
    this.name = 'ReviewFileError';
  }
}

/** "rankings/ana.yaml" from a relative path given with either separator. */
export function toRel(rel: string): string {
  return rel
    .split(/[\\/]+/)
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

const realRoots = new Map<string, string>();

/** The real path of the review folder (cached: the root itself is where the user pointed us). */
export async function realRoot(root: string): Promise<string> {
  const abs = path.resolve(root);
  let real = realRoots.get(abs);
  if (!real) {
    real = await fs.realpath(abs);
    if (realRoots.size > 256) realRoots.clear();
    realRoots.set(abs, real);
  }
  return real;
}

function isInside(parent: string, child: string): boolean {
  const r = path.relative(parent, child);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}

/**
 * THE containment function. Resolves `rel` (relative to the review root) to an absolute real path, following symlinks,
 * and throws ReviewFileError unless it stays inside the review folder. A path that does not exist (yet) is resolved
 * through its deepest existing ancestor, so a later write cannot land outside either.
 */
export async function resolveInReview(root: string, rel: string): Promise<string> {
  const file = toRel(rel);
  if (path.isAbsolute(rel) || /^[a-zA-Z]:/.test(rel) || rel.includes('\0') || file.split('/').includes('..')) {
    throw new ReviewFileError(file || rel, `${printable(rel)} is not a path inside the review folder.`, 'invalid-path');
  }
  const base = await realRoot(root);
  const lexical = path.join(base, ...file.split('/'));
  let probe = lexical;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await fs.realpath(probe);
      const full = rest.length ? path.join(real, ...rest.reverse()) : real;
      if (!isInside(base, full)) {
        throw new ReviewFileError(
          file,
          `${file} leads outside the review folder (${await linkOut(base, file)}); it is not used.`,
          'outside',
        );
      }
      return full;
    } catch (err) {
      if (err instanceof ReviewFileError) throw err;
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        if (code === 'ELOOP') throw new ReviewFileError(file, `${file} is a symbolic link loop.`, 'outside');
        throw new ReviewFileError(file, `${file} cannot be read (${code ?? 'error'}).`);
      }
      // Does a dangling symlink sit here? Its target may be outside: refuse rather than create through it.
      const l = await fs.lstat(probe).catch(() => undefined);
      if (l?.isSymbolicLink()) {
        throw new ReviewFileError(
          file,
          `${file} is a symbolic link to something that does not exist (or lies outside the review); it is not used.`,
          'outside',
        );
      }
      const parent = path.dirname(probe);
      if (parent === probe || !isInside(base, parent)) {
        throw new ReviewFileError(file, `${file} is not inside the review folder.`, 'outside');
      }
      rest.push(path.basename(probe));
      probe = parent;
    }
  }
}

/** Which part of `file` is the symbolic link that leaves the review, in words (only computed for the error message). */
async function linkOut(base: string, file: string): Promise<string> {
  const parts = file.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const partial = parts.slice(0, i).join('/');
    const real = await fs.realpath(path.join(base, ...parts.slice(0, i))).catch(() => undefined);
    if (real !== undefined && !isInside(base, real)) {
      return i === parts.length ? 'a symbolic link' : `${partial} is a symbolic link out of it`;
    }
  }
  return 'a symbolic link';
}

/** stat (symlinks followed) of a contained path; undefined when it does not exist. Throws when it leads outside. */
export async function statInReview(root: string, rel: string): Promise<Stats | undefined> {
  const abs = await resolveInReview(root, rel);
  try {
    return await fs.stat(abs);
  } catch {
    return undefined;
  }
}

/** Names in a folder of the review (contained); undefined when it does not exist. */
export async function listInReview(root: string, rel: string): Promise<string[] | undefined> {
  const abs = await resolveInReview(root, rel);
  try {
    return await fs.readdir(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') throw new ReviewFileError(toRel(rel), `${toRel(rel)} is a file, but it must be a folder.`, 'not-regular');
    throw new ReviewFileError(toRel(rel), `The folder ${toRel(rel)} cannot be read (${code ?? 'error'}).`);
  }
}

const O_NONBLOCK = (fsc as Record<string, number>).O_NONBLOCK ?? 0;
const O_NOCTTY = (fsc as Record<string, number>).O_NOCTTY ?? 0;
const O_NOFOLLOW = (fsc as Record<string, number>).O_NOFOLLOW ?? 0;

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(n % (1024 * 1024) === 0 ? 0 : 1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}

/**
 * Reads a regular file of the review, at most `maxBytes`: contained, opened non-blocking, fstat-checked before a byte is
 * read. Throws ReviewFileError naming the file (missing, outside, not a regular file, too large, unreadable). With `upTo`,
 * only the file's first `upTo` bytes (a header), the whole file's size still held to `maxBytes`.
 */
export async function readReviewBytes(root: string, rel: string, maxBytes: number, upTo?: number): Promise<Buffer> {
  const file = toRel(rel);
  const abs = await resolveInReview(root, file);
  return readRegular(abs, file, maxBytes, true, upTo);
}

/**
 * Reads a file the user named explicitly (a CSV to import, a text file given on the command line), which may lie outside
 * any review: not contained, but with the same checks (opened non-blocking, regular file, byte cap). `shown` is how the
 * file is named in messages.
 */
export async function readNamedFile(absPath: string, shown: string, maxBytes: number): Promise<Buffer> {
  return readRegular(path.resolve(absPath), shown, maxBytes);
}

/**
 * Where an open handle really is (on Linux, /proc/self/fd/<fd> names it), or undefined where the system does not say.
 * After every checked open it must be the checked path itself: a folder on the way swapped for a link between the check
 * and the open (which O_NOFOLLOW on the last name cannot see) shows as a handle somewhere else, and the file is refused
 * before a byte of it is read or written.
 */
export async function handlePath(handle: fs.FileHandle): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    return await fs.readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Opens and reads a regular file at an absolute path, at most maxBytes. `checked`: the path was checked by the room
 * (a real path, or a path with no link at any level): the final name is opened without following a link, and the
 * handle's device and inode must equal the path's after the open, so a file swapped for a link meanwhile is refused.
 * `upTo`: only the first `upTo` bytes (see readReviewBytes).
 */
export async function readRegular(abs: string, file: string, maxBytes: number, checked = false, upTo?: number): Promise<Buffer> {
  // A regular file replaced by another regular file between the open and the check is a writer's atomic rename
  // (the driver saving run.json while the panel or `say` reads it): opened again, a few times at most.
  for (let attempt = 1; ; attempt++) {
    try {
      return await readRegularOnce(abs, file, maxBytes, checked, upTo);
    } catch (err) {
      if (!(err instanceof ReplacedByFile) || attempt >= REOPENS) {
        throw err instanceof ReplacedByFile
          ? new ReviewFileError(file, `${file} was replaced while it was being opened; it is not read.`, 'outside')
          : err;
      }
    }
  }
}

/** How many times a read re-opens a file that another process keeps replacing (by rename) while it opens it. */
const REOPENS = 5;

/** Thrown by readRegularOnce when the checked path now holds another regular file (not a link) than the one opened. */
class ReplacedByFile extends Error {}

async function readRegularOnce(abs: string, file: string, maxBytes: number, checked: boolean, upTo = Infinity): Promise<Buffer> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(abs, fsc.O_RDONLY | O_NONBLOCK | O_NOCTTY | (checked ? O_NOFOLLOW : 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ReviewFileError(file, `${file} is missing.`, 'missing');
    if (code === 'EISDIR') throw new ReviewFileError(file, `${file} is a folder, but it must be a file.`, 'not-regular');
    if (code === 'ENXIO')
      throw new ReviewFileError(file, `${file} is not a regular file (a socket or a device); it is not read.`, 'not-regular');
    if (code === 'ELOOP')
      throw new ReviewFileError(file, `${file} is a symbolic link (or was replaced by one); it is not followed.`, 'outside');
    if (code === 'EACCES' || code === 'EPERM') throw new ReviewFileError(file, `${file} could not be opened (permission denied).`);
    throw new ReviewFileError(file, `${file} could not be opened (${code ?? 'error'}).`);
  }
  try {
    const st = await handle.stat();
    if (checked) {
      const now = await fs.lstat(abs).catch(() => undefined);
      if (!now || now.dev !== st.dev || now.ino !== st.ino) {
        if (now?.isFile() && st.isFile()) throw new ReplacedByFile();
        throw new ReviewFileError(file, `${file} was replaced while it was being opened; it is not read.`, 'outside');
      }
      const where = await handlePath(handle);
      if (where !== undefined && where !== abs) {
        throw new ReviewFileError(
          file,
          `${file} was reached through a folder replaced by a link while it was being opened; it is not read.`,
          'outside',
        );
      }
    }
    if (!st.isFile()) {
      throw new ReviewFileError(file, `${file} is ${kindOf(st)}, not a regular file; it is not read.`, 'not-regular');
    }
    if (st.size > maxBytes) {
      throw new ReviewFileError(file, `${file} is too large (${formatBytes(st.size)}; at most ${formatBytes(maxBytes)}).`, 'too-large');
    }
    // Read at most maxBytes + 1, in case the file grows between fstat and read; only the first upTo bytes when asked
    // for fewer than the whole file (its size still within the cap).
    const head = upTo < st.size;
    const buf = Buffer.alloc(head ? upTo : Math.min(st.size, maxBytes) + 1);
    let got = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got >= buf.length) break;
    }
    if (!head && got > maxBytes) {
      throw new ReviewFileError(file, `${file} is too large (more than ${formatBytes(maxBytes)}).`, 'too-large');
    }
    return buf.subarray(0, got);
  } catch (err) {
    if (err instanceof ReviewFileError || err instanceof ReplacedByFile) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new ReviewFileError(file, `${file} could not be read (${code ?? 'error'}).`);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Like readReviewBytes, decoded as UTF-8 (a leading byte-order mark dropped). Invalid UTF-8 is an error naming the file. */
export async function readReviewText(root: string, rel: string, maxBytes: number): Promise<string> {
  const bytes = await readReviewBytes(root, rel, maxBytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ReviewFileError(toRel(rel), `${toRel(rel)} is not UTF-8 text; save it again with UTF-8 encoding.`);
  }
}

/** The absolute path of `file` with its folder resolved and contained, its last name left as it is (not followed). */
async function lastNameIn(root: string, file: string): Promise<string> {
  if (file === '' || file.split('/').includes('..'))
    throw new ReviewFileError(file, `${printable(file)} is not a path inside the review folder.`, 'invalid-path');
  const dir = path.posix.dirname(file);
  return path.join(await resolveInReview(root, dir === '.' ? '' : dir), path.posix.basename(file));
}

/**
 * lstat (symlinks NOT followed) of a contained path: the folder is resolved and contained, the last name is not
 * followed, so a caller can refuse a link. Undefined when nothing is there.
 */
export async function lstatInReview(root: string, rel: string): Promise<Stats | undefined> {
  const abs = await lastNameIn(root, toRel(rel));
  try {
    return await fs.lstat(abs);
  } catch {
    return undefined;
  }
}
