/**
 * Trust a push cannot turn off (issue 39, item 4): review.yaml's identities — each member's `team.<id>.git` and the `lead` —
 * change only by the lead's own commit. review.yaml's history is read oldest first: its first commit's values stand; a later
 * commit that changes them counts only when its author is one of the lead's e-mails as they stood (without a lead, the
 * author of review.yaml's first commit); otherwise the previous values stand and the change is listed as not counted. A
 * change not committed yet counts only on the lead's own machine.
 */
import { parseDocumentUnique } from '../kernel/yaml';
import { designerKey } from '../rankings/designerId';
import { runGit, runGitBytes } from './git';
import { printable } from '../kernel/text';
import { signerEmail, type IdentitySettings } from './rule';

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
    if ((a.git.get(k)?.emails.join() ?? '') !== (b.git.get(k)?.emails.join() ?? ''))
      out.push(`team.${b.git.get(k)?.id ?? a.git.get(k)?.id}.git`);
  }
  if ((a.lead ?? '') !== (b.lead ?? '')) out.push('lead');
  return out;
}

/** One commit of review.yaml: its author and, where signatures are required, whether git accepts its signature and whose. */
interface YamlCommit {
  commit: string;
  email: string;
  name: string;
  signature?: { good: boolean; signer: string };
}

/**
 * review.yaml's commits, oldest first, and its text at each (`undefined` where git has none): one `git log` for the commits
 * and one `git cat-file --batch` for every text, so reading the history costs two git processes however long it is.
 */
async function yamlHistory(top: string, rel: string, signed: boolean): Promise<{ commit: YamlCommit; text: string | undefined }[]> {
  const sig = signed ? '%G?%x00%GS' : '%x00';
  const log = await runGit(top, ['log', '--reverse', '--no-renames', `--format=%H%x00%ae%x00%an%x00${sig}%x1e`, '--', `:(literal)${rel}`]);
  if (log.code !== 0) return [];
  const commits: YamlCommit[] = log.stdout
    .split('\x1e')
    .map((r) => r.replace(/^\n/, ''))
    .filter((r) => /^[0-9a-f]{40,64}\0/.test(r))
    .map((r) => {
      const [commit = '', email = '', name = '', good = '', signer = ''] = r.split('\0');
      return { commit, email, name, ...(signed ? { signature: { good: good === 'G', signer } } : {}) };
    });
  if (!commits.length) return [];
  const batch = await runGitBytes(top, ['cat-file', '--batch'], commits.map((c) => `${c.commit}:${rel}\n`).join(''));
  const texts = batch.code === 0 ? parseBatch(batch.stdout, commits.length) : [];
  return commits.map((commit, i) => ({ commit, text: texts[i] }));
}

/** `git cat-file --batch` output: per object `<oid> <type> <size>\n<bytes>\n`, or `<name> missing\n`. */
function parseBatch(out: Buffer, n: number): (string | undefined)[] {
  const texts: (string | undefined)[] = [];
  let at = 0;
  while (texts.length < n && at < out.length) {
    const eol = out.indexOf(10, at);
    if (eol < 0) break;
    const header = out.subarray(at, eol).toString('utf8').split(' ');
    at = eol + 1;
    const size = Number(header[2]);
    if (header.length !== 3 || !Number.isSafeInteger(size) || size < 0) {
      texts.push(undefined); // missing (or not a blob): no text at that commit
      continue;
    }
    texts.push(header[1] === 'blob' ? out.subarray(at, at + size).toString('utf8') : undefined);
    at += size + 1;
  }
  return texts;
}

/**
 * The identity settings that stand for the review.yaml at `rel` (relative to the repository's top `top`), with `current` its
 * working copy's; and the changes that do not count. A review.yaml git has never seen stands as it is. `requireSigned`: the
 * lead's commit of a change must carry a signature git accepts, by a key whose signer is one of the lead's e-mails.
 */
export async function standingIdentities(
  top: string,
  rel: string,
  current: IdentitySettings & { lead?: string },
  ownEmail: string | undefined,
  requireSigned = false,
): Promise<{ settings: IdentitySettings; refused: IdentityChangeRefused[] }> {
  const history = await yamlHistory(top, rel, requireSigned);
  if (!history.length) return { settings: current, refused: [] };
  const refused: IdentityChangeRefused[] = [];
  let accepted: Idents | undefined;
  let founder = '';
  const leadEmails = (i: Idents): string[] => (i.lead ? (i.git.get(i.lead)?.emails ?? []) : founder ? [founder] : []);
  const judge = (next: Idents, c: Pick<YamlCommit, 'commit' | 'email' | 'signature'>, uncommitted = false): void => {
    if (!accepted) {
      accepted = next;
      return;
    }
    const changed = changes(accepted, next);
    if (!changed.length) return;
    const lead = leadEmails(accepted);
    const who = accepted.lead
      ? `the lead (${accepted.git.get(accepted.lead)?.id ?? accepted.lead})`
      : `the lead (none is named, so review.yaml's first author, ${founder})`;
    const refuse = (reason: string): void =>
      void refused.push({
        commit: c.commit,
        author: c.email,
        member: changed.map((x) => x.replace(/^team\.|\.git$/g, '')).join(', '),
        reason: `it changes ${changed.join(', ')}, which only ${who} may change, ${reason}`,
      });
    if (!lead.includes(c.email.toLowerCase())) return refuse('so the previous values stand');
    // Signatures where required: the lead's commit counts only signed by a key bound to one of the lead's e-mails.
    if (requireSigned && !uncommitted && !(c.signature?.good && lead.includes(signerEmail(c.signature.signer)))) {
      const by = c.signature?.good
        ? `it is signed by ${printable(signerEmail(c.signature.signer)) || 'a key with no e-mail'}, not by the lead's key`
        : 'git verify-commit does not accept its signature';
      return refuse(`and ${by} (requireSignedCommits: true), so the previous values stand`);
    }
    accepted = next;
  };
  let last: Idents = { git: new Map() };
  for (const { commit, text } of history) {
    if (!founder) founder = commit.email.toLowerCase();
    last = parsed(text ?? '');
    judge(last, commit);
  }
  // The working copy is judged only where it differs from the last commit (a pulled change was judged as its commit).
  const now = identsOf(current);
  if (changes(last, now).length) judge(now, { commit: '(uncommitted)', email: ownEmail ?? '' }, true);
  const standing = accepted!;
  const team: Record<string, { git: string[] }> = {};
  for (const { id, emails } of standing.git.values()) team[id] = { git: emails };
  return { settings: { ...current, team }, refused };
}
