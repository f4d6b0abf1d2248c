/**
 * A team on several machines for tests (issue 18): a bare repository and one clone per person in a folder, the review
 * committed at `review/` on `main` with an upstream, each clone with its person's name and e-mail. Used by the unit test of
 * three clones (test/unit/sync) and the e2e of a panel following a run driven from another clone (test/e2e).
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

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
      if (attempt >= attempts || !/\[rejected\]|fetch first|non-fast-forward|\[remote rejected\]|cannot lock ref/.test(String((err as { stderr?: unknown }).stderr ?? err))) throw err;
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
  git(clone[first], 'add', '-A');
  git(clone[first], 'commit', '--quiet', '-m', 'The review');
  git(clone[first], 'push', '--quiet', '-u', 'origin', 'main');
  for (const p of others) {
    execFileSync('git', ['clone', '--quiet', remote, clone[p]], { stdio: 'ignore' });
    configure(p);
  }
  return { remote, clone, review: (p) => path.join(clone[p], 'review') };
}
