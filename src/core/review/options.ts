/**
 * options/: the candidate images. Ids are file names without extension, listed in natural order and labelled
 * "Image 1 … Image n". Each image is opened with sharp (metadata + a real decode) unless decodeImages is false.
 */
import * as path from 'node:path';
import { optionalSharp } from '../images/sharp';
import { readImageHeader } from '../images/imageHeader';
import { LIMITS, listInReview, readReviewBytes, ReviewFileError, statInReview } from '../files/reviewFiles';
import type { Diagnostic, ReviewOption } from './model';
import { error, warning } from '../diagnostics/diagnostics';
import { naturalCompare } from './naturalOrder';

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

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

type Probe = { ok: true; width: number; height: number; format: string } | { ok: false; message: string; fileProblem?: boolean };

async function probeImage(root: string, rel: string, decode: boolean): Promise<Probe> {
  let bytes: Buffer;
  try {
    // From a buffer, not the path: libvips caches by file name, so an image replaced on disk could read stale. Read
    // through the review's file room: contained, a regular file, at most LIMITS.imageBytes.
    bytes = await readReviewBytes(root, rel, LIMITS.imageBytes);
  } catch (err) {
    if (err instanceof ReviewFileError) return { ok: false, message: err.message, fileProblem: true };
    throw err;
  }
  try {
    const sharp = optionalSharp();
    if (!sharp) {
      // No image library on this platform: the header tells the format and size; pixels are not checked.
      const head = readImageHeader(bytes);
      return head ? { ok: true, ...head } : { ok: false, message: 'it is not a PNG, JPEG or WebP image' };
    }
    const meta = await sharp(bytes, { failOn: 'error', limitInputPixels: LIMITS.imagePixels }).metadata();
    if (!meta.format || !meta.width || !meta.height) return { ok: false, message: 'it has no readable size' };
    if (meta.width * meta.height > LIMITS.imagePixels) {
      return { ok: false, message: `it has ${meta.width} × ${meta.height} pixels, more than the ${LIMITS.imagePixels / 1e6} million an image may have` };
    }
    if (decode) {
      // A real decode of every pixel (metadata alone only reads the header); the tiny output keeps it cheap.
      await sharp(bytes, { failOn: 'error', limitInputPixels: LIMITS.imagePixels }).resize(8, 8, { fit: 'inside' }).raw().toBuffer();
    }
    return { ok: true, width: meta.width, height: meta.height, format: meta.format };
  } catch (err) {
    const detail = err instanceof Error ? err.message.split('\n')[0] : '';
    return { ok: false, message: detail ? `the image data is damaged or not an image (${detail})` : 'the image data is damaged' };
  }
}

