/** isReviewFolder: does this folder look like a review (brief.md, or options/ together with rankings/)? */
import { promises as fs } from 'node:fs';
import { statInReview } from '../files/reviewFiles';

/**
 * What is at `rel` inside `dir`, checked through the review's file room. Something that leads outside the review counts
 * as present (a 'file'), so the folder is still recognised and its diagnostics say what is wrong; nothing outside is read.
 */
async function kind(dir: string, rel: string): Promise<'file' | 'dir' | undefined> {
  try {
    const s = await statInReview(dir, rel);
    return s === undefined ? undefined : s.isDirectory() ? 'dir' : 'file';
  } catch {
    return 'file';
  }
}

export async function isReviewFolder(dir: string): Promise<boolean> {
  const self = await fs.stat(dir).catch(() => undefined);
  if (!self?.isDirectory()) return false;
  if ((await kind(dir, 'brief.md')) === 'file') return true;
  const [options, rankings] = await Promise.all([kind(dir, 'options'), kind(dir, 'rankings')]);
  return options === 'dir' && rankings === 'dir';
}
