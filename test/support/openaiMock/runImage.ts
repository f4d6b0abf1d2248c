/**
 * The scripted demo's image edit: a visible blend of the input images at the first one's size (the best-ranked source
 * leads: weights 1, 1/2, 1/3, … normalised), so a remix looks like its sources, in their shape, not like a test card.
 */
import { editPng, loadSharp } from './png';
import type { UploadedFile } from './types';

export async function blendPng(files: UploadedFile[]): Promise<Buffer> {
  const sharp = await loadSharp();
  if (!sharp) return editPng(files);
  const readable: Buffer[] = [];
  for (const f of files) {
    try {
      await sharp(f.data).metadata();
      readable.push(f.data);
    } catch {
      // Not an image sharp can read: left out of the blend.
    }
  }
  if (readable.length === 0) return editPng(files);
  const { width = 512, height = 512 } = await sharp(readable[0]).metadata();
  const layers = await Promise.all(readable.map((d) => sharp(d).resize(width, height, { fit: 'cover' }).removeAlpha().raw().toBuffer()));
  const weights = layers.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((s, w) => s + w, 0);
  const rgb = Buffer.alloc(width * height * 3);
  for (let i = 0; i < rgb.length; i++) {
    let sum = 0;
    layers.forEach((layer, j) => (sum += layer[i]! * weights[j]!));
    rgb[i] = Math.round(sum / total);
  }
  return sharp(rgb, { raw: { width, height, channels: 3 } }).png().toBuffer();
}
