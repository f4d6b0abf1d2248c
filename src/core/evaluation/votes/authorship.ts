/**
 * Votes speak only as their author (issue 33, like say and pin over `--sync`): when review.yaml names the team's git
 * e-mails (`team: <id>: { git: … }`) and the review is in a git repository, `runs/<id>/votes/<designer-id>.yaml` counts only
 * when the commit that made it as it is now was authored by that member — and, with `requireSignedCommits: true`, only when
 * `git verify-commit` accepts it. The rule itself is the sync room's (`authorProblem`): one place for it. A votes file never
 * committed is this machine's own. Without e-mails in review.yaml, or outside git, nothing is checked.
 */
import * as path from 'node:path';
import type { ReviewConfig } from '../../review/model';
import { authorProblem, identitiesOf } from '../../sync/authors';
import { gitTransportFor } from '../../sync/gitCli';
import { errorMessage } from '../../kernel/errors';

/** Why the votes file `rel` (review-relative) may not speak for `designer`, or undefined when it may. */
export type AuthorCheck = (rel: string, designer: string) => Promise<string | undefined>;

/** The check for a review's votes files, or undefined when there is nothing to check against (no e-mails, no git). */
export async function voteAuthorCheck(root: string, config: Pick<ReviewConfig, 'team' | 'requireSignedCommits'>): Promise<AuthorCheck | undefined> {
  const ids = identitiesOf(config);
  if (!ids) return undefined;
  let t;
  try {
    t = await gitTransportFor(root);
  } catch {
    return undefined; // no git program: nothing can have been pulled, only this machine's own files are here
  }
  if ('unavailable' in t) return undefined;
  const transport = t;
  return async (rel, designer) => {
    try {
      return await authorProblem(transport, path.join(root, ...rel.split('/')), designer, ids, { latestOnly: true });
    } catch (err) {
      return `who committed it cannot be told (${errorMessage(err)})`;
    }
  };
}
