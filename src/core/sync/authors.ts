/**
 * Identity over git for a run's inbox (issue 29, contract §7) through a transport (the git program or VS Code's git): the
 * rule is the authorship room's (authorship/rule.ts), one place for it; this file only asks the transport for the commits.
 */
import { judgeCommits, type Identities, type Touch } from '../authorship/rule';
import type { GitTransport } from './transport';

export { identitiesOf, UNCHECKED_AUTHORS, type Identities } from '../authorship/rule';

/**
 * Why the file `abs` may not speak for `person` per git, or undefined when it may. Says the commit and its author.
 * An inbox entry is written once: every commit that wrote it must be the person's. A file never committed is this
 * machine's own (the driver's machine writes its own people's entries).
 */
export async function authorProblem(t: GitTransport, abs: string, person: string, ids: Identities): Promise<string | undefined> {
  if (!t.history) return 'this git connection cannot tell who committed it, so it is not taken in while review.yaml names git e-mails';
  const touches: Touch[] = [];
  for (const c of await t.history(abs)) {
    // The transport tells only whether git accepts a signature; the signer is then taken to be the author.
    const good = ids.requireSigned ? Boolean(t.verifyCommit && (await t.verifyCommit(c.commit))) : false;
    touches.push({ ...c, ...(ids.requireSigned ? { signature: { good, signer: c.email } } : {}) });
  }
  return judgeCommits(touches, person, ids)?.reason;
}
