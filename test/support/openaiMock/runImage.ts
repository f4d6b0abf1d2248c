/**
 * The scripted demo's image edit: a visible blend of the input images at the first one's size (the best-ranked source
 * leads: weights 1, 1/2, 1/3, … normalised), so a remix looks like its sources, in their shape, not like a test card.
 * A fork's side leads its own edit: `lead` (the input its side names, sideLead) weighs 1 and the others follow in their
 * order, so the sides of a fork made from the same inputs come out different.
 */
import { editPng, loadSharp } from './png';
import type { UploadedFile } from './types';

/** How a fork's edit is led: the input its prompt's side names and that input's weight (the others: 1/2, 1/3, …). */
export interface SideLead {
  index: number;
  weight: number;
}

/** The input a fork's edit prompt says leads ("This remix takes one side only: Image k leads"), 0-based, if it is one of `n`. */
export function sideLead(prompt: string, n: number): SideLead | undefined {
  const side = /This remix takes one side only: (.+?)\.(?= |\r?\n|$)/.exec(prompt)?.[1];
  if (side === undefined || n === 0) return undefined;
  const k = Number(/^Image (\d+) leads$/.exec(side)?.[1]);
  if (k >= 1 && k <= n) return { index: k - 1, weight: 1 };
  // A side that names no input (a position in words, or an image this edit does not carry): each side still leads its
  // own way, an input and a weight drawn from its words.
  let h = 0;
  for (const ch of side) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return { index: h % n, weight: 1.25 + ((h >>> 8) % 8) / 4 };
}

export async function blendPng(files: UploadedFile[], lead: SideLead = { index: 0, weight: 1 }): Promise<Buffer> {
  const sharp = await loadSharp();
  if (!sharp) return editPng(files);
  const readable: Buffer[] = [];
  const ordered = lead.index > 0 && lead.index < files.length ? [files[lead.index]!, ...files.filter((_, i) => i !== lead.index)] : files;
  for (const f of ordered) {
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
  const weights = layers.map((_, i) => (i === 0 ? lead.weight : 1 / (i + 1)));
  const total = weights.reduce((s, w) => s + w, 0);
  const rgb = Buffer.alloc(width * height * 3);
  for (let i = 0; i < rgb.length; i++) {
    let sum = 0;
    layers.forEach((layer, j) => (sum += layer[i]! * weights[j]!));
    rgb[i] = Math.round(sum / total);
  }
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}
