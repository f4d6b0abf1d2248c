/**
 * PNGs for /images/edits answers: the average of the uploaded images (sharp) with a faint diagonal pattern,
 * or, when nothing decodable was uploaded or sharp is unavailable, a solid colour with the pattern (encoded here with zlib).
 */
import { deflateSync } from 'node:zlib';
import type { UploadedFile } from './types';

export const EDIT_SIZE = 512;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  // The table has 256 entries and the index is masked to a byte, so every lookup is in range.
  for (const byte of buf) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** Encodes 8-bit RGB pixels as a PNG without any native dependency. */
export function encodeRgbPng(rgb: Buffer, width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    rows[y * (width * 3 + 1)] = 0; // filter: none
    rgb.copy(rows, y * (width * 3 + 1) + 1, y * width * 3, (y + 1) * width * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** Darkens every pixel on a diagonal stripe, so a remix is recognisable next to its sources. */
function addPattern(rgb: Buffer, width: number, height: number): void {
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((x + y) % 64 < 4) {
        const i = (y * width + x) * 3;
        for (let k = i; k < i + 3; k++) rgb[k] = Math.round(rgb[k]! * 0.75);
      }
    }
  }
}

/** A solid-colour PNG with the pattern; the colour comes from `seed`. */
export function patternPng(seed = 0, size = EDIT_SIZE): Buffer {
  const rgb = Buffer.alloc(size * size * 3);
  const colour = [0x4f + ((seed * 53) % 120), 0x7a + ((seed * 31) % 100), 0xb3 - ((seed * 17) % 90)];
  for (let p = 0; p < size * size; p++) rgb.set(colour, p * 3);
  addPattern(rgb, size, size);
  return encodeRgbPng(rgb, size, size);
}

type SharpFactory = typeof import('sharp');

let sharpLoad: Promise<SharpFactory | undefined> | undefined;
export function loadSharp(): Promise<SharpFactory | undefined> {
  sharpLoad ??= import('sharp').then(
    (m) => (m as unknown as { default?: SharpFactory }).default ?? (m as unknown as SharpFactory),
    () => undefined,
  );
  return sharpLoad;
}

/** The PNG answered for an image edit of `files`: their pixel average at 512×512 plus the pattern. */
/**
 * The default edit: the mean of the uploads at `size`, patterned. With a `prompt`, its first row carries a stripe drawn
 * from the prompt's hash, so edits asked with different directions (or marked apart by the caller) are different images,
 * as a real model's are.
 */
export async function editPng(files: UploadedFile[], size = EDIT_SIZE, prompt = ''): Promise<Buffer> {
  const sharp = await loadSharp();
  if (sharp) {
    const layers: Buffer[] = [];
    for (const f of files) {
      try {
        layers.push(await sharp(f.data).resize(size, size, { fit: 'cover' }).removeAlpha().raw().toBuffer());
      } catch {
        // Not an image sharp can read: left out of the blend.
      }
    }
    if (layers.length > 0) {
      const rgb = Buffer.alloc(size * size * 3);
      for (let i = 0; i < rgb.length; i++) {
        let sum = 0;
        for (let l = 0; l < layers.length; l++) sum += layers[l]![i]!;
        rgb[i] = Math.round(sum / layers.length);
      }
      addPattern(rgb, size, size);
      if (prompt) stripe(rgb, size, prompt);
      return sharp(rgb, { raw: { width: size, height: size, channels: 3 } })
        .png()
        .toBuffer();
    }
  }
  return patternPng(files.length, size);
}

/** A stripe in the first row whose bytes follow a hash of `text` (FNV-1a, then a linear congruential walk). */
function stripe(rgb: Buffer, width: number, text: string): void {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  for (let i = 0; i < width * 3; i++) {
    h = (Math.imul(h, 1664525) + 1013904223) >>> 0;
    rgb[i] = h >>> 24;
  }
}
