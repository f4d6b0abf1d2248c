/**
 * A team on several machines for tests (issue 18): a bare repository and one clone per person in a folder, the review
 * committed at `review/` on `main` with an upstream, each clone with its person's name and e-mail. Each member's own files
 * (review.yaml `team: <id>: { git: <email> }`) are committed by that member's e-mail, as a real team's would be (issue 39:
 * a member's file counts only as its member committed it). Used by the unit tests of clones (test/unit/sync, votes) and
 * the e2e of a panel following a run driven from another clone (test/e2e).
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { waitFor } from './waitFor';

/** git in `dir`, never asking for a password; returns stdout. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
}

/**
 * What a person does by hand to share a commit while the driver pushes too: pull (rebase), push, and again when the
 * remote moved on in between (a push rejected as "fetch first", or — both pushing at the same instant — the remote's ref
 * lock taken: "[remote rejected] … cannot lock ref"), a few times at most.
 */
export function pullAndPush(dir: string, attempts = 10): void {
  for (let attempt = 1; ; attempt++) {
    git(dir, 'pull', '--quiet', '--rebase');
    try {
      git(dir, 'push', '--quiet');
      return;
    } catch (err) {
      if (
        attempt >= attempts ||
        !/\[rejected\]|fetch first|non-fast-forward|\[remote rejected\]|cannot lock ref/.test(
          String((err as { stderr?: unknown }).stderr ?? err),
        )
      )
        throw err;
    }
  }
}

export interface GitTeam<P extends string> {
  /** The bare repository (the team's remote, "origin"). */
  remote: string;
  /** Each person's clone. */
  clone: Record<P, string>;
  /** The review folder in a person's clone. */
  review(who: P): string;
}

/**
 * Makes `base`/remote.git and `base`/<person> for every person; the first person commits `seed` as `review/` and pushes it
 * with an upstream; the others clone after that.
 */
export async function makeGitTeam<P extends string>(base: string, seed: string, people: readonly P[]): Promise<GitTeam<P>> {
  const remote = path.join(base, 'remote.git');
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '--quiet', '--bare', remote]);
  const clone = Object.fromEntries(people.map((p) => [p, path.join(base, p)])) as Record<P, string>;
  const configure = (p: P): void => {
    const name = p.charAt(0).toUpperCase() + p.slice(1);
    git(clone[p], 'config', 'user.name', name);
    git(clone[p], 'config', 'user.email', `${p}@example.com`);
  };
  const [first, ...others] = people;
  if (!first) throw new Error('a team needs at least one person');
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'clone', '--quiet', remote, clone[first]], { stdio: 'ignore' });
  await fs.cp(seed, path.join(clone[first], 'review'), { recursive: true });
  configure(first);
  git(clone[first], 'checkout', '--quiet', '-B', 'main');
  const { owned, signed } = await membersFiles(path.join(clone[first], 'review'), people);
  git(clone[first], 'add', '-A');
  if (owned.length) git(clone[first], 'rm', '--quiet', '--cached', '--', ...owned.flatMap((o) => o.files));
  // With requireSignedCommits, each member's seed commit is signed with an ssh key made here, which every clone trusts; so
  // is the first person's commit of the review (its runs' records among it, the driver's), when they are a member.
  const keys = signed ? await signingKeys(base, owned) : undefined;
  const firstOwned = owned.find((o) => o.email.toLowerCase() === `${first}@example.com`);
  const signFirst =
    keys && firstOwned ? ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${keys.key[firstOwned.member]}`, '-c', 'commit.gpgsign=true'] : [];
  git(clone[first], ...signFirst, 'commit', '--quiet', '-m', 'The review');
  for (const o of owned) {
    const sign = keys ? ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${keys.key[o.member]}`, '-c', 'commit.gpgsign=true'] : [];
    git(clone[first], 'add', '--', ...o.files);
    git(
      clone[first],
      '-c',
      `user.name=${o.name}`,
      '-c',
      `user.email=${o.email}`,
      ...sign,
      'commit',
      '--quiet',
      '-m',
      `${o.member}'s files`,
    );
  }
  if (keys) git(clone[first], 'config', 'gpg.ssh.allowedSignersFile', keys.allowed);
  git(clone[first], 'push', '--quiet', '-u', 'origin', 'main');
  for (const p of others) {
    execFileSync('git', ['clone', '--quiet', remote, clone[p]], { stdio: 'ignore' });
    configure(p);
    if (keys) git(clone[p], 'config', 'gpg.ssh.allowedSignersFile', keys.allowed);
  }
  return { remote, clone, review: (p) => path.join(clone[p], 'review') };
}

