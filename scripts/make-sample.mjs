#!/usr/bin/env node
// Renders the six candidate banners of the sample review (samples/lumen-perfume/options/1.png … 6.png) from SVG with
// sharp. Deterministic; run `node scripts/make-sample.mjs` after changing a design. Output: 1200×800 palette PNGs.
import sharp from 'sharp';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const W = 1200;
const H = 800;
const outDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'samples', 'lumen-perfume', 'options');

/** A perfume bottle: faceted glass body, neck, cap; (x, y) = top-left of the cap, s = scale. */
function bottle(x, y, s, glass, liquid, cap, extra = '') {
  return `<g transform="translate(${x} ${y}) scale(${s})" ${extra}>
    <rect x="38" y="0" width="44" height="46" rx="6" fill="${cap}"/>
    <rect x="48" y="46" width="24" height="22" fill="${cap}" opacity="0.85"/>
    <rect x="0" y="66" width="120" height="170" rx="22" fill="${glass}" stroke="#ffffff" stroke-opacity="0.55" stroke-width="3"/>
    <rect x="10" y="120" width="100" height="106" rx="16" fill="${liquid}"/>
    <rect x="16" y="78" width="14" height="140" rx="7" fill="#ffffff" opacity="0.35"/>
    <text x="60" y="178" font-family="DejaVu Serif" font-size="20" text-anchor="middle" fill="#ffffff" letter-spacing="4">LUMEN</text>
  </g>`;
}

function cta(x, y, w, label, fill, color, radius, stroke = 'none') {
  return `<g><rect x="${x}" y="${y}" width="${w}" height="64" rx="${radius}" fill="${fill}" stroke="${stroke}" stroke-width="3"/>
    <text x="${x + w / 2}" y="${y + 42}" font-family="DejaVu Sans" font-weight="bold" font-size="24" text-anchor="middle" fill="${color}" letter-spacing="2">${label}</text></g>`;
}

