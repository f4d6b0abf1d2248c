/**
 * options/: the candidate images. Ids are file names without extension, listed in natural order and labelled
 * "Image 1 … Image n". Each image is opened with sharp (metadata + a real decode) unless decodeImages is false: then its
 * header alone is read, without loading sharp.
 */
import type { Stats } from 'node:fs';
import * as path from 'node:path';
import { optionalSharp } from '../images/sharp';
import { readImageHeader, type HeaderFacts } from '../images/imageHeader';
import { LIMITS, listInReview, readReviewBytes, ReviewFileError, statInReview } from '../files/reviewFiles';
import type { ReviewOption } from './model';
import type { Diagnostic } from '../diagnostics/diagnostics';
import { error, warning } from '../diagnostics/diagnostics';
import { naturalCompare } from '../kernel/naturalOrder';
import { mapLimited } from '../kernel/limit';

export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 50;
const IMAGE_EXT = /\.(png|jpe?g|webp)$/i;
const MIME_OF_FORMAT: Record<string, ReviewOption['mime']> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

export interface OptionsResult {
  /** Undefined when options/ itself is missing or not a folder. */
  options?: ReviewOption[];
  /** Ids of every image file found (also those that fail to decode), natural order; undefined like options. */
  ids?: string[];
  diagnostics: Diagnostic[];
}

type Probe = { ok: true; width: number; height: number; format: string } | { ok: false; message: string; fileProblem?: boolean };

/**
 * How much of an image a header-only look reads first: a PNG's or WebP's size is in its first 30 bytes, a JPEG's after
 * its metadata segments (EXIF, ICC profile), which this holds for nearly every file; the whole file is read when not.
 */
export const IMAGE_HEAD_BYTES = 256 * 1024;

async function probeImage(root: string, rel: string, decode: boolean): Promise<Probe> {
  // Without a decode (a view, a vote, a comparison) the header is what sharp's metadata would read too: it is read
  // here without loading the image library. Where sharp cannot load, a decode falls back to the header as well.
  const sharp = decode ? optionalSharp() : undefined;
  let bytes: Buffer;
  let head: HeaderFacts | undefined;
  try {
    // From a buffer, not the path: libvips caches by file name, so an image replaced on disk could read stale. Read
    // through the review's file room: contained, a regular file, at most LIMITS.imageBytes; for the header, its head.
    bytes = await readReviewBytes(root, rel, LIMITS.imageBytes, sharp ? undefined : IMAGE_HEAD_BYTES);
    if (!sharp) {
      head = readImageHeader(bytes);
      if (!head && bytes.length === IMAGE_HEAD_BYTES) head = readImageHeader(await readReviewBytes(root, rel, LIMITS.imageBytes));
    }
  } catch (err) {
    if (err instanceof ReviewFileError) return { ok: false, message: err.message, fileProblem: true };
    throw err;
  }
  if (!sharp) {
    if (!head) return { ok: false, message: 'it is not a PNG, JPEG or WebP image' };
    return tooManyPixels(head.width, head.height) ?? { ok: true, ...head };
  }
  try {
    const meta = await sharp(bytes, { failOn: 'error', limitInputPixels: LIMITS.imagePixels }).metadata();
    if (!meta.format || !meta.width || !meta.height) return { ok: false, message: 'it has no readable size' };
    const tooMany = tooManyPixels(meta.width, meta.height);
    if (tooMany) return tooMany;
    // A real decode of every pixel (metadata alone only reads the header); the tiny output keeps it cheap.
    await sharp(bytes, { failOn: 'error', limitInputPixels: LIMITS.imagePixels }).resize(8, 8, { fit: 'inside' }).raw().toBuffer();
    return { ok: true, width: meta.width, height: meta.height, format: meta.format };
  } catch (err) {
    const detail = err instanceof Error ? err.message.split('\n')[0] : '';
    return { ok: false, message: detail ? `the image data is damaged or not an image (${detail})` : 'the image data is damaged' };
  }
}

/** The pixel cap, said the same way whoever read the size. */
function tooManyPixels(width: number, height: number): Probe | undefined {
  if (width * height <= LIMITS.imagePixels) return undefined;
  return { ok: false, message: `it has ${width} × ${height} pixels, more than the ${LIMITS.imagePixels / 1e6} million an image may have` };
}

/** What one image folder holds (options/ or references/): the images that open, every image id found, and the problems. */
export interface ImageFolderScan {
  /** Undefined when the folder is missing or not a folder. */
  images?: ReviewOption[];
  ids?: string[];
  /** The folder exists (as a folder or not). */
  exists: boolean;
  diagnostics: Diagnostic[];
}

