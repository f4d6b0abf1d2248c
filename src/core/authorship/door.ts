/**
 * The one door that says who wrote a file of a review (issue 39). Every reader of a file that speaks for a member
 * (rankings, comments, votes, …) asks `check(file, member)`; the rule is rule.ts's. What git says is read once per
 * folder asked about: one `git log` (the authors, and the signatures where they are required) and one `git status` (the
 * working copy against the last commit), so checking a folder of files costs two git calls, not two per file.
 *
 * Outside git, without git, in a shallow clone, or with a review.yaml that names no git e-mail, nothing is checked and
 * `why` says so in one sentence (today's behaviour: every file counts). A failing git call never counts a file silently:
 * the files it would have judged are not counted, with git's words.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { errorMessage } from '../kernel/errors';
import { printable } from '../kernel/text';
import { GitMissingError, runGit } from './git';
import { designerKey } from '../rankings/designerId';
import { ownRequireSignedCommits } from './ownSettings';
import { standingIdentities } from './identityHistory';
import type { Typist } from './typist';
import {
  identitiesOf,
  judgeCommits,
  judgeDriver,
  judgeMaker,
  judgeUncommitted,
  type Identities,
  type IdentitySettings,
  type Touch,
  type Verdict,
} from './rule';

/** A file left out of every count, and why (contract §8). */
export interface NotCounted {
  /** The file's path in the review (forward slashes). */
  file: string;
  member: string;
  /** The commit that made it so ("(uncommitted)" for changes not committed yet). */
  commit: string;
  /** That commit's author e-mail (this machine's git e-mail for uncommitted changes). */
  author: string;
  reason: string;
}

/** `authorship` of `validate --json` and `compare --json` (contract §8). */
export interface AuthorshipReport {
  checked: boolean;
  why?: string;
  notCounted: NotCounted[];
}

export interface AuthorshipDoor {
  /** The review folder (absolute) the door's report names files against. */
  readonly root: string;
  readonly checked: boolean;
  /** Why nothing is checked, in one sentence (only when `checked` is false). */
  readonly why?: string;
  /**
   * Why `abs` may not speak for `member`, or undefined when it may (always undefined when nothing is checked). A file
   * refused is remembered for the report. `latestOnly`: a file its member's own command rewrites whole (a votes file)
   * speaks as its last commit made it, so only that commit must be theirs.
   */
  check(abs: string, member: string, o?: { latestOnly?: boolean }): Promise<NotCounted | undefined>;
  /**
   * Why the files of a run's folder that its driver alone writes (`owned(fileInRun)`, forward slashes) are not its driver's
   * (rule.ts judgeDriver): each such file there now, committed or not, judged against the author of the first commit of
   * `record` (the run's run.json, whose folder is the run's). Returns those refused, `record` first, then by path, each
   * remembered for the report; none when all are the driver's or nothing is checked.
   */
  checkRecord(record: string, owned: (fileInRun: string) => boolean, o?: { alone?: string }): Promise<NotCounted[]>;
  /**
   * Why `abs`, a file one member makes for the team (criteria.json), is not its maker's, or undefined when it is (issue 39,
   * item 3): its maker is the author of its first commit since it was last created, one of the team; every commit since
   * must be theirs (signed by them where required), and changes not committed yet count only on the maker's machine. A
   * file never committed is this machine's own. Remembered for the report.
   */
  checkMade(abs: string): Promise<NotCounted | undefined>;
  /**
   * The maker of `abs`, a file one member makes for the team (as checkMade: the author of its first commit since it was last
   * created), with the member review.yaml names by that e-mail and whether it is this machine's git e-mail; undefined when
   * it was never committed, git cannot tell, or nothing is checked.
   */
  madeBy(abs: string): Promise<{ email: string; member?: string; mine: boolean } | undefined>;
  /**
   * Reads what git says about the folder `dir` (and everything under it) in one pass now, so that checks of files below it
   * (each run folder of `runs/`) use that pass instead of one each.
   */
  readAhead(dir: string): Promise<void>;
  /**
   * Whether this machine may write the run's record `record` (its run.json): it was never committed, or this machine's git
   * e-mail (`git config user.email`) is its driver's (the author of its first commit). Always true when nothing is checked.
   */
  mayWriteRecord(record: string): Promise<boolean>;
  /**
   * The driver of the run whose record is `record` (the author of its run.json's first commit): their e-mail and the member
   * review.yaml names by it; undefined when it was never committed, git cannot tell, or nothing is checked.
   */
  recordDriver(record: string): Promise<{ email: string; member?: string } | undefined>;
  report(): AuthorshipReport;
  /** Who is at this machine's keyboard (typist.ts); undefined when nothing is checked. */
  readonly typist?: Typist;
}

