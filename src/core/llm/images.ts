/**
 * Images as the models get them.
 * - Chat: downscaled with sharp (long side ≤ maxSide, never enlarged), EXIF orientation applied, metadata stripped and
 *   re-encoded with fixed options, so the same input gives the same bytes every time (providers' prompt caches hit).
 *   Results are cached by content hash in a cache folder OUTSIDE the review (the review is committed to git).
 * - Image edits: the file itself with its real MIME type, detected by sharp from the bytes (not the extension).
 * Both take the review root and the file relative to it, and read through the review's file room (contained, regular
 * file, at most LIMITS.imageBytes; sharp decodes at most LIMITS.imagePixels).
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LIMITS, readReviewBytes, resolveInReview } from '../files/reviewFiles';
import { mkdirLocal, writeLocalFile } from '../files/reviewWrites';
import { requireSharp } from '../images/sharp';

export const DEFAULT_IMAGE_MAX_SIDE = 1024;
/** Bump when the encoding below changes, so old cache entries are not reused. */
const ENCODING_VERSION = 'v1';

export interface PreparedImage {
  /** `data:<mime>;base64,…` as sent in an `image_url` part. */
  dataUrl: string;
  /** sha256 (hex) of the exact bytes sent. */
  sha256: string;
  mime: 'image/png' | 'image/jpeg';
  bytes: number;
  width: number;
  height: number;
}

export interface PrepareOptions {
  maxSide?: number;
  /** Folder for the content-hash cache; default {@link defaultCacheDir}. `false` disables the cache. */
  cacheDir?: string | false;
}

/** `$XDG_CACHE_HOME/teamfusion`, else `%LOCALAPPDATA%/teamfusion` on Windows, else `~/.cache/teamfusion`. */
export function defaultCacheDir(): string {
  const xdg = process.env.XDG_CACHE_HOME?.trim();
  if (xdg) return path.join(xdg, 'teamfusion');
  const local = process.platform === 'win32' ? process.env.LOCALAPPDATA?.trim() : undefined;
  if (local) return path.join(local, 'teamfusion');
  return path.join(os.homedir(), '.cache', 'teamfusion');
}

/**
 * Two shortcuts in front of the content-hash cache, both keyed by (path, size, modification time, settings):
 * an in-process memo, and a small on-disk index in the cache folder, so that a file already prepared is neither read,
 * hashed nor decoded again — not in the next iteration, and not in the next process (resume, next run).
 * The content-hash entry stays the source of truth: the index only says which entry belongs to an unchanged file.
 */
const memo = new Map<string, PreparedImage>();
const MEMO_LIMIT = 64;

function statKey(absPath: string, st: { size: number; mtimeMs: number }, extra: string): string {
  return `${path.resolve(absPath)}\0${st.size}\0${st.mtimeMs}\0${extra}`;
}

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** sharp options for untrusted image bytes: errors fail, and no more than LIMITS.imagePixels are decoded. */
const SHARP_INPUT = { failOn: 'error', limitInputPixels: LIMITS.imagePixels } as const;

/** stat of a contained file, or a size/time that never matches a memo (the read below then reports the problem). */
async function statForMemo(absPath: string): Promise<{ size: number; mtimeMs: number }> {
  const st = await fs.stat(absPath).catch(() => undefined);
  return st?.isFile() ? st : { size: -1, mtimeMs: Math.random() };
}

export async function prepareImage(reviewRoot: string, file: string, opts: PrepareOptions = {}): Promise<PreparedImage> {
  const maxSide = opts.maxSide ?? DEFAULT_IMAGE_MAX_SIDE;
  const absPath = await resolveInReview(reviewRoot, file);
  const st = await statForMemo(absPath);
  const sk = statKey(absPath, st, `${ENCODING_VERSION}\0${maxSide}`);
  const known = memo.get(sk);
  if (known) return known;

  const cacheDir = opts.cacheDir === false ? undefined : (opts.cacheDir ?? defaultCacheDir());
  const indexFile = cacheDir ? path.join(cacheDir, 'images', 'by-stat', `${sha256(sk)}.json`) : undefined;
  let prepared: PreparedImage | undefined;
  if (cacheDir && indexFile) {
    const key = await fs.readFile(indexFile, 'utf8').then(
      (t) => (JSON.parse(t) as { key?: string }).key,
      () => undefined,
    );
    if (key && /^[0-9a-f]{64}$/.test(key)) prepared = await readCache(path.join(cacheDir, 'images', key));
  }
  if (!prepared) {
    const input = await readReviewBytes(reviewRoot, file, LIMITS.imageBytes);
    const key = sha256(`${sha256(input)}\0${ENCODING_VERSION}\0${maxSide}`);
    const cacheBase = cacheDir ? path.join(cacheDir, 'images', key) : undefined;
    prepared = cacheBase ? await readCache(cacheBase) : undefined;
    if (!prepared) {
      const encoded = await encodeForChat(input, maxSide);
      prepared = describe(encoded.data, encoded.mime, encoded.width, encoded.height);
      if (cacheBase) await writeCache(cacheBase, prepared, encoded.data).catch(() => undefined);
    }
    if (indexFile) {
      await writeLocalFile(indexFile, JSON.stringify({ key })).catch(() => undefined);
    }
  }
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value as string);
  memo.set(sk, prepared);
  return prepared;
}

