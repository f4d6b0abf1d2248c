/**
 * Trust a push cannot turn off (issue 39, item 4): review.yaml's identities — each member's `team.<id>.git` and the `lead` —
 * change only by the lead's own commit. review.yaml's history is read oldest first: its first commit's values stand; a later
 * commit that changes them counts only when its author is one of the lead's e-mails as they stood (without a lead, the
 * author of review.yaml's first commit); otherwise the previous values stand and the change is listed as not counted. A
 * change not committed yet counts only on the lead's own machine.
 */
import { parseDocumentUnique } from '../kernel/yaml';
import { designerKey } from '../rankings/designerId';
import { runGit } from './git';
import type { IdentitySettings } from './rule';

/** review.yaml's identity part: the lead's id and each member's e-mails (lower case, sorted), keyed by designerKey. */
interface Idents {
  lead?: string;
  git: Map<string, { id: string; emails: string[] }>;
}

/** A change to review.yaml's identities that does not count. */
export interface IdentityChangeRefused {
  commit: string;
  author: string;
  member: string;
  reason: string;
}

function identsOf(settings: IdentitySettings & { lead?: unknown }): Idents {
  const git = new Map<string, { id: string; emails: string[] }>();
  for (const [id, m] of Object.entries(settings.team ?? {})) {
    const raw = m && typeof m === 'object' ? (m as { git?: unknown }).git : undefined;
    const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw.filter((e): e is string => typeof e === 'string') : [];
    if (list.length) git.set(designerKey(id), { id, emails: list.map((e) => e.toLowerCase()).sort() });
  }
  return { ...(typeof settings.lead === 'string' && settings.lead ? { lead: designerKey(settings.lead) } : {}), git };
}

function parsed(text: string): Idents {
  try {
    const doc = parseDocumentUnique(text);
    if (doc.errors.length) return { git: new Map() };
    const y = doc.toJS() as unknown;
    return identsOf(y && typeof y === 'object' ? (y as IdentitySettings & { lead?: unknown }) : {});
  } catch {
    return { git: new Map() };
  }
}

/** What changed from `a` to `b`, as the names said: team.<id>.git and lead. */
function changes(a: Idents, b: Idents): string[] {
  const out: string[] = [];
  for (const k of new Set([...a.git.keys(), ...b.git.keys()])) {
    if ((a.git.get(k)?.emails.join() ?? '') !== (b.git.get(k)?.emails.join() ?? '')) out.push(`team.${b.git.get(k)?.id ?? a.git.get(k)?.id}.git`);
  }
  if ((a.lead ?? '') !== (b.lead ?? '')) out.push('lead');
  return out;
}

/**
 * The identity settings that stand for the review.yaml at `rel` (relative to the repository's top `top`), with `current` its
 * working copy's; and the changes that do not count. A review.yaml git has never seen stands as it is.
 */
export async function standingIdentities(
  top: string,
  rel: string,
  current: IdentitySettings & { lead?: string },
  ownEmail: string | undefined,
): Promise<{ settings: IdentitySettings; refused: IdentityChangeRefused[] }> {
  const log = await runGit(top, ['log', '--reverse', '--no-renames', '--format=%H%x00%ae', '--', `:(literal)${rel}`]);
  const commits = log.code === 0 ? log.stdout.split('\n').filter(Boolean).map((l) => l.split('\0') as [string, string]) : [];
  if (!commits.length) return { settings: current, refused: [] };
  const refused: IdentityChangeRefused[] = [];
  let accepted: Idents | undefined;
  let founder = '';
  const leadEmails = (i: Idents): string[] => (i.lead ? (i.git.get(i.lead)?.emails ?? []) : founder ? [founder] : []);
  const judge = (next: Idents, commit: string, author: string): void => {
    if (!accepted) {
      accepted = next;
      return;
    }
    const changed = changes(accepted, next);
    if (!changed.length) return;
    if (leadEmails(accepted).includes(author.toLowerCase())) {
      accepted = next;
      return;
    }
    const who = accepted.lead ? `the lead (${accepted.git.get(accepted.lead)?.id ?? accepted.lead})` : `the lead (none is named, so review.yaml's first author, ${founder})`;
    refused.push({
      commit,
      author,
      member: changed.map((c) => c.replace(/^team\.|\.git$/g, '')).join(', '),
      reason: `it changes ${changed.join(', ')}, which only ${who} may change, so the previous values stand`,
    });
  };
  let last: Idents = { git: new Map() };
  for (const [commit, author] of commits) {
    if (!founder) founder = (author ?? '').toLowerCase();
    const shown = await runGit(top, ['show', `${commit}:${rel}`]);
    last = parsed(shown.code === 0 ? shown.stdout : '');
    judge(last, commit, author ?? '');
  }
  // The working copy is judged only where it differs from the last commit (a pulled change was judged as its commit).
  const now = identsOf(current);
  if (changes(last, now).length) judge(now, '(uncommitted)', ownEmail ?? '');
  const standing = accepted!;
  const team: Record<string, { git: string[] }> = {};
  for (const { id, emails } of standing.git.values()) team[id] = { git: emails };
  return { settings: { ...current, team }, refused };
}
