/**
 * The authorship report in words (issue 39), for the plain output of validate and compare and for the panel: why nothing
 * is checked, or each file not counted with its member, commit, author and reason; and why a file one member made is not
 * made again by another.
 */
import * as path from 'node:path';
import type { AuthorshipDoor, AuthorshipReport } from './door';
import { NO_EMAILS } from './door';
import { printable } from '../kernel/text';

export function authorshipSentences(r: AuthorshipReport, o: { quietWithoutEmails?: boolean } = {}): string[] {
  if (!r.checked) return r.why && !(o.quietWithoutEmails && r.why === NO_EMAILS) ? [r.why] : [];
  return r.notCounted.map((n) => `Not counted for ${n.member}: ${n.file} (${n.reason}).`);
}

/**
 * Why this machine may not make `rel` (a file of the review one member makes for the team: criteria.json, a run's
 * analysis.json or judge.json) again over the one there, in one sentence; undefined when it may (never committed, this
 * machine is its maker, or nothing is checked). Asked before anything is sent or written: a file remade by anyone but its
 * maker would count for no one once committed.
 */
export async function remakeRefusal(door: AuthorshipDoor, rel: string, again: string): Promise<string | undefined> {
  const by = await door.madeBy(path.join(door.root, ...rel.split('/')));
  if (!by || by.mine) return undefined;
  const who = by.member !== undefined ? `${by.member} (${printable(by.email)})` : printable(by.email);
  return `${rel} was made by ${who}, the author of its first commit, and only its maker ${again}; this machine's git e-mail is not theirs, so nothing was sent or written. To make it anew here, remove it (git rm ${rel}), commit, and run this again.`;
}