/** Forgets the in-process memo (tests and benchmarks that measure the disk cache). */
export function clearImageMemo(): void {
  memo.clear();
  factsMemo.clear();
}

/** Transparent images stay PNG (alpha matters to a designer); everything else becomes JPEG q85. */
async function encodeForChat(
  input: Buffer,
  maxSide: number,
): Promise<{ data: Buffer; mime: 'image/png' | 'image/jpeg'; width: number; height: number }> {
  const sharp = requireSharp();
  const meta = await sharp(input, SHARP_INPUT).metadata();
  const pipeline = sharp(input, SHARP_INPUT)
    .rotate()
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true, kernel: 'lanczos3' });
  const transparent = meta.hasAlpha === true;
  const out = transparent
    ? await pipeline.png({ compressionLevel: 9, adaptiveFiltering: false, palette: false, effort: 7 }).toBuffer({ resolveWithObject: true })
    : await pipeline
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 85, chromaSubsampling: '4:2:0', mozjpeg: false, progressive: false, optimiseCoding: true })
        .toBuffer({ resolveWithObject: true });
  return { data: out.data, mime: transparent ? 'image/png' : 'image/jpeg', width: out.info.width, height: out.info.height };
}

function describe(data: Buffer, mime: PreparedImage['mime'], width: number, height: number): PreparedImage {
  return {
    dataUrl: `data:${mime};base64,${data.toString('base64')}`,
    sha256: createHash('sha256').update(data).digest('hex'),
    mime,
    bytes: data.length,
    width,
    height,
  };
}

interface CacheMeta {
  mime: PreparedImage['mime'];
  width: number;
  height: number;
  sha256: string;
}

async function readCache(base: string): Promise<PreparedImage | undefined> {
  try {
    const meta = JSON.parse(await fs.readFile(`${base}.json`, 'utf8')) as CacheMeta;
    const data = await fs.readFile(`${base}.bin`);
    const prepared = describe(data, meta.mime, meta.width, meta.height);
    // A damaged entry is ignored and rewritten.
    return prepared.sha256 === meta.sha256 ? prepared : undefined;
  } catch {
    return undefined;
  }
}

async function writeCache(base: string, p: PreparedImage, data: Buffer): Promise<void> {
  await mkdirLocal(path.dirname(base));
  const meta: CacheMeta = { mime: p.mime, width: p.width, height: p.height, sha256: p.sha256 };
  await writeLocalFile(`${base}.bin`, data);
  await writeLocalFile(`${base}.json`, JSON.stringify(meta));
}

const SHARP_FORMAT_MIME: Record<string, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

const factsMemo = new Map<string, { mime: string; sha256: string }>();

/** A file as an image-edit input: its bytes, the MIME type sharp detects from them, and their sha256. */
export interface ImageFile {
  data: Buffer;
  mime: string;
  sha256: string;
}

/** A file as an image-edit input (ImageFile), read through the review's file room. */
export async function readImageFile(reviewRoot: string, file: string): Promise<ImageFile> {
  const absPath = await resolveInReview(reviewRoot, file);
  const st = await statForMemo(absPath);
  const data = await readReviewBytes(reviewRoot, file, LIMITS.imageBytes);
  const sk = statKey(absPath, st, 'facts');
  let facts = factsMemo.get(sk);
  if (!facts) {
    const { format } = await requireSharp()(data, SHARP_INPUT).metadata();
    facts = { mime: (format && SHARP_FORMAT_MIME[format]) ?? 'application/octet-stream', sha256: sha256(data) };
    if (factsMemo.size >= MEMO_LIMIT) factsMemo.delete(factsMemo.keys().next().value as string);
    factsMemo.set(sk, facts);
  }
  return { data, ...facts };
}

/**
 * One round's reads of edit inputs: each file read once (readImageFile), its bytes held for as long as the round holds
 * this reader; a read that failed is tried again when asked for again. A round reads its candidates while the remix agent
 * thinks, so its edits send them without reading the files again.
 */
export function roundImageReads(reviewRoot: string): (file: string) => Promise<ImageFile> {
  const reads = new Map<string, Promise<ImageFile>>();
  return (file) => {
    let read = reads.get(file);
    if (!read) {
      read = readImageFile(reviewRoot, file);
      reads.set(file, read);
      read.catch(() => reads.delete(file));
    }
    return read;
  };
}

/** Any image bytes (e.g. an edit model's answer) as PNG. Already-PNG bytes are kept as they are. */
export async function toPng(data: Buffer): Promise<Buffer> {
  const sharp = requireSharp();
  const { format } = await sharp(data, SHARP_INPUT).metadata();
  if (format === 'png') return data;
  return sharp(data, SHARP_INPUT).png({ compressionLevel: 9 }).toBuffer();
}