export async function loadOptions(root: string, decodeImages: boolean): Promise<OptionsResult> {
  const diagnostics: Diagnostic[] = [];
  let stat;
  try {
    stat = await statInReview(root, 'options');
  } catch (err) {
    if (!(err instanceof ReviewFileError)) throw err;
    diagnostics.push(error('options', err.message));
    return { diagnostics };
  }
  if (!stat) {
    diagnostics.push(error('options', 'The options/ folder is missing. Create it and put the candidate images in it (2 to 50 .png, .jpg or .webp files).'));
    return { diagnostics };
  }
  if (!stat.isDirectory()) {
    diagnostics.push(error('options', 'options is a file, but it must be a folder holding the candidate images.'));
    return { diagnostics };
  }
  let names: string[];
  try {
    names = (await listInReview(root, 'options')) ?? [];
  } catch {
    diagnostics.push(error('options', 'The options/ folder could not be read (permission denied?).'));
    return { diagnostics };
  }
  names.sort(naturalCompare);

  const byId = new Map<string, string>();
  const candidates: { id: string; name: string }[] = [];
  for (const name of names) {
    const rel = `options/${name}`;
    if (name.startsWith('.')) continue; // .gitkeep, .DS_Store
    let entry;
    try {
      entry = await statInReview(root, rel);
    } catch (err) {
      if (!(err instanceof ReviewFileError)) throw err;
      diagnostics.push(error(rel, err.message));
      continue;
    }
    if (!entry) {
      diagnostics.push(warning(rel, `${rel} could not be read and is ignored.`));
      continue;
    }
    if (!IMAGE_EXT.test(name)) {
      if (entry.isDirectory()) diagnostics.push(warning(rel, `The folder ${rel} is ignored; options/ holds only image files.`));
      else diagnostics.push(warning(rel, `${rel} is not a .png, .jpg, .jpeg or .webp image and is ignored.`));
      continue;
    }
    if (entry.isDirectory()) {
      diagnostics.push(error(rel, `${rel} is a folder, not an image file. Remove it or rename it without an image extension.`));
      continue;
    }
    if (!entry.isFile()) {
      diagnostics.push(error(rel, `${rel} is not a regular file (a pipe, socket or device); it is not read.`));
      continue;
    }
    const id = name.replace(IMAGE_EXT, '');
    if (id === '') {
      diagnostics.push(error(rel, `${rel} has no name before the extension; rename it, e.g. options/1${path.extname(name)}.`));
      continue;
    }
    const other = byId.get(id);
    if (other !== undefined) {
      diagnostics.push(
        error(rel, `${rel} and options/${other} both have the option id "${id}". Rename or remove one of them: each option needs its own file name.`),
      );
      continue;
    }
    byId.set(id, name);
    candidates.push({ id, name });
  }
  candidates.sort((a, b) => naturalCompare(a.id, b.id));
  // Cheap caps before expensive work: the count speaks before a single image is decoded.
  if (candidates.length > MAX_OPTIONS) {
    diagnostics.push(error('options', `options/ has ${candidates.length} images; a review compares at most ${MAX_OPTIONS}. Move some out (no image was opened).`));
    return { diagnostics };
  }

  const probes = await mapLimited(candidates, 4, (c) => probeImage(root, `options/${c.name}`, decodeImages));
  const options: ReviewOption[] = [];
  candidates.forEach((c, i) => {
    const rel = `options/${c.name}`;
    const probe = probes[i];
    if (!probe.ok) {
      if (probe.fileProblem) diagnostics.push(error(rel, probe.message));
      else diagnostics.push(error(rel, `${rel} cannot be opened as an image: ${probe.message}. Export it again as PNG, JPEG or WebP.`));
      return;
    }
    const mime = MIME_OF_FORMAT[probe.format];
    if (!mime) {
      diagnostics.push(error(rel, `${rel} is really a ${probe.format.toUpperCase()} image; save it as PNG, JPEG or WebP.`));
      return;
    }
    const ext = path.extname(c.name).slice(1).toLowerCase();
    const extFormat = ext === 'jpg' ? 'jpeg' : ext;
    if (extFormat !== probe.format) {
      diagnostics.push(warning(rel, `${rel} is really a ${probe.format.toUpperCase()} image although its name ends in .${ext}; it is read as ${probe.format.toUpperCase()}.`));
    }
    options.push({
      id: c.id,
      label: '',
      file: rel,
      absPath: path.join(root, 'options', c.name),
      mime,
      width: probe.width,
      height: probe.height,
    });
  });
  options.forEach((o, i) => (o.label = `Image ${i + 1}`));

  const found = candidates.length;
  if (found < MIN_OPTIONS) {
    diagnostics.push(
      error(
        'options',
        found === 0
          ? 'options/ has no images. Add 2 to 50 candidate images (.png, .jpg, .jpeg or .webp).'
          : `options/ has only ${found} image; a review compares 2 to 50. Add at least one more.`,
      ),
    );
  } else if (found > MAX_OPTIONS) {
    diagnostics.push(error('options', `options/ has ${found} images; a review compares at most ${MAX_OPTIONS}. Move some out.`));
  }
  return { options, ids: candidates.map((c) => c.id), diagnostics };
}

/** The option id a file name in options/ gives ("4.png" → "4"); undefined for a name that is not an option image. */
export function optionIdOfName(name: string): string | undefined {
  if (name.startsWith('.') || !IMAGE_EXT.test(name)) return undefined;
  const id = name.replace(IMAGE_EXT, '');
  return id === '' ? undefined : id;
}
