/**
 * The one rule of who may speak for a member (issues 29, 33, 39): a file speaks for member X only when every commit that
 * wrote it is X's — authored with one of X's e-mails (review.yaml `team: <id>: { git: <email> | [<email>, …] }`) and,
 * where signatures are required, signed by a key git accepts whose signer is one of X's e-mails — and, when the working
 * copy differs from the last commit, only when this machine's own git identity (`git config user.email`) is X's.
 * The door (door.ts) gathers what git says; this file only judges it.
 */
import { designerKey } from '../rankings/designerId';
import { printable } from '../kernel/text';

export interface Identities {
  /** designerKey(id) → the member's git e-mails, lower case. */
  emails: ReadonlyMap<string, readonly string[]>;
  requireSigned: boolean;
}

/** What a review's settings say about identities (review.yaml `team` and `requireSignedCommits`). */
export interface IdentitySettings {
  team?: Record<string, { git?: string | string[] }>;
  requireSignedCommits?: boolean;
}

/** The team's git identities from review.yaml; undefined when no member names one (files are then not checked). */
export function identitiesOf(config: IdentitySettings): Identities | undefined {
  const emails = new Map<string, string[]>();
  for (const [id, m] of Object.entries(config.team ?? {})) {
    if (m.git === undefined) continue;
    emails.set(
      designerKey(id),
      (Array.isArray(m.git) ? m.git : [m.git]).map((e) => e.toLowerCase()),
    );
  }
  return emails.size ? { emails, requireSigned: config.requireSignedCommits === true } : undefined;
}

/** The sentence said once when review.yaml names no git e-mail (nothing is checked). */
export const UNCHECKED_AUTHORS =
  'Entries that arrive through git are not checked against their authors: review.yaml names no git e-mail for anyone (team: <id>: { git: <email> }).';

/** A commit that wrote a file, as git records it; `signature` only where signatures were asked of git. */
export interface Touch {
  commit: string;
  email: string;
  name: string;
  /** Does git accept its signature, and whose is it (the signer's e-mail or principal, lower case)? */
  signature?: { good: boolean; signer: string };
}

/** Why a file is not counted: the commit and its author that made it so, and the reason in words. */
export interface Verdict {
  commit: string;
  author: string;
  reason: string;
}

/** The e-mail inside a signer as git prints it: `Name <mail>` for OpenPGP, the principal itself for ssh. */
export function signerEmail(s: string): string {
  return (/<([^<>]*)>\s*$/.exec(s)?.[1] ?? s).trim().toLowerCase();
}

/** The first commit of `touches` (newest first) that may not speak for `member`, or undefined when all may. */
export function judgeCommits(touches: readonly Touch[], member: string, ids: Identities): Verdict | undefined {
  const allowed = ids.emails.get(designerKey(member));
  for (const c of touches) {
    const who = `commit ${c.commit.slice(0, 12)} by ${printable(c.name)} <${printable(c.email)}>`;
    const v = (reason: string): Verdict => ({ commit: c.commit, author: c.email, reason: `${who} wrote it, and ${reason}` });
    if (!allowed) return v(`review.yaml gives no git e-mail for ${member}, so no commit can speak for them`);
    if (!allowed.includes(c.email.toLowerCase())) return v(`that is not ${member} (review.yaml team.${member}.git: ${allowed.join(', ')})`);
    if (!ids.requireSigned) continue;
    if (!c.signature?.good) return v('git verify-commit does not accept its signature (requireSignedCommits: true)');
    const signer = signerEmail(c.signature.signer);
    if (!allowed.includes(signer))
      return v(`it is signed by ${printable(signer) || 'a key with no e-mail'}, not by ${member} (requireSignedCommits: true)`);
  }
  return undefined;
}

/** Uncommitted changes speak only for this machine's own git identity. */
export function judgeUncommitted(member: string, ids: Identities, ownEmail: string | undefined): Verdict | undefined {
  const allowed = ids.emails.get(designerKey(member)) ?? [];
  if (ownEmail && allowed.includes(ownEmail.toLowerCase())) return undefined;
  const who = ownEmail ? `this machine's git user.email is ${printable(ownEmail)}` : 'this machine has no git user.email';
  return {
    commit: '(uncommitted)',
    author: ownEmail ?? '',
    reason: `it has changes not committed yet, and ${who}, which is not ${member}${allowed.length ? ` (review.yaml team.${member}.git: ${allowed.join(', ')})` : ''}; uncommitted changes speak only for this machine's own git identity`,
  };
}

/**
 * A run's record is its driver's (issue 39): the driver is the author of the first commit of its run.json (`driverEmail`,
 * undefined when run.json was never committed: this machine's own run); every commit of the file (`touches`, newest
 * first) must be theirs (signed by them where required), and changes not committed yet count only on the driver's own
 * machine. `alone`: what is the driver's alone, in words (default: the run's record).
 */
export function judgeDriver(
  touches: readonly Touch[],
  driverEmail: string | undefined,
  requireSigned: boolean,
  ownEmail: string | undefined,
  dirty: boolean,
  alone = "a run's record is its driver's alone",
): Verdict | undefined {
  if (driverEmail === undefined) return undefined; // never committed: this machine's own run
  return judgeMaker(
    touches,
    driverEmail,
    requireSigned,
    ownEmail,
    dirty,
    `the run's driver is ${printable(driverEmail)} (the author of the first commit of its run.json); ${alone}`,
    "the driver's key",
  );
}

/**
 * A file its maker alone writes (issue 39, item 3): every commit of it (`touches`, newest first) must be by `makerEmail`
 * (signed by them where required), and changes not committed yet count only on the maker's own machine. `said`: who the
 * maker is and why, in words; `key`: whose key a signature must be, in words.
 */
export function judgeMaker(
  touches: readonly Touch[],
  makerEmail: string,
  requireSigned: boolean,
  ownEmail: string | undefined,
  dirty: boolean,
  said: string,
  key = "the maker's key",
): Verdict | undefined {
  const maker = makerEmail.toLowerCase();
  for (const c of touches) {
    const who = `commit ${c.commit.slice(0, 12)} by ${printable(c.name)} <${printable(c.email)}>`;
    if (c.email.toLowerCase() !== maker) return { commit: c.commit, author: c.email, reason: `${who} wrote it, and ${said}` };
    if (requireSigned && !(c.signature?.good && signerEmail(c.signature.signer) === maker)) {
      return { commit: c.commit, author: c.email, reason: `${who} wrote it, and it is not signed by ${key} (requireSignedCommits: true)` };
    }
  }
  if (dirty && ownEmail?.toLowerCase() !== maker) {
    const who = ownEmail ? `this machine's git user.email is ${printable(ownEmail)}` : 'this machine has no git user.email';
    return { commit: '(uncommitted)', author: ownEmail ?? '', reason: `it has changes not committed yet, and ${who}, while ${said}` };
  }
  return undefined;
}
