/** isReviewFolder: does this folder look like a review (brief.md, or options/ together with rankings/)? */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

async function kind(p: string): Promise<'file' | 'dir' | undefined> {
  try {
    const s = await fs.stat(p);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

export async function isReviewFolder(dir: string): Promise<boolean> {
  if ((await kind(dir)) !== 'dir') return false;
  if ((await kind(path.join(dir, 'brief.md'))) === 'file') return true;
  const [options, rankings] = await Promise.all([kind(path.join(dir, 'options')), kind(path.join(dir, 'rankings'))]);
  return options === 'dir' && rankings === 'dir';
}
