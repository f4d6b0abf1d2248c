/**
 * The walk of `evaluate` (and of the panel's side-by-side): the review folders at or below a folder, never through a link.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { naturalCompare } from '../kernel/naturalOrder';
import { RUNS_DIR } from '../record/paths';

export const SKIP_DIRS = new Set(['node_modules', RUNS_DIR, 'options', 'rankings', 'comments']);
const MAX_DEPTH = 12;
const MAX_FOLDERS = 20_000;

/**
 * Review folders at or below `folder`. Symbolic links are never followed, and a link, FIFO, socket or device met on the
 * way is named to `onSkip` in words (a review cannot lead the walk out of the folder or into a loop); dot folders, runs/
 * and node_modules are passed over quietly. The walk stops, in words, at MAX_DEPTH levels or MAX_FOLDERS folders.
 */
export async function findReviews(folder: string, onSkip?: (rel: string, reason: string) => void): Promise<string[]> {
  const out: string[] = [];
  const base = path.resolve(folder);
  let seen = 0;
  let capped = false;
  const walk = async (dir: string, depth: number, inReview: boolean): Promise<void> => {
    if (depth > MAX_DEPTH || ++seen > MAX_FOLDERS) {
      if (!capped)
        onSkip?.(
          relPath(base, dir),
          `the walk stops here: evaluate looks at most ${MAX_DEPTH} folders deep and ${MAX_FOLDERS} folders in all.`,
        );
      capped = true;
      return;
    }
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const brief = entries.find((e) => e.name === 'brief.md' && e.isFile());
    // A design review has options/, a brief review comments/ (issue 17).
    const work = entries.find((e) => (e.name === 'options' || e.name === 'comments') && e.isDirectory());
    const isReview = Boolean(brief && work);
    if (isReview) out.push(dir);
    // Inside a review, its own loader judges links and special files (a link that stays inside is allowed there).
    const report = !(inReview || isReview);
    for (const e of entries.sort((a, b) => naturalCompare(a.name, b.name))) {
      if (e.name.startsWith('.') || SKIP_DIRS.has(e.name)) continue;
      const rel = relPath(base, path.join(dir, e.name));
      if (e.isSymbolicLink()) {
        if (report) onSkip?.(rel, 'it is a symbolic link, and evaluate does not follow links out of the folder it walks.');
      } else if (e.isFIFO() || e.isSocket() || e.isBlockDevice() || e.isCharacterDevice()) {
        if (report) onSkip?.(rel, 'it is not a file or a folder (a FIFO, socket or device), so it is not read.');
      } else if (e.isDirectory()) await walk(path.join(dir, e.name), depth + 1, inReview || isReview);
    }
  };
  await walk(base, 0, false);
  return out;
}

/** `dir` relative to `base`, forward slashes ("." for `base` itself). */
export function relPath(base: string, dir: string): string {
  return path.relative(base, dir).split(path.sep).join('/') || '.';
}