export const NO_EMAILS =
  "Who wrote each member's file is not checked: review.yaml names no git e-mail for any member (team: <id>: { git: <email> }).";

/** A door that checks nothing, saying why. */
export function uncheckedDoor(root: string, why: string): AuthorshipDoor {
  return {
    root: path.resolve(root),
    checked: false,
    why,
    check: async () => undefined,
    checkRecord: async () => [],
    checkMade: async () => undefined,
    madeBy: async () => undefined,
    readAhead: async () => undefined,
    mayWriteRecord: async () => true,
    recordDriver: async () => undefined,
    report: () => ({ checked: false, why, notCounted: [] }),
  };
}

/** Opens the door for the review at `root` with its settings (review.yaml `team` and `requireSignedCommits`). */
export async function openAuthorship(root: string, settings: IdentitySettings): Promise<AuthorshipDoor> {
  return openAuthorshipFor(root, identitiesOf(settings));
}

/**
 * The door for the review at `root` with the settings its review.yaml has now, of which the identities (`team.<id>.git`,
 * `lead`) stand only as the lead committed them (identityHistory.ts); a change that does not count is listed in the report
 * as a review.yaml not counted.
 */
export async function openReviewAuthorship(root: string, settings: IdentitySettings & { lead?: string }): Promise<AuthorshipDoor> {
  return openAuthorshipFor(root, identitiesOf(settings), settings);
}

/** The door for the review at `root` with the team's identities already read (undefined: no e-mails, nothing checked). */
export async function openAuthorshipFor(
  root: string,
  ids: Identities | undefined,
  reviewYaml?: IdentitySettings & { lead?: string },
): Promise<AuthorshipDoor> {
  if (!ids) return uncheckedDoor(root, NO_EMAILS);
  let top;
  try {
    top = await runGit(root, ['rev-parse', '--show-toplevel', '--is-shallow-repository']);
  } catch (err) {
    if (err instanceof GitMissingError)
      return uncheckedDoor(
        root,
        "Who wrote each member's file is not checked: git was not found on this machine (install git or add it to PATH).",
      );
    throw err;
  }
  if (top.code !== 0) return uncheckedDoor(root, "Who wrote each member's file is not checked: the review is not in a git repository.");
  const [topLevel = '', shallow = ''] = top.stdout.split('\n').map((l) => l.trim());
  if (shallow === 'true') {
    return uncheckedDoor(
      root,
      "Who wrote each member's file is not checked: this clone is shallow, so git cannot tell who wrote the older commits (git fetch --unshallow brings them).",
    );
  }
  const config = async (key: string): Promise<string | undefined> => {
    const o = await runGit(root, ['config', '--get', key]);
    return o.code === 0 ? o.stdout.trim() || undefined : undefined;
  };
  const ownEmail = await config('user.email');
  // A member's own setting (git config, or VS Code's through ownSettings.ts): review.yaml may ask for signatures, never
  // turn off what the member asks.
  const ownSigned = ownRequireSignedCommits() || /^(true|yes|on|1)$/i.test((await config('teamfusion.requireSignedCommits')) ?? '');
  const repoTop = await fs.realpath(topLevel);
  const real = await realRoot(root);
  let standing = ids;
  const refused: NotCounted[] = [];
  if (reviewYaml) {
    const rel = path.relative(repoTop, path.join(real, 'review.yaml')).split(path.sep).join('/');
    const s = await standingIdentities(repoTop, rel, reviewYaml, ownEmail, ids.requireSigned || ownSigned);
    standing = identitiesOf(s.settings) ?? { emails: new Map(), requireSigned: ids.requireSigned };
    for (const r of s.refused) refused.push({ file: 'review.yaml', ...r });
  }
  const door = new GitDoor(
    path.resolve(root),
    repoTop,
    real,
    { ...standing, requireSigned: standing.requireSigned || ownSigned },
    ownEmail,
  );
  for (const r of refused) door.refuse(r);
  return door;
}

