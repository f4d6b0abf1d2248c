/**
 * Trust a push cannot turn off (issue 39, item 4): review.yaml's identities — each member's `team.<id>.git` and the `lead` —
 * change only by the lead's own commit. review.yaml's history is read oldest first: its first commit's values stand; a later
 * commit that changes them counts only when its author is one of the lead's e-mails as they stood (without a lead, the
 * author of review.yaml's first commit); otherwise the previous values stand and the change is listed as not counted. A
 * change not committed yet counts only on the lead's own machine.
 */
import { parseDocumentUnique } from '../kernel/yaml';
import { designerKey } from '../rankings/designerId';
import { StringDecoder } from 'node:string_decoder';
import { streamGit } from './git';
import { LIMITS } from '../files/reviewFiles';
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
 * The most commits of review.yaml read (oldest first). A history longer than this is not read past it: the identities stand
 * as its first YAML_HISTORY_MAX commits left them, and the rest is listed once as not counted (historyTooLong).
 */
export const YAML_HISTORY_MAX = 2000;

/**
 * review.yaml's commits, oldest first (at most `max`), and its identities at each (`undefined` where git has no text, or
 * a text over review.yaml's byte cap); `beyond`: the first commit not read when there are more. One `git log` and one
 * `git cat-file --batch`, both read as they stream (each text is parsed as it arrives and not kept), and the log stopped
 * once `max` + 1 commits are in: two git processes and bounded memory however long the history is.
 */
async function yamlHistory(
  top: string,
  rel: string,
  signed: boolean,
  max: number,
): Promise<{ history: { commit: YamlCommit; idents: Idents | undefined }[]; beyond?: YamlCommit }> {
  const sig = signed ? '%G?%x00%GS' : '%x00';
  const commits: YamlCommit[] = [];
  const decoder = new StringDecoder('utf8');
  let tail = '';
  const take = (record: string): void => {
    const r = record.replace(/^\n/, '');
    if (!/^[0-9a-f]{40,64}\0/.test(r)) return;
    const [commit = '', email = '', name = '', good = '', signer = ''] = r.split('\0');
    commits.push({ commit, email, name, ...(signed ? { signature: { good: good === 'G', signer } } : {}) });
  };
  const log = await streamGit(
    top,
    ['log', '--reverse', '--no-renames', `--format=%H%x00%ae%x00%an%x00${sig}%x1e`, '--', `:(literal)${rel}`],
    '',
    (chunk) => {
      const records = (tail + decoder.write(chunk)).split('\x1e');
      tail = records.pop() ?? '';
      for (const r of records) if (commits.length <= max) take(r);
      return commits.length <= max;
    },
  );
  if (!log.stopped) {
    if (log.code !== 0) return { history: [] };
    take(tail + decoder.end());
  }
  const beyond = commits.length > max ? commits[max] : undefined;
  const read = commits.slice(0, max);
  if (!read.length) return { history: [] };
  const idents: (Idents | undefined)[] = [];
  const batch = new BatchReader(LIMITS.reviewConfig, (text) => void idents.push(text === undefined ? undefined : parsed(text)));
  const cat = await streamGit(top, ['cat-file', '--batch'], read.map((c) => `${c.commit}:${rel}\n`).join(''), (chunk) => {
    batch.push(chunk);
    return idents.length < read.length;
  });
  const ok = cat.code === 0 && idents.length === read.length;
  return { history: read.map((commit, i) => ({ commit, idents: ok ? idents[i] : undefined })), ...(beyond ? { beyond } : {}) };
}

/**
 * `git cat-file --batch` output read as it streams: per object `<oid> <type> <size>\n<bytes>\n`, or `<name> missing\n`.
 * Each object's text is handed on as it completes (`undefined`: missing, not a blob, or over `cap` bytes, whose bytes are
 * skipped, never held).
 */
class BatchReader {
  private pending = Buffer.alloc(0);
  /** The object being read: bytes still to come (with its closing newline), and its parts when it is kept. */
  private body?: { left: number; parts: Buffer[] | undefined };

  constructor(
    private readonly cap: number,
    private readonly onText: (text: string | undefined) => void,
  ) {}

  push(chunk: Buffer): void {
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (buf.length) {
      if (this.body) {
        const n = Math.min(this.body.left, buf.length);
        this.body.parts?.push(buf.subarray(0, n));
        this.body.left -= n;
        buf = buf.subarray(n);
        if (this.body.left > 0) return;
        const parts = this.body.parts;
        this.body = undefined;
        // The object's bytes without the newline that closes it.
        this.onText(parts && Buffer.concat(parts).subarray(0, -1).toString('utf8'));
        continue;
      }
      const eol = buf.indexOf(10);
      if (eol < 0) {
        this.pending = Buffer.from(buf);
        return;
      }
      const header = buf.subarray(0, eol).toString('utf8').split(' ');
      buf = buf.subarray(eol + 1);
      const size = Number(header[2]);
      if (header.length !== 3 || !Number.isSafeInteger(size) || size < 0) {
        this.onText(undefined); // missing (or not an object): no text at that commit
        continue;
      }
      this.body = { left: size + 1, parts: header[1] === 'blob' && size <= this.cap ? [] : undefined };
      if (!this.body.parts) this.onText(undefined); // said now; its bytes are skipped as they come
    }
  }
}

/** The one line said when review.yaml's history is longer than what is read (YAML_HISTORY_MAX). */
function historyTooLong(beyond: YamlCommit, max: number): IdentityChangeRefused {
  return {
    commit: beyond.commit,
    author: beyond.email,
    member: '',
    reason: `review.yaml has more than ${max} commits and only its first ${max} are read, so the team's git e-mails and the lead stand as those commits left them; this commit and every later one (and any change not committed yet) are not read for them`,
  };
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
  max = YAML_HISTORY_MAX,
): Promise<{ settings: IdentitySettings; refused: IdentityChangeRefused[] }> {
  const { history, beyond } = await yamlHistory(top, rel, requireSigned, max);
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
  for (const { commit, idents } of history) {
    if (!founder) founder = commit.email.toLowerCase();
    last = idents ?? { git: new Map() };
    judge(last, commit);
  }
  if (beyond) refused.push(historyTooLong(beyond, max));
  else {
    // The working copy is judged only where it differs from the last commit (a pulled change was judged as its commit).
    const now = identsOf(current);
    if (changes(last, now).length) judge(now, { commit: '(uncommitted)', email: ownEmail ?? '' }, true);
  }
  const standing = accepted!;
  const team: Record<string, { git: string[] }> = {};
  for (const { id, emails } of standing.git.values()) team[id] = { git: emails };
  return { settings: { ...current, team }, refused };
}