/**
 * Pulls `who`'s clone until its review holds a run that waits for a person (for `speaker` in iteration `iteration`, when
 * given), and returns that run's id: what a member sees of a run driven from another clone. `detail` goes into the
 * failure message (e.g. the driver's stderr).
 */
export async function pullUntilRunWaits<P extends string>(
  t: GitTeam<P>,
  who: P,
  o: { what: string; patienceMs: number; speaker?: string; iteration?: number; detail?: () => string },
): Promise<string> {
  const runs = path.join(t.review(who), 'runs');
  return waitFor(
    o.what,
    async () => {
      git(t.clone[who], 'pull', '--quiet', '--rebase');
      for (const id of await fs.readdir(runs).catch(() => [] as string[])) {
        // (read while the driver may be rebasing its clone: a file can be away or half there for a moment)
        const r = await fs
          .readFile(path.join(runs, id, 'run.json'), 'utf8')
          .then((text) => JSON.parse(text) as { status?: string; waitingFor?: { speaker?: string; iteration?: number } })
          .catch(() => undefined);
        if (r?.status !== 'waiting') continue;
        if (o.speaker !== undefined && r.waitingFor?.speaker !== o.speaker) continue;
        if (o.iteration !== undefined && r.waitingFor?.iteration !== o.iteration) continue;
        return id;
      }
      return undefined;
    },
    o.patienceMs,
    o.detail,
  );
}

/**
 * The files of each member named in `review`/review.yaml with a git e-mail: a file named for the member's id (any folder:
 * rankings/d1.yaml, comments/d1.md, runs/<id>/votes/d1.yaml, …) or an inbox entry of theirs (d1-….json), paths relative to
 * the clone. The committer is the person whose clone uses that e-mail (<person>@example.com), else the e-mail's own name.
 */
interface Owned {
  member: string;
  name: string;
  email: string;
  files: string[];
}

async function membersFiles(review: string, people: readonly string[]): Promise<{ owned: Owned[]; signed: boolean }> {
  let team: Record<string, { git?: string | string[] } | null> = {};
  let signed = false;
  try {
    const yaml = parse(await fs.readFile(path.join(review, 'review.yaml'), 'utf8')) as {
      team?: typeof team;
      requireSignedCommits?: unknown;
    } | null;
    team = yaml?.team ?? {};
    signed = yaml?.requireSignedCommits === true;
  } catch {
    return { owned: [], signed };
  }
  const all = await walk(review);
  const out: Owned[] = [];
  for (const [member, entry] of Object.entries(team)) {
    const emails = entry?.git === undefined ? [] : Array.isArray(entry.git) ? entry.git : [entry.git];
    const email = emails.find((e) => people.some((p) => e.toLowerCase() === `${p}@example.com`)) ?? emails[0];
    if (!email) continue;
    const id = member.toLowerCase();
    const files = all.filter((f) => {
      const stem = path
        .basename(f)
        .replace(/\.[^.]*$/, '')
        .toLowerCase();
      return stem === id || (path.basename(path.dirname(f)) === 'inbox' && stem.startsWith(`${id}-`));
    });
    if (!files.length) continue;
    const local = email.split('@')[0]!;
    out.push({ member, email, name: local.charAt(0).toUpperCase() + local.slice(1), files: files.map((f) => path.join('review', f)) });
  }
  return { owned: out, signed };
}

/** An ssh signing key per member (base/keys/<member>) and the allowed-signers file naming each key by its member's e-mail. */
async function signingKeys(base: string, owned: readonly Owned[]): Promise<{ key: Record<string, string>; allowed: string }> {
  const dir = path.join(base, 'keys');
  await fs.mkdir(dir, { recursive: true });
  const key: Record<string, string> = {};
  const lines: string[] = [];
  for (const o of owned) {
    key[o.member] = path.join(dir, o.member);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', o.email, '-f', key[o.member]!]);
    lines.push(`${o.email} ${(await fs.readFile(`${key[o.member]}.pub`, 'utf8')).trim()}`);
  }
  const allowed = path.join(dir, 'allowed_signers');
  await fs.writeFile(allowed, `${lines.join('\n')}\n`);
  return { key, allowed };
}

async function walk(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? path.join(rel, e.name) : e.name;
    if (e.isDirectory()) out.push(...(await walk(dir, r)));
    else if (e.isFile()) out.push(r);
  }
  return out;
}