async function realRoot(root: string): Promise<string> {
  return fs.realpath(path.resolve(root)).catch(() => path.resolve(root));
}

/** What git says about one folder: the commits that wrote each file (newest first), and the files that differ now. */
interface FolderFacts {
  touches: Map<string, (Touch & { status: string })[]>;
  dirty: Set<string>;
}

class GitDoor implements AuthorshipDoor {
  readonly checked = true;
  private readonly folders = new Map<string, Promise<FolderFacts | { failed: string }>>();
  private readonly refused = new Map<string, NotCounted>();
  readonly typist: Typist;

  constructor(
    readonly root: string,
    private readonly top: string,
    private readonly real: string,
    private readonly ids: Identities,
    private readonly ownEmail: string | undefined,
  ) {
    const own = ownEmail?.toLowerCase();
    const member = own ? [...ids.emails].find(([, emails]) => emails.includes(own))?.[0] : undefined;
    this.typist = {
      ...(ownEmail ? { email: ownEmail } : {}),
      ...(member !== undefined ? { member } : {}),
      requireSigned: ids.requireSigned,
    };
  }

  /** The path in the review and in the repository; undefined when `abs` is not inside the review. */
  private async where(abs: string): Promise<{ file: string; repo: string } | undefined> {
    let rel = path.relative(this.root, path.resolve(abs));
    if (rel.startsWith('..') || path.isAbsolute(rel)) rel = path.relative(this.real, await realRoot(abs));
    if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    const file = rel.split(path.sep).join('/');
    const repo = path.relative(this.top, path.join(this.real, rel)).split(path.sep).join('/');
    return { file, repo };
  }

  private async facts(at: { repo: string }): Promise<FolderFacts | { failed: string }> {
    return this.factsOf(path.posix.dirname(at.repo));
  }

  /** What git says about `dir` (repository-relative), from a pass over it or over a folder above it (readAhead). */
  private factsOf(dir: string): Promise<FolderFacts | { failed: string }> {
    for (let d = dir; ; d = path.posix.dirname(d)) {
      const known = this.folders.get(d);
      if (known) return known;
      if (d === '.' || d === '/' || d === '') break;
    }
    const facts = this.read(dir);
    this.folders.set(dir, facts);
    return facts;
  }

  async readAhead(dir: string): Promise<void> {
    const at = await this.where(dir);
    if (at) void this.factsOf(at.repo === '' ? '.' : at.repo);
  }

  async checkRecord(record: string, owned: (fileInRun: string) => boolean, o: { alone?: string } = {}): Promise<NotCounted[]> {
    const rec = await this.where(record);
    if (!rec) return [];
    const runRepo = path.posix.dirname(rec.repo);
    const runFile = path.posix.dirname(rec.file);
    const f = await this.factsOf(runRepo);
    const inRun = (repo: string): string | undefined => (repo.startsWith(`${runRepo}/`) ? repo.slice(runRepo.length + 1) : undefined);
    const out: NotCounted[] = [];
    const refuse = (fileInRun: string, member: string, verdict: Verdict): void => {
      const n: NotCounted = { file: `${runFile}/${fileInRun}`, member, ...verdict };
      this.refused.set(`${n.file}\0`, n);
      out.push(n);
    };
    if ('failed' in f) {
      refuse(path.posix.basename(rec.repo), '', { commit: '', author: '', reason: `who committed it cannot be told (${f.failed})` });
      return out;
    }
    const history = (repo: string): Touch[] => (f.touches.get(repo) ?? []).filter((t) => t.status !== 'D');
    const first = history(rec.repo).at(-1)?.email;
    if (first === undefined) return out; // never committed: this machine's own run
    const driver = first.toLowerCase();
    // The member the driver's e-mail names in review.yaml (else the e-mail itself): the one person the record speaks for.
    const member = [...this.ids.emails].find(([, emails]) => emails.includes(driver))?.[0] ?? driver;
    // Each file of the folder as it is now: its newest commit did not delete it, or it differs from the last commit.
    const now = new Set<string>();
    for (const [repo, touches] of f.touches) if (touches[0]?.status !== 'D') now.add(repo);
    for (const repo of f.dirty) now.add(repo);
    const recordName = path.posix.basename(rec.repo);
    const files = [...now]
      .flatMap((repo) => {
        const r = inRun(repo);
        return r !== undefined && owned(r) ? [r] : [];
      })
      .sort((a, b) => (a === recordName ? -1 : b === recordName ? 1 : a < b ? -1 : a > b ? 1 : 0));
    for (const fileInRun of files) {
      const repo = `${runRepo}/${fileInRun}`;
      const verdict = judgeDriver(history(repo), first, this.ids.requireSigned, this.ownEmail, f.dirty.has(repo), o.alone);
      if (verdict) refuse(fileInRun, member, verdict);
    }
    return out;
  }

