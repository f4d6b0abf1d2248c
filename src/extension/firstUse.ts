/**
 * What the activation shell (extension.ts) needs to know without loading the core: the commands it stands in for that
 * package.json does not list, the view ids, and which files are a review's (opening, editing or saving one is a first use).
 */
import * as path from 'node:path';

/** The review panel's webview type (its serializer is the shell's) and the Reviews view's id (package.json). */
export const REVIEW_VIEW_TYPE = 'teamfusion.review';
export const REVIEWS_VIEW_ID = 'teamfusion.reviews';

/** The review files whose change on disk matters (the shell watches them from activation on; the core's ReviewIndex listens). */
export const REVIEW_FILES_GLOB =
  '**/{brief.md,review.yaml,options,options/*,rankings,rankings/*,comments,comments/*.md,runs/*/run.json,runs/*/rerank}';

/** Commands registered by the core that are not in package.json's contributes.commands (tests and scripts use them). */
export const INTERNAL_COMMANDS = ['teamfusion.internal.describeReviewsTree'] as const;

/** brief.md, review.yaml, anything directly in rankings/ or options/, a comment on the brief (comments/*.md). */
export function isReviewFilePath(p: string): boolean {
  const name = path.posix.basename(p);
  const parent = path.posix.basename(path.posix.dirname(p));
  return (
    name === 'brief.md' ||
    name === 'review.yaml' ||
    parent === 'rankings' ||
    parent === 'options' ||
    (parent === 'comments' && /\.md$/i.test(name))
  );
}