export interface ImageFolderRules {
  /** Said in messages: "options" or "references". */
  folder: string;
  /** What the folder holds, in words ("the candidate images"). */
  holds: string;
  /** A file that is not an image: a warning that it is ignored (options/) or an error (references/). */
  strangeFile: 'warning' | 'error';
  /** Names the folder may hold besides images, skipped silently (references/README.md). */
  allowed?: readonly string[];
  /** "option" or "reference": what an id names, in messages. */
  idWord: string;
  /** Most images the folder may hold (checked before any is opened). */
  max: number;
}

/**
 * THE scan of an image folder of a review: contained (every entry through the file room), regular files only, the same
 * formats (.png .jpg .jpeg .webp, checked against the real bytes), caps (count before any decode, bytes, pixels) and id
 * rule (the file name without extension, each once), natural order. Options and references both go through here.
 */
export async function scanImageFolder(root: string, decodeImages: boolean, rules: ImageFolderRules): Promise<ImageFolderScan> {
  const diagnostics: Diagnostic[] = [];
  const dir = rules.folder;
  let stat;
  try {
    stat = await statInReview(root, dir);
  } catch (err) {
    if (!(err instanceof ReviewFileError)) throw err;
    diagnostics.push(error(dir, err.message));
    return { exists: true, diagnostics };
  }
  if (!stat) return { exists: false, diagnostics };
  if (!stat.isDirectory()) {
    diagnostics.push(error(dir, `${dir} is a file, but it must be a folder holding ${rules.holds}.`));
    return { exists: true, diagnostics };
  }
  let names: string[];
  try {
    names = (await listInReview(root, dir)) ?? [];
  } catch {
    diagnostics.push(error(dir, `The ${dir}/ folder could not be read (permission denied?).`));
    return { exists: true, diagnostics };
  }
  names.sort(naturalCompare);

  // Each entry is looked at (contained, then stat) a few at a time (a large folder is mostly waiting on the disk), then
  // judged in order. Dot files (.gitkeep, .DS_Store) and the names the folder allows beside its images are not looked at.
  const looked = new Map(
    await mapLimited(
      names.filter((n) => !n.startsWith('.') && !rules.allowed?.includes(n)),
      8,
      async (name) => [name, await lookAt(root, `${rules.folder}/${name}`)] as const,
    ),
  );
  const byId = new Map<string, string>();
  const candidates: { id: string; name: string }[] = [];
  for (const name of names) {
    const c = imageCandidate(name, looked.get(name), rules, byId, diagnostics);
    if (c) candidates.push(c);
  }
  candidates.sort((a, b) => naturalCompare(a.id, b.id));
  // Cheap caps before expensive work: the count speaks before a single image is decoded.
  if (candidates.length > rules.max) {
    diagnostics.push(
      error(
        dir,
        `${dir}/ has ${candidates.length} images; a review ${rules.folder === 'options' ? 'compares' : 'holds'} at most ${rules.max}. Move some out (no image was opened).`,
      ),
    );
    return { exists: true, diagnostics };
  }

  const images = await probedImages(root, dir, candidates, decodeImages, diagnostics);
  return { images, ids: candidates.map((c) => c.id), exists: true, diagnostics };
}

/** What looking at a folder's entry found: its stat (undefined: it could not be read), or why it is not used. */
type Looked = { entry: Stats | undefined } | { refused: string };

/** Looks at an entry of the review: contained (else why not), then its stat. */
async function lookAt(root: string, rel: string): Promise<Looked> {
  try {
    return { entry: await statInReview(root, rel) };
  } catch (err) {
    if (!(err instanceof ReviewFileError)) throw err;
    return { refused: err.message };
  }
}

/**
 * One entry of the folder as an image to open (id and file name), or undefined when it is skipped (reported or not).
 * `looked`: what lookAt found; undefined for a name skipped before looking, which is skipped here too, unsaid.
 */