  async checkMade(abs: string): Promise<NotCounted | undefined> {
    const at = await this.where(abs);
    if (!at) return undefined;
    // The file's own history (a file at the review's root would otherwise read the whole review's).
    const f = await this.factsOf(at.repo);
    let verdict: Verdict | undefined;
    let member = '';
    if ('failed' in f) verdict = { commit: '', author: '', reason: `who committed it cannot be told (${f.failed})` };
    else {
      const touches = sinceCreated(f.touches.get(at.repo) ?? []);
      const first = touches.at(-1);
      if (!first) return undefined; // never committed: this machine's own
      const maker = first.email.toLowerCase();
      member = [...this.ids.emails].find(([, emails]) => emails.includes(maker))?.[0] ?? '';
      const by = `commit ${first.commit.slice(0, 12)} by ${printable(first.name)} <${printable(first.email)}>`;
      verdict = member
        ? judgeMaker(
            touches,
            maker,
            this.ids.requireSigned,
            this.ownEmail,
            f.dirty.has(at.repo),
            `its maker is ${member} (${printable(first.email)}, the author of its first commit); it counts only as its maker committed it`,
            `${member}'s key`,
          )
        : {
            commit: first.commit,
            author: first.email,
            reason: `${by} made it, and that is no member of the team (review.yaml team.<id>.git), so it counts for no one`,
          };
    }
    if (!verdict) return undefined;
    const out: NotCounted = { file: at.file, member, ...verdict };
    this.refused.set(`${at.file}\0`, out);
    return out;
  }

  async madeBy(abs: string): Promise<{ email: string; member?: string; mine: boolean } | undefined> {
    const at = await this.where(abs);
    if (!at) return undefined;
    const f = await this.factsOf(at.repo);
    if ('failed' in f) return undefined;
    const first = sinceCreated(f.touches.get(at.repo) ?? []).at(-1);
    if (!first) return undefined;
    const email = first.email.toLowerCase();
    const member = [...this.ids.emails].find(([, emails]) => emails.includes(email))?.[0];
    return { email: first.email, ...(member !== undefined ? { member } : {}), mine: email === this.ownEmail?.toLowerCase() };
  }

  async mayWriteRecord(record: string): Promise<boolean> {
    const rec = await this.where(record);
    if (!rec) return true;
    const r = await this.facts(rec);
    if ('failed' in r) return false;
    const first = (r.touches.get(rec.repo) ?? []).filter((t) => t.status !== 'D').at(-1)?.email;
    return first === undefined || first.toLowerCase() === this.ownEmail?.toLowerCase();
  }

  async recordDriver(record: string): Promise<{ email: string; member?: string } | undefined> {
    const rec = await this.where(record);
    if (!rec) return undefined;
    const r = await this.facts(rec);
    if ('failed' in r) return undefined;
    const email = (r.touches.get(rec.repo) ?? []).filter((t) => t.status !== 'D').at(-1)?.email;
    if (email === undefined) return undefined;
    const member = [...this.ids.emails].find(([, emails]) => emails.includes(email.toLowerCase()))?.[0];
    return { email, ...(member !== undefined ? { member } : {}) };
  }

