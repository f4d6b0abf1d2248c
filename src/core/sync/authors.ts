/**
 * Identity over git (issue 29, contract §7): over `--sync`, an inbox entry speaks for the member named in its file name, and
 * it is taken in only when every commit that wrote it was authored by one of that member's e-mails (review.yaml `team:
 * <id>: { git: <email> | [<email>, …] }`) and, with `requireSignedCommits: true`, only when `git verify-commit` accepts
 * each of those commits. A file never committed is this machine's own (written here, by this machine's user).
 */
import type { ReviewConfig } from '../review/model';
import { designerKey } from '../rankings/designerId';
import { printable } from '../kernel/text';
import type { GitTransport } from './transport';

export interface Identities {
  /** designerKey(id) → the member's git e-mails, lower case. */
  emails: ReadonlyMap<string, readonly string[]>;
  requireSigned: boolean;
}

/** The team's git identities from review.yaml; undefined when no member names one (entries are then not checked). */
export function identitiesOf(config: Pick<ReviewConfig, 'team' | 'requireSignedCommits'>): Identities | undefined {
  const emails = new Map<string, string[]>();
  for (const [id, m] of Object.entries(config.team ?? {})) {
    if (m.git === undefined) continue;
    emails.set(designerKey(id), (Array.isArray(m.git) ? m.git : [m.git]).map((e) => e.toLowerCase()));
  }
  return emails.size ? { emails, requireSigned: config.requireSignedCommits === true } : undefined;
}

/** The once-said line of a run through git whose review names no git e-mails. */
export const UNCHECKED_AUTHORS =
  'Entries that arrive through git are not checked against their authors: review.yaml names no git e-mail for anyone (team: <id>: { git: <email> }).';

/**
 * Why the file `abs` may not speak for `person` per git, or undefined when it may. Says the commit and its author.
 * An inbox entry is written once: every commit that wrote it must be the person's. A file the person rewrites whole (a
 * votes file, `latestOnly`) speaks as its last commit made it: only that commit must be theirs, so a member's own vote
 * replaces a forgery of their file.
 */
export async function authorProblem(t: GitTransport, abs: string, person: string, ids: Identities, o: { latestOnly?: boolean } = {}): Promise<string | undefined> {
  const allowed = ids.emails.get(designerKey(person));
  if (!t.history) return 'this git connection cannot tell who committed it, so it is not taken in while review.yaml names git e-mails';
  const all = await t.history(abs); // newest first
  const commits = o.latestOnly ? all.slice(0, 1) : all;
  if (commits.length === 0) return undefined; // written here, never committed: this machine's own file
  for (const c of commits) {
    const who = `commit ${c.commit.slice(0, 12)} by ${printable(c.name)} <${printable(c.email)}>`;
    if (!allowed) return `${who} wrote it, and review.yaml gives no git e-mail for ${person}, so no commit can speak for them`;
    if (!allowed.includes(c.email.toLowerCase())) return `${who} wrote it, and that is not ${person} (review.yaml team.${person}.git: ${allowed.join(', ')})`;
    if (ids.requireSigned && !(t.verifyCommit && (await t.verifyCommit(c.commit)))) {
      return `${who} wrote it, and git verify-commit does not accept its signature (requireSignedCommits: true)`;
    }
  }
  return undefined;
}
