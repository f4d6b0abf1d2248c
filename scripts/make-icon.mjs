#!/usr/bin/env node
// Makes media/icon.png (the Marketplace icon, 256 × 256) from media/teamfusion.svg (the activity-bar glyph): the glyph
// in white on a rounded square of the brand colour. Run it after changing the SVG and commit the PNG:
//   node scripts/make-icon.mjs
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SIZE = 256;
const BRAND = '#2f4a9e';

const glyph = readFileSync(join(repo, 'media/teamfusion.svg'), 'utf8')
  .replace(/currentColor/g, '#ffffff')
  .replace(/<svg\b[^>]*>/, (tag) => tag.replace(/\swidth="[^"]*"/, '').replace(/\sheight="[^"]*"/, ''));
const inner = glyph.replace(/^[\s\S]*?<svg\b[^>]*>/, '').replace(/<\/svg>\s*$/, '');
const viewBox = /viewBox="([^"]+)"/.exec(glyph)?.[1] ?? '0 0 24 24';
const pad = SIZE * 0.16;
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">
  <rect width="${SIZE}" height="${SIZE}" rx="${SIZE * 0.18}" fill="${BRAND}"/>
  <svg x="${pad}" y="${pad}" width="${SIZE - 2 * pad}" height="${SIZE - 2 * pad}" viewBox="${viewBox}" fill="none" stroke="#ffffff" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">${inner}</svg>
</svg>`;
const out = join(repo, 'media/icon.png');
await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toFile(out);
console.log(`wrote media/icon.png (${SIZE} × ${SIZE})`);
