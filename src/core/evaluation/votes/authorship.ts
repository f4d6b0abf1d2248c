/**
 * Votes speak only as their author (issue 33): `runs/<id>/votes/<designer-id>.yaml` counts only when the commit that made
 * it as it is now is that member's (the vote command rewrites the file whole, so only its last commit must be theirs).
 * The rule and the git reading are the authorship door's (authorship/door.ts).
 */
import * as path from 'node:path';
import type { AuthorshipDoor } from '../../authorship/door';
import { openAuthorship } from '../../authorship/door';
import type { IdentitySettings } from '../../authorship/rule';

/** Why the votes file `rel` (review-relative) may not speak for `designer`, or undefined when it may. */
export type AuthorCheck = (rel: string, designer: string) => Promise<string | undefined>;

/** The check of votes files through `door`, or undefined when the door checks nothing (no e-mails, no git). */
export function voteCheckOf(door: AuthorshipDoor): AuthorCheck | undefined {
  if (!door.checked) return undefined;
  return async (rel, designer) => (await door.check(path.join(door.root, ...rel.split('/')), designer, { latestOnly: true }))?.reason;
}

/** The check for a review's votes files, or undefined when there is nothing to check against (no e-mails, no git). */
export async function voteAuthorCheck(root: string, config: IdentitySettings): Promise<AuthorCheck | undefined> {
  return voteCheckOf(await openAuthorship(root, config));
}
