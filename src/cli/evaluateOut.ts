/**
 * Where `evaluate --out <dir>` writes: the folder the user names, inside or outside the evaluated folder (it is theirs, not
 * an untrusted review's). Never through a link (the folder itself and every file written are checked, the folder's real
 * path is used), never into a review's own folders (options/, rankings/, comments/, references/, runs/), and a file that
 * is already there is replaced only with --force.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { checkWritable, mkdirLocal, writeReviewFile } from '../core/files/reviewWrites';
import { printable } from '../core/kernel/text';
import { statInReview } from '../core/files/reviewFiles';
import { writeInertMarkdown } from '../core/files/markdown';

/** A review's folders that only people (or a run) write. */
const REVIEW_OWN = new Set(['options', 'rankings', 'comments', 'references', 'runs']);

/** The real path of `target`: its nearest existing ancestor resolved (links above are the user's own), the rest as named. */
async function realTarget(target: string): Promise<string> {
  let existing = target;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(await fs.realpath(existing), ...rest);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return target;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

async function isReview(dir: string): Promise<boolean> {
  return (await fs.stat(path.join(dir, 'brief.md')).catch(() => undefined))?.isFile() === true;
}

/** The review folder of its own whose inside `dir` is (e.g. …/lumen-perfume/options), else undefined. */
async function reviewOwnFolder(dir: string): Promise<string | undefined> {
  for (let d = dir; path.dirname(d) !== d; d = path.dirname(d)) {
    if (REVIEW_OWN.has(path.basename(d)) && (await isReview(path.dirname(d)))) return d;
  }
  return undefined;
}

export async function writeEvaluationOut(out: string, files: Record<string, string>, force: boolean): Promise<void> {
  const named = path.resolve(out);
  const st = await fs.lstat(named).catch(() => undefined);
  if (st?.isSymbolicLink())
    throw new Error(`${printable(out)} is a symbolic link; the tool never writes through a link: name the folder itself.`);
  if (st && !st.isDirectory()) throw new Error(`--out ${printable(out)} is not a folder.`);
  const dir = await realTarget(named);
  const own = await reviewOwnFolder(dir);
  if (own) {
    throw new Error(
      `--out ${printable(out)} is inside ${printable(own)}, a review's own folder (options/, rankings/, comments/, references/, runs/); name a folder of its own, e.g. ${printable(path.join(path.dirname(path.dirname(own)), 'evaluation'))}.`,
    );
  }
  await mkdirLocal(dir);
  const names = Object.keys(files);
  await checkWritable(dir, names); // a link or a folder at any target refuses them all, before anything is written
  const existing: string[] = [];
  for (const name of names) if (await statInReview(dir, name)) existing.push(name);
  if (existing.length && !force) {
    throw new Error(
      `${printable(out)} already has ${existing.join(', ')}; add --force to replace ${existing.length === 1 ? 'it' : 'them'}.`,
    );
  }
  for (const [name, data] of Object.entries(files)) {
    // evaluation.md carries review and run text: the one Markdown writer makes it inert like every deliverable.
    if (name.endsWith('.md')) await writeInertMarkdown(dir, name, data);
    else await writeReviewFile(dir, name, data);
  }
}