const designs = [
  // 1. Night: deep navy, stars, gold bottle centre stage, serif headline, gold CTA.
  `<defs><radialGradient id="g" cx="50%" cy="55%" r="60%"><stop offset="0" stop-color="#23325e"/><stop offset="1" stop-color="#0a0f24"/></radialGradient></defs>
   <rect width="${W}" height="${H}" fill="url(#g)"/>
   ${Array.from({ length: 40 }, (_, i) => `<circle cx="${(i * 397) % W}" cy="${(i * 211) % 360}" r="${1 + (i % 3)}" fill="#f5e6b8" opacity="0.7"/>`).join('')}
   <circle cx="600" cy="470" r="190" fill="#f2c46d" opacity="0.15"/>
   ${bottle(510, 300, 1.5, '#c9a24a', '#f2c46d', '#3b2a0b')}
   <text x="600" y="150" font-family="DejaVu Serif" font-size="92" text-anchor="middle" fill="#f5e6b8" letter-spacing="18">LUMEN</text>
   <text x="600" y="210" font-family="DejaVu Serif" font-style="italic" font-size="32" text-anchor="middle" fill="#d8c7a0">Light, worn close to the skin</text>
   ${cta(490, 690, 220, 'DISCOVER', '#f2c46d', '#0a0f24', 8)}`,
  // 2. Pastel: blush pink, bottle left on a pedestal, copy right, rounded CTA.
  `<rect width="${W}" height="${H}" fill="#f8dfe4"/>
   <circle cx="330" cy="420" r="260" fill="#f3c6cf"/>
   <rect x="200" y="610" width="260" height="70" rx="10" fill="#e8aab6"/>
   ${bottle(250, 250, 1.5, '#f7b8c6', '#e77f98', '#b85c74')}
   <text x="660" y="330" font-family="DejaVu Sans" font-size="84" fill="#9c3d56">Lumen</text>
   <text x="662" y="400" font-family="DejaVu Sans" font-size="30" fill="#a8586d">A soft glow for every day.</text>
   <text x="662" y="445" font-family="DejaVu Sans" font-size="30" fill="#a8586d">Eau de parfum, 50 ml.</text>
   ${cta(662, 520, 250, 'Shop now', '#9c3d56', '#ffffff', 32)}`,
  // 3. Bold split: black/orange halves, huge type, square CTA.
  `<rect width="${W}" height="${H}" fill="#111111"/>
   <polygon points="700,0 1200,0 1200,800 500,800" fill="#ff6a1a"/>
   <text x="60" y="300" font-family="DejaVu Sans" font-weight="bold" font-size="170" fill="#ffffff">LU</text>
   <text x="60" y="470" font-family="DejaVu Sans" font-weight="bold" font-size="170" fill="#ff6a1a">MEN</text>
   <text x="66" y="560" font-family="DejaVu Sans" font-size="34" fill="#dddddd">LOUD. BRIGHT. YOURS.</text>
   ${bottle(820, 190, 2.1, '#222222', '#ff6a1a', '#000000')}
   ${cta(66, 620, 260, 'GET IT NOW', '#ffffff', '#111111', 0)}`,
  // 4. Minimal: white, hairlines, small bottle, lots of space, outlined CTA.
  `<rect width="${W}" height="${H}" fill="#fbfaf7"/>
   <line x1="80" y1="120" x2="1120" y2="120" stroke="#c9c4b8" stroke-width="2"/>
   <line x1="80" y1="680" x2="1120" y2="680" stroke="#c9c4b8" stroke-width="2"/>
   ${bottle(860, 330, 0.9, '#d9d6cf', '#bfb8a8', '#6d675c')}
   <text x="120" y="360" font-family="DejaVu Sans" font-weight="200" font-size="64" fill="#2b2925" letter-spacing="24">L U M E N</text>
   <text x="124" y="420" font-family="DejaVu Sans" font-size="22" fill="#8a8476" letter-spacing="6">EAU DE PARFUM · NO. 1</text>
   ${cta(124, 480, 220, 'EXPLORE', 'none', '#2b2925', 0, '#2b2925')}`,
  // 5. Sunset: purple→orange gradient, glowing rays around the bottle, warm headline.
  `<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#4b1d6b"/><stop offset="0.6" stop-color="#c2416b"/><stop offset="1" stop-color="#f6a04d"/></linearGradient></defs>
   <rect width="${W}" height="${H}" fill="url(#s)"/>
   ${Array.from({ length: 12 }, (_, i) => `<line x1="900" y1="450" x2="${900 + 600 * Math.cos((i * Math.PI) / 6)}" y2="${450 + 600 * Math.sin((i * Math.PI) / 6)}" stroke="#ffd9a0" stroke-width="10" opacity="0.25"/>`).join('')}
   <circle cx="900" cy="450" r="150" fill="#ffd9a0" opacity="0.35"/>
   ${bottle(810, 280, 1.5, '#f6c27a', '#f08a3c', '#5a2048')}
   <text x="90" y="330" font-family="DejaVu Serif" font-size="96" fill="#fff2dc">Lumen</text>
   <text x="94" y="400" font-family="DejaVu Serif" font-style="italic" font-size="34" fill="#ffe1b5">Catch the last light of the day.</text>
   ${cta(94, 470, 280, 'Find your glow', '#fff2dc', '#7a2a55', 32)}`,
  // 6. Botanical: deep green, leaves, bottle among them, pill CTA.
  `<rect width="${W}" height="${H}" fill="#1f3b2d"/>
   ${Array.from({ length: 9 }, (_, i) => `<ellipse cx="${200 + ((i * 137) % 900)}" cy="${120 + ((i * 251) % 560)}" rx="120" ry="40" fill="${i % 2 ? '#2f5a43' : '#3f7556'}" transform="rotate(${(i * 47) % 180} ${200 + ((i * 137) % 900)} ${120 + ((i * 251) % 560)})"/>`).join('')}
   <rect x="620" y="0" width="580" height="800" fill="#1f3b2d" opacity="0.55"/>
   ${bottle(330, 270, 1.6, '#bfe3c8', '#6fbf8e', '#e9d8a6')}
   <text x="680" y="320" font-family="DejaVu Serif" font-size="88" fill="#e9d8a6">LUMEN</text>
   <text x="684" y="380" font-family="DejaVu Sans" font-size="28" fill="#cfe6d6">Green fig, neroli and morning dew.</text>
   ${cta(684, 450, 300, 'Find your light', '#e9d8a6', '#1f3b2d', 32)}`,
];

mkdirSync(outDir, { recursive: true });
for (const [i, body] of designs.entries()) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${body}</svg>`;
  const file = path.join(outDir, `${i + 1}.png`);
  const info = await sharp(Buffer.from(svg)).png({ palette: true, colors: 48, compressionLevel: 9, effort: 10, dither: 0.6 }).toFile(file);
  console.log(`${path.relative(process.cwd(), file)}  ${info.width}×${info.height}  ${Math.round(info.size / 1024)} KB`);
}