function imageCandidate(
  name: string,
  looked: Looked | undefined,
  rules: ImageFolderRules,
  byId: Map<string, string>,
  diagnostics: Diagnostic[],
): { id: string; name: string } | undefined {
  const dir = rules.folder;
  const rel = `${dir}/${name}`;
  if (!looked) return undefined;
  if ('refused' in looked) {
    diagnostics.push(error(rel, looked.refused));
    return undefined;
  }
  const entry = looked.entry;
  if (!entry) {
    diagnostics.push(warning(rel, `${rel} could not be read and is ignored.`));
    return undefined;
  }
  if (!IMAGE_EXT.test(name)) {
    if (rules.strangeFile === 'warning') {
      if (entry.isDirectory()) diagnostics.push(warning(rel, `The folder ${rel} is ignored; ${dir}/ holds only image files.`));
      else diagnostics.push(warning(rel, `${rel} is not a .png, .jpg, .jpeg or .webp image and is ignored.`));
    } else {
      const besides = rules.allowed?.length ? ` (and ${rules.allowed.join(', ')})` : '';
      diagnostics.push(
        error(rel, `${rel} is not a .png, .jpg, .jpeg or .webp image; ${dir}/ holds only images${besides}. Move it out of the folder.`),
      );
    }
    return undefined;
  }
  if (entry.isDirectory()) {
    diagnostics.push(error(rel, `${rel} is a folder, not an image file. Remove it or rename it without an image extension.`));
    return undefined;
  }
  if (!entry.isFile()) {
    diagnostics.push(error(rel, `${rel} is not a regular file (a pipe, socket or device); it is not read.`));
    return undefined;
  }
  const id = name.replace(IMAGE_EXT, '');
  if (id === '') {
    diagnostics.push(error(rel, `${rel} has no name before the extension; rename it, e.g. ${dir}/1${path.extname(name)}.`));
    return undefined;
  }
  const other = byId.get(id);
  if (other !== undefined) {
    diagnostics.push(
      error(
        rel,
        `${rel} and ${dir}/${other} both have the ${rules.idWord} id "${id}". Rename or remove one of them: each ${rules.idWord} needs its own file name.`,
      ),
    );
    return undefined;
  }
  byId.set(id, name);
  return { id, name };
}

/** The candidates opened (a few at a time) and checked as images: real format, extension, size. */
async function probedImages(
  root: string,
  dir: string,
  candidates: readonly { id: string; name: string }[],
  decodeImages: boolean,
  diagnostics: Diagnostic[],
): Promise<ReviewOption[]> {
  const probed = await mapLimited(candidates, 4, async (c) => ({ c, probe: await probeImage(root, `${dir}/${c.name}`, decodeImages) }));
  const images: ReviewOption[] = [];
  for (const { c, probe } of probed) {
    const rel = `${dir}/${c.name}`;
    if (!probe.ok) {
      if (probe.fileProblem) diagnostics.push(error(rel, probe.message));
      else diagnostics.push(error(rel, `${rel} cannot be opened as an image: ${probe.message}. Export it again as PNG, JPEG or WebP.`));
      continue;
    }
    const mime = MIME_OF_FORMAT[probe.format];
    if (!mime) {
      diagnostics.push(error(rel, `${rel} is really a ${probe.format.toUpperCase()} image; save it as PNG, JPEG or WebP.`));
      continue;
    }
    const ext = path.extname(c.name).slice(1).toLowerCase();
    const extFormat = ext === 'jpg' ? 'jpeg' : ext;
    if (extFormat !== probe.format) {
      diagnostics.push(
        warning(
          rel,
          `${rel} is really a ${probe.format.toUpperCase()} image although its name ends in .${ext}; it is read as ${probe.format.toUpperCase()}.`,
        ),
      );
    }
    images.push({
      id: c.id,
      label: '',
      file: rel,
      absPath: path.join(root, dir, c.name),
      mime,
      width: probe.width,
      height: probe.height,
    });
  }
  return images;
}

export async function loadOptions(root: string, decodeImages: boolean): Promise<OptionsResult> {
  const scan = await scanImageFolder(root, decodeImages, {
    folder: 'options',
    holds: 'the candidate images',
    idWord: 'option',
    strangeFile: 'warning',
    max: MAX_OPTIONS,
  });
  const diagnostics = scan.diagnostics;
  if (!scan.exists) {
    diagnostics.push(
      error('options', 'The options/ folder is missing. Create it and put the candidate images in it (2 to 50 .png, .jpg or .webp files).'),
    );
    return { diagnostics };
  }
  if (!scan.images || !scan.ids) return { diagnostics };
  const options = scan.images;
  options.forEach((o, i) => (o.label = `Image ${i + 1}`));

  const found = scan.ids.length;
  if (found < MIN_OPTIONS) {
    diagnostics.push(
      error(
        'options',
        found === 0
          ? 'options/ has no images. Add 2 to 50 candidate images (.png, .jpg, .jpeg or .webp).'
          : `options/ has only ${found} image; a review compares 2 to 50. Add at least one more.`,
      ),
    );
  }
  return { options, ids: scan.ids, diagnostics };
}

/** The option id a file name in options/ gives ("4.png" → "4"); undefined for a name that is not an option image. */
export function optionIdOfName(name: string): string | undefined {
  if (name.startsWith('.') || !IMAGE_EXT.test(name)) return undefined;
  const id = name.replace(IMAGE_EXT, '');
  return id === '' ? undefined : id;
}
