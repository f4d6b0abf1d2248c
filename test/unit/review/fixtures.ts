/**
 * Small builders of review folders in os.tmpdir() for the FORMATS tests: a valid default review that each test
 * breaks in one place, real PNGs made with sharp, and a tree hash to prove that nothing on disk changed.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';

/** File content: text, bytes, a folder, or a generated image. */
export type Content = string | Buffer | { dir: true } | { image: 'png' | 'jpeg' | 'webp'; color?: string; width?: number; height?: number };

export interface ReviewSpec {
  /** Default: a short valid brief. null: no brief.md. */
  brief?: Content | null;
  /** Image file names in options/ (PNG/JPEG/WebP by extension). Default 1.png 2.png 3.png. null: no options/ folder. */
  options?: string[] | null;
  /** rankings/<name> → content. Default: alice.yaml and bob.yaml ranking every option. null: no rankings/ folder. */
  rankings?: Record<string, Content> | null;
  reviewYaml?: Content;
  /** Any further files, by path relative to the review root. */
  extra?: Record<string, Content>;
}

const COLORS = ['#d94c3d', '#3d7dd9', '#3dd97a', '#d9c43d', '#9b3dd9', '#3dd9d0'];

export async function imageBytes(kind: 'png' | 'jpeg' | 'webp', color = '#888888', width = 24, height = 16): Promise<Buffer> {
  const img = sharp({ create: { width, height, channels: 3, background: color } });
  if (kind === 'png') return img.png().toBuffer();
  if (kind === 'jpeg') return img.jpeg().toBuffer();
  return img.webp().toBuffer();
}

export function idOf(fileName: string): string {
  return fileName.replace(/\.(png|jpe?g|webp)$/i, '');
}

/** A valid ranking file in YAML: options ranked in the given order, 1 = first. */
export function rankingYaml(designer: string, order: string[], extra = ''): string {
  const lines = [`designer: ${designer}`, ...(extra ? [extra] : []), 'ranking:'];
  order.forEach((id, i) => {
    lines.push(`  - option: "${id}"`, `    rank: ${i + 1}`, `    justification: Reason ${i + 1} for ${id}.`);
  });
  return `${lines.join('\n')}\n`;
}

export function rankingJson(designer: string, order: string[]): string {
  return `${JSON.stringify(
    { designer, ranking: order.map((option, i) => ({ option, rank: i + 1, justification: `Reason ${i + 1}` })) },
    null,
    2,
  )}\n`;
}

async function write(abs: string, content: Content): Promise<void> {
  await fs.mkdir(path.dirname(abs), { recursive: true });
  if (typeof content === 'string' || Buffer.isBuffer(content)) {
    await fs.writeFile(abs, content);
  } else if ('dir' in content) {
    await fs.mkdir(abs, { recursive: true });
  } else {
    await fs.writeFile(abs, await imageBytes(content.image, content.color, content.width, content.height));
  }
}

const made: string[] = [];

export async function tempDir(prefix = 'tf-formats-'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder the builders made (call from an after() hook). */
export async function cleanupFixtures(): Promise<void> {
  await Promise.all(made.splice(0).map((d) => fs.rm(d, { recursive: true, force: true })));
}

export async function makeReview(spec: ReviewSpec = {}): Promise<string> {
  const root = await tempDir();
  const optionNames = spec.options === undefined ? ['1.png', '2.png', '3.png'] : spec.options;
  const ids = (optionNames ?? []).map(idOf);
  if (spec.brief !== null) await write(path.join(root, 'brief.md'), spec.brief ?? '# Test brief\n\nA banner for a test.\n');
  if (optionNames !== null) {
    await fs.mkdir(path.join(root, 'options'), { recursive: true });
    for (const [i, name] of optionNames.entries()) {
      const ext = path.extname(name).slice(1).toLowerCase();
      const kind = ext === 'jpg' || ext === 'jpeg' ? 'jpeg' : ext === 'webp' ? 'webp' : 'png';
      await write(path.join(root, 'options', name), { image: kind, color: COLORS[i % COLORS.length] });
    }
  }
  const rankings =
    spec.rankings === undefined
      ? { 'alice.yaml': rankingYaml('Alice', ids), 'bob.yaml': rankingYaml('Bob', [...ids].reverse()) }
      : spec.rankings;
  if (rankings !== null) {
    await fs.mkdir(path.join(root, 'rankings'), { recursive: true });
    for (const [name, content] of Object.entries(rankings)) await write(path.join(root, 'rankings', name), content);
  }
  if (spec.reviewYaml !== undefined) await write(path.join(root, 'review.yaml'), spec.reviewYaml);
  for (const [rel, content] of Object.entries(spec.extra ?? {})) await write(path.join(root, rel), content);
  return root;
}

/** A hash of every path, kind, size, mtime and content under root: equal before/after ⇒ nothing changed. */
export async function hashTree(root: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string): Promise<void> => {
    const names = (await fs.readdir(dir)).sort();
    for (const name of names) {
      const abs = path.join(dir, name);
      const st = await fs.lstat(abs);
      hash.update(`${path.relative(root, abs)}|${st.isDirectory() ? 'd' : 'f'}|${st.size}|${st.mtimeMs}\n`);
      if (st.isDirectory()) await walk(abs);
      else if (st.isFile()) hash.update(await fs.readFile(abs));
    }
  };
  await walk(root);
  return hash.digest('hex');
}

/** The repository root (tests run from out/test/unit/review). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');
export const SAMPLE = path.join(REPO_ROOT, 'samples', 'lumen-perfume');

/** A comment on the brief (comments/<id>.md): front matter with the display name (and any extra lines), then the body. */
export function commentMd(designer: string, body: string, extra = ''): string {
  return `---\ndesigner: ${designer}\n${extra ? `${extra}\n` : ''}---\n\n${body}\n`;
}

/** A brief-only review: brief.md and comments/<id>.md per entry (no options/, no rankings/). */
export async function makeBriefReview(
  comments: Record<string, Content>,
  spec: Omit<ReviewSpec, 'options' | 'rankings'> & Pick<ReviewSpec, 'options' | 'rankings'> = {},
): Promise<string> {
  const extra: Record<string, Content> = { ...(spec.extra ?? {}) };
  for (const [name, content] of Object.entries(comments)) extra[`comments/${name}`] = content;
  if (Object.keys(comments).length === 0) extra.comments = { dir: true };
  return makeReview({ options: null, rankings: null, ...spec, extra });
}