  async check(abs: string, member: string, o: { latestOnly?: boolean } = {}): Promise<NotCounted | undefined> {
    const at = await this.where(abs);
    if (!at) return undefined;
    const f = await this.facts(at);
    let verdict;
    if ('failed' in f) verdict = { commit: '', author: '', reason: `who committed it cannot be told (${f.failed})` };
    else {
      const touches = sinceCreated(f.touches.get(at.repo) ?? []);
      const dirty = f.dirty.has(at.repo) || touches.length === 0;
      // A typist who is no member (typist.ts) is named by their e-mail: the file must be that e-mail's alone.
      const ids = member.includes('@')
        ? { emails: new Map([[designerKey(member), [member.toLowerCase()]]]), requireSigned: this.ids.requireSigned }
        : this.ids;
      verdict =
        judgeCommits(o.latestOnly ? touches.slice(0, 1) : touches, member, ids) ??
        (dirty ? judgeUncommitted(member, ids, this.ownEmail) : undefined);
    }
    if (!verdict) return undefined;
    const out: NotCounted = { file: at.file, member, ...verdict };
    this.refused.set(`${at.file}\0${member}`, out);
    return out;
  }

  /** Lists a file not counted that the door itself found (a review.yaml identity change not the lead's). */
  refuse(n: NotCounted): void {
    this.refused.set(`${n.file}\0${n.commit}`, n);
  }

  report(): AuthorshipReport {
    return { checked: true, notCounted: [...this.refused.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)) };
  }

  private async read(dir: string): Promise<FolderFacts | { failed: string }> {
    const spec = `:(literal)${dir === '.' ? '' : dir}`;
    const sig = this.ids.requireSigned ? '%G?%x00%GS' : '%x00';
    try {
      const [log, status] = await Promise.all([
        runGit(this.top, [
          'log',
          '--no-renames',
          '--diff-filter=AMD',
          `--format=%H%x00%ae%x00%an%x00${sig}`,
          '--name-status',
          '-z',
          '--',
          spec,
        ]),
        runGit(this.top, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', spec]),
      ]);
      if (log.code !== 0 && !/does not have any commits/.test(log.stderr)) return { failed: `git log: ${firstLine(log.stderr)}` };
      if (status.code !== 0) return { failed: `git status: ${firstLine(status.stderr)}` };
      return { touches: log.code === 0 ? parseLog(log.stdout, this.ids.requireSigned) : new Map(), dirty: parseStatus(status.stdout) };
    } catch (err) {
      return { failed: errorMessage(err) };
    }
  }
}

function firstLine(s: string): string {
  return (
    s
      .split('\n')
      .map((l) => l.replace(/^(fatal|error):\s*/, '').trim())
      .find(Boolean) ?? 'it failed'
  );
}

/** The touches of the file as it is now: back to (and with) the commit that last created it; none after a deletion. */
function sinceCreated(all: readonly (Touch & { status: string })[]): Touch[] {
  const out: Touch[] = [];
  for (const t of all) {
    if (t.status === 'D') break;
    out.push(t);
    if (t.status === 'A') break;
  }
  return out;
}

/**
 * `git log --name-status -z` with the format `%H␀%ae␀%an␀<sig>␀<signer>`: NUL-separated tokens, each commit five header
 * tokens then status/path pairs (the first status after a newline). A header starts at a hash where a status is due.
 */
function parseLog(out: string, signed: boolean): Map<string, (Touch & { status: string })[]> {
  const tokens = out.split('\0');
  const map = new Map<string, (Touch & { status: string })[]>();
  let current: Touch | undefined;
  for (let i = 0; i < tokens.length;) {
    const t = tokens[i]!.replace(/^\n/, '');
    if (/^[0-9a-f]{40,64}$/.test(t)) {
      const [, email = '', name = '', good = '', signer = ''] = tokens.slice(i, i + 5);
      current = { commit: t, email, name, ...(signed ? { signature: { good: good === 'G', signer } } : {}) };
      i += 5;
      continue;
    }
    if (/^[A-Z]$/.test(t) && current && i + 1 < tokens.length) {
      const file = tokens[i + 1]!;
      const list = map.get(file) ?? [];
      list.push({ ...current, status: t });
      map.set(file, list);
      i += 2;
      continue;
    }
    i++;
  }
  return map;
}

/** `git status --porcelain=v1 -z`: "XY path" entries; every one listed differs from the last commit (or is new). */
function parseStatus(out: string): Set<string> {
  return new Set(
    out
      .split('\0')
      .filter((e) => e.length > 3)
      .map((e) => e.slice(3)),
  );
}
