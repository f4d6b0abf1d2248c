/** Test reviews built in temporary folders: sharp-made option images, a brief, and designers' ranking files. */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';

export interface FixtureOptions {
  options?: number;
  designers?: number;
  /** Long side of the generated images. */
  size?: number;
  /** Write some options as JPEG (their real MIME type is checked in image edits). */
  jpegEvery?: number;
}

const NAMES = ['Ana', 'Ben', 'Chloé', 'Dev', 'Eli', 'Fay'];
const ROLES = ['Art Director', 'Brand Designer', 'Illustrator', 'Copywriter', 'UX Lead', 'Strategist'];

export async function makeTempDir(prefix = 'tf-run-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

/** The bytes made for each (seed, size, format), once per process: sharp draws the same picture to the same bytes. */
const madeImages = new Map<string, Promise<Buffer>>();

export async function makeImage(file: string, seed: number, width: number, height: number, format: 'png' | 'jpeg'): Promise<void> {
  const key = `${seed} ${width}x${height} ${format}`;
  let bytes = madeImages.get(key);
  if (!bytes) {
    bytes = drawImage(seed, width, height, format);
    madeImages.set(key, bytes);
    bytes.catch(() => madeImages.delete(key));
  }
  await fs.writeFile(file, await bytes);
}

async function drawImage(seed: number, width: number, height: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  const hue = (seed * 67) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="hsl(${hue},60%,85%)"/>
    <circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / (3 + (seed % 3))}" fill="hsl(${(hue + 150) % 360},55%,40%)"/>
    <rect x="${width / 10}" y="${(height * 3) / 4}" width="${(width * 4) / 5}" height="${height / 12}" fill="hsl(${(hue + 60) % 360},40%,30%)"/>
  </svg>`;
  const img = sharp(Buffer.from(svg));
  return (format === 'png' ? img.png() : img.jpeg({ quality: 90 })).toBuffer();
}

/** A valid review folder with n options (ids "1"…"n") and m designers (ids "d1"…). Returns its root. */
export async function makeReview(o: FixtureOptions = {}): Promise<string> {
  const n = o.options ?? 6;
  const m = o.designers ?? 4;
  const size = o.size ?? 320;
  const root = await makeTempDir();
  await fs.mkdir(path.join(root, 'options'));
  await fs.mkdir(path.join(root, 'rankings'));
  await fs.writeFile(
    path.join(root, 'brief.md'),
    '# Lumen — perfume launch\n\nA key visual for a new unisex perfume, "Lumen": light, calm, premium, for a young urban audience.\n',
  );
  for (let i = 1; i <= n; i++) {
    const jpeg = o.jpegEvery !== undefined && i % o.jpegEvery === 0;
    await makeImage(path.join(root, 'options', `${i}.${jpeg ? 'jpg' : 'png'}`), i, size, Math.round(size * 0.75), jpeg ? 'jpeg' : 'png');
  }
  for (let d = 0; d < m; d++) {
    const order = Array.from({ length: n }, (_, i) => ((i + d) % n) + 1);
    // One person, one ranking: past the six names, each name gets a number (Ana 2, Ben 2, …).
    const name = d < NAMES.length ? NAMES[d]! : `${NAMES[d % NAMES.length]!} ${Math.floor(d / NAMES.length) + 1}`;
    const lines = [`designer: ${name}`, `role: ${ROLES[d % ROLES.length]}`, 'ranking:'];
    order.forEach((opt, i) => {
      lines.push(
        `  - option: "${opt}"`,
        `    rank: ${i + 1}`,
        `    justification: Option ${opt} ${i < 2 ? 'fits the calm, premium tone' : 'feels too loud for the brief'}.`,
      );
    });
    await fs.writeFile(path.join(root, 'rankings', `d${d + 1}.yaml`), `${lines.join('\n')}\n`);
  }
  return root;
}

const COMMENT_TOPICS = [
  'The goal should be awareness, not sales.',
  'The audience is unclear: young urban buyers or gift buyers?',
  'The tone must stay calm and premium; no shouting.',
  'Mandatories are missing: the logo lock-up and the legal line.',
  'The message tries to say three things at once; pick one.',
  'Ask the client about the budget for outdoor.',
];

/**
 * A brief review (brief.md + comments/<id>.md, no options or rankings) with m members "m1"…; each comment carries a
 * marker MARK-<id> so a test can see which prompts carried it.
 */
export async function makeBriefRunReview(m = 4): Promise<string> {
  const root = await makeTempDir('tf-brief-');
  await fs.mkdir(path.join(root, 'comments'));
  await fs.writeFile(
    path.join(root, 'brief.md'),
    '# Lumen — perfume launch\n\nA key visual for a new unisex perfume, "Lumen": light, calm, premium, for a young urban audience.\n',
  );
  for (let d = 0; d < m; d++) {
    const id = `m${d + 1}`;
    const name = d < NAMES.length ? NAMES[d]! : `Member ${d + 1}`;
    const body = `MARK-${id}. ${COMMENT_TOPICS[d % COMMENT_TOPICS.length]} ${COMMENT_TOPICS[(d + 2) % COMMENT_TOPICS.length]}`;
    await fs.writeFile(
      path.join(root, 'comments', `${id}.md`),
      `---\ndesigner: ${name}\nrole: ${ROLES[d % ROLES.length]}\n---\n\n${body}\n`,
    );
  }
  return root;
}
