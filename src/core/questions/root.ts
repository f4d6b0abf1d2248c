/**
 * A question's review folder lies under the root its asker allows (the directory `teamfusion mcp` started in, the workspace):
 * resolved against that root, symbolic links followed, anywhere else refused in one sentence.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { QuestionError } from './question';

async function real(p: string): Promise<string> {
  try {
    return await fs.realpath(p);
  } catch {
    // Not there (yet): the nearest existing parent decides where it would be; the loader then says it does not exist.
    const parent = path.dirname(p);
    return parent === p ? p : path.join(await real(parent), path.basename(p));
  }
}

/** The absolute review folder, or a QuestionError when it is outside `root`. */
export async function reviewUnder(root: string, review: string): Promise<string> {
  const base = await real(path.resolve(root));
  const target = await real(path.resolve(base, review));
  const rel = path.relative(base, target);
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    throw new QuestionError(`"${review}" is outside ${base}, the folder these questions are limited to.`);
  }
  return target;
}
