/**
 * scaffoldReview: a new review folder: a copy of the shipped sample, an empty design review template, or a brief review
 * (brief.md and comments/ with one example comment, no options/ or rankings/). Refuses a target
 * that exists and is not an empty folder (throws an Error with a plain sentence; nothing is written then).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { pathExists } from '../kernel/fsUtil';
import { LIMITS, readNamedFile } from '../files/reviewFiles';
import { mkdirInReview, mkdirLocal, writeReviewFile } from '../files/reviewWrites';
import { EXAMPLE_COMMENT } from './commentFile';

const EMPTY_BRIEF = `# Brief title

## The client and the product

Who the client is and what is being launched.

## What we need

The deliverable: format, sizes, where it will appear.

## Audience

Who should stop and look, and what they should feel.

## Must have

- Logo, product shot, call to action …

## Avoid

- Anything the client has ruled out.
`;

const EMPTY_REVIEW_YAML = `# Review settings (all optional). Delete the # in front of a line to use it.
# title: My review
# lead: ana                 # designer id (ranking file name) of the lead designer
# chatModel: gpt-4o
# imageModel: gpt-image-1
# turnsPerAgent: 2          # turns each proxy agent speaks per discussion (1-10)
# iterations: 3             # 1-10
# imageMaxSide: 1024        # long side in px of images sent to the chat model
# team:                     # roles/weights used when a ranking file leaves them out
#   ana: { role: Art Director, weight: 2 }
`;

export type ReviewTemplate = 'sample' | 'empty' | 'brief';

export async function scaffoldReview(target: string, template: ReviewTemplate, sampleDir: string): Promise<void> {
  try {
    const stat = await fs.stat(target);
    if (!stat.isDirectory()) throw new Error(`${target} is a file; choose a new folder for the review.`);
    if ((await fs.readdir(target)).length > 0) throw new Error(`${target} is not empty; choose a new or empty folder for the review.`);
  } catch (err) {
    if (!(err instanceof Error && 'code' in err && err.code === 'ENOENT')) throw err;
  }
  if (template === 'sample') {
    if (!(await pathExists(path.join(sampleDir, 'brief.md')))) throw new Error(`The sample review was not found at ${sampleDir}.`);
    // The target is new or empty (checked above). Every file goes through the file room: read with its checks, written
    // exclusively (never over anything, never through a link); links, FIFOs and other special files are refused in words.
    await mkdirLocal(target);
    await copySample(sampleDir, target);
    return;
  }
  await mkdirLocal(target);
  // Everything below goes through the review's file room, contained in the new folder.
  await writeReviewFile(target, 'brief.md', EMPTY_BRIEF, { exclusive: true });
  await writeReviewFile(target, 'review.yaml', EMPTY_REVIEW_YAML, { exclusive: true });
  if (template === 'brief') {
    await writeReviewFile(target, 'comments/example-member.md', EXAMPLE_COMMENT, { exclusive: true });
    return;
  }
  await writeReviewFile(target, 'options/.gitkeep', '', { exclusive: true });
  await writeReviewFile(target, 'rankings/.gitkeep', '', { exclusive: true });
}

const SAMPLE_MAX_DEPTH = 8;
const SAMPLE_MAX_ENTRIES = 2000;

/** Copies the sample (without its runs) into `target` through the file room, walking with lstat (no link followed). */
async function copySample(sampleDir: string, target: string): Promise<void> {
  let entries = 0;
  const walk = async (rel: string, depth: number): Promise<void> => {
    if (depth > SAMPLE_MAX_DEPTH) throw new Error(`The sample review nests folders too deeply at ${rel}; nothing more is copied.`);
    const dirents = await fs.readdir(path.join(sampleDir, ...rel.split('/').filter(Boolean)), { withFileTypes: true });
    for (const d of dirents) {
      if (++entries > SAMPLE_MAX_ENTRIES)
        throw new Error(`The sample review has more than ${SAMPLE_MAX_ENTRIES} files; nothing more is copied.`);
      const childRel = rel ? `${rel}/${d.name}` : d.name;
      if (depth === 0 && d.name === 'runs') continue; // runs of the sample are not part of a new review
      if (d.isDirectory()) {
        await mkdirInReview(target, childRel);
        await walk(childRel, depth + 1);
      } else if (d.isFile()) {
        const bytes = await readNamedFile(path.join(sampleDir, ...childRel.split('/')), `sample ${childRel}`, LIMITS.imageBytes);
        await writeReviewFile(target, childRel, bytes, { exclusive: true });
      } else {
        throw new Error(
          `The sample review's ${childRel} is ${d.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; it is not copied.`,
        );
      }
    }
  };
  await walk('', 0);
}
