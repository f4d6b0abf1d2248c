/**
 * The git transport over the user's own `git` program (run through authorship/git.ts: no shell, no password prompt, a
 * fixed locale).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { GitMissingError, runGit, type GitOut } from '../authorship/git';
import {
  SyncConflictError,
  SyncError,
  upstreamOf,
  type CommitAuthor,
  type GitTransport,
  type PullResult,
  type SyncStatus,
} from './transport';

/** The first line git wrote, for a reason in words. */
export { GitMissingError, runGit };

function firstLine(o: GitOut): string {
  const line = `${o.stderr}\n${o.stdout}`
    .split('\n')
    .map((l) => l.replace(/^(fatal|error):\s*/, '').trim())
    .find((l) => l && !/^hint:/.test(l));
  return line ?? `git exited with code ${o.code}`;
}

function unreachable(o: GitOut): boolean {
  return /does not appear to be a git repository|Could not read from remote|unable to access|Could not resolve host|Connection (refused|timed out)|No such file or directory|not found|terminal prompts disabled|Authentication failed/i.test(
    o.stderr,
  );
}

/**
 * Opens the repository that holds `dir`. Rejects GitMissingError without git, SyncError('no-repo') when `dir` is not in a
 * repository.
 */
export async function openGitCli(dir: string): Promise<GitTransport> {
  const top = await runGit(dir, ['rev-parse', '--show-toplevel']);
  if (top.code !== 0) throw new SyncError('no-repo', `${dir} is not in a git repository`);
  const root = await fs.realpath(top.stdout.trim());
  return new GitCli(root);
}

class GitCli implements GitTransport {
  readonly via = 'the git program';
  constructor(readonly root: string) {}

  private git(args: readonly string[]): Promise<GitOut> {
    return runGit(this.root, args);
  }

  private async must(args: readonly string[], kind: 'failed' | 'unreachable' = 'failed'): Promise<string> {
    const o = await this.git(args);
    if (o.code !== 0) throw new SyncError(kind === 'unreachable' && !unreachable(o) ? 'failed' : kind, `git ${args[0]}: ${firstLine(o)}`);
    return o.stdout;
  }

  /** Repository path (forward slashes) of an absolute path; the path's real parent is resolved (it may not exist yet). */
  private async rel(abs: string): Promise<string> {
    let real = abs;
    try {
      real = await fs.realpath(abs);
    } catch {
      try {
        real = path.join(await fs.realpath(path.dirname(abs)), path.basename(abs));
      } catch {
        // Neither exists (a deleted folder): keep it as given.
      }
    }
    const rel = path.relative(this.root, real);
    if (rel.startsWith('..') || path.isAbsolute(rel)) throw new SyncError('failed', `${abs} is not inside the repository ${this.root}`);
    return rel.split(path.sep).join('/') || '.';
  }

  /**
   * The branch and its upstream in ONE git call (a sync at every turn asks for them several times, and on a loaded
   * machine every process git starts is what a sync costs).
   */
  async status(): Promise<SyncStatus> {
    const o = await this.git([
      'for-each-ref',
      '--format=%(HEAD)%00%(refname:short)%00%(upstream:remotename)%00%(upstream:remoteref)',
      'refs/heads/',
    ]);
    const head = o.stdout
      .split('\n')
      .map((l) => l.split('\0'))
      .find((f) => f[0] === '*' && f.length === 4);
    if (!head) {
      // Detached, or a branch with no commit yet (for-each-ref lists only branches that exist).
      const unborn = (await this.git(['symbolic-ref', '--quiet', '--short', 'HEAD'])).stdout.trim();
      return unborn ? { root: this.root, branch: unborn } : { root: this.root };
    }
    const [, branch, remote, merge] = head as [string, string, string, string];
    if (!remote || !merge || remote === '.') return { root: this.root, branch };
    return { root: this.root, branch, upstream: { remote, branch: merge.replace(/^refs\/heads\//, '') } };
  }

  async pull(): Promise<PullResult> {
    const up = upstreamOf(await this.status());
    const none: PullResult = { changed: false, changedFiles: [], addedFiles: [] };
    await this.must(['fetch', '--quiet', up.remote], 'unreachable');
    const upRef = `refs/remotes/${up.remote}/${up.branch}`;
    const behind = Number((await this.must(['rev-list', '--count', `HEAD..${upRef}`])).trim());
    if (!behind) return none;
    const before = (await this.must(['rev-parse', 'HEAD'])).trim();
    const added = splitZ(await this.must(['log', '--reverse', '--format=', '--name-only', '--diff-filter=A', '-z', `HEAD..${upRef}`]));
    const rebase = await this.git(['rebase', '--autostash', '--no-verify', upRef]);
    if (rebase.code !== 0) {
      const files = splitZ((await this.git(['diff', '--name-only', '--diff-filter=U', '-z'])).stdout);
      await this.git(['rebase', '--abort']);
      throw new SyncConflictError(files[0] ?? '(a file git did not name)', this.root, `${up.remote}/${up.branch}`);
    }
    const note = await this.undoStashClash();
    const changed = splitZ(await this.must(['diff', '--name-only', '-z', before, 'HEAD']));
    const abs = (p: string): string => path.join(this.root, ...p.split('/'));
    const deleted = splitZ(await this.must(['diff', '--name-only', '--diff-filter=D', '-z', before, 'HEAD']));
    return {
      changed: true,
      changedFiles: changed.map(abs),
      addedFiles: [...new Set(added)].map(abs),
      deletedFiles: deleted.map(abs),
      ...(note ? { note } : {}),
    };
  }

  /**
   * A rebase that went through can still leave conflict markers in the person's own uncommitted files (git re-applies
   * what --autostash put aside, and says only "Your changes are safe in the stash"). Undone here: those files go back to
   * what the pull brought, the person's changes stay in the stash, and the sentence says so.
   */
  private async undoStashClash(): Promise<string | undefined> {
    const stuck = splitZ((await this.git(['diff', '--name-only', '--diff-filter=U', '-z'])).stdout);
    if (!stuck.length) return undefined;
    const specs = stuck.map((f) => `:(literal)${f}`);
    await this.git(['reset', '--quiet', '--', ...specs]);
    await this.git(['checkout', '--', ...specs]);
    return `your uncommitted changes to ${stuck.join(', ')} clashed with what the pull brought; the clash is undone (the files are as pulled) and your changes are kept in the git stash (git stash list; git stash pop takes them back)`;
  }

  async commit(paths: string[], message: string, exclude: string[] = []): Promise<boolean> {
    const rels = await Promise.all(paths.map((p) => this.rel(p)));
    const excluded = await Promise.all(exclude.map(async (p) => `:(exclude,literal)${await this.rel(p)}`));
    const specs = rels.map((r) => `:(literal)${r}`);
    const add = await this.git(['add', '-A', '--', ...specs, ...excluded]);
    if (add.code !== 0 && !/did not match any files/.test(add.stderr)) throw new SyncError('failed', `git add: ${firstLine(add)}`);
    // An excluded file (the driver's lock) that a commit once carried is taken out of git's index here, so this commit
    // removes it from the branch; the file itself stays on disk.
    const unTrack = excluded.map((e) => e.replace(':(exclude,literal)', ':(literal)'));
    if (unTrack.length) await this.git(['rm', '--quiet', '--cached', '--ignore-unmatch', '--', ...unTrack]);
    const staged = await this.git(['diff', '--cached', '--quiet', '--', ...specs]);
    if (staged.code === 0) return false;
    // `commit -- paths` would put a tracked excluded file back; when nothing else is staged, the index is committed as is.
    const elsewhere = await this.git([
      'diff',
      '--cached',
      '--quiet',
      '--',
      ':/',
      ...specs.map((x) => x.replace(':(literal)', ':(exclude,literal)')),
    ]);
    const only = elsewhere.code === 0 ? [] : ['--', ...specs, ...excluded];
    const c = await this.git(['commit', '--quiet', '--no-verify', '-m', message, ...only]);
    if (c.code !== 0) throw new SyncError('failed', `git commit: ${firstLine(c)}`);
    return true;
  }

  async push(): Promise<void> {
    const up = upstreamOf(await this.status());
    const o = await this.git(['push', '--quiet', '--porcelain', up.remote, `HEAD:refs/heads/${up.branch}`]);
    if (o.code === 0) return;
    if (
      /\[rejected\]|\(fetch first\)|non-fast-forward|\[remote rejected\].*(cannot lock|failed to update)/.test(`${o.stdout}\n${o.stderr}`)
    ) {
      throw new SyncError('rejected', `the push to ${up.remote}/${up.branch} was rejected (the remote has newer commits)`);
    }
    throw new SyncError(unreachable(o) ? 'unreachable' : 'failed', `git push: ${firstLine(o)}`);
  }

  async history(abs: string): Promise<CommitAuthor[]> {
    const rel = await this.rel(abs);
    // Renames count as additions (--no-renames): a file moved to someone's name is the mover's.
    const o = await this.must(['log', '--no-renames', '--diff-filter=AM', '--format=%H%x02%ae%x02%an', '--', `:(literal)${rel}`]);
    return o
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [commit = '', email = '', name = ''] = l.split('\x02');
        return { commit, email, name };
      });
  }

  async verifyCommit(commit: string): Promise<boolean> {
    if (!/^[0-9a-f]{7,64}$/.test(commit)) return false;
    return (await this.git(['verify-commit', commit])).code === 0;
  }

  async ahead(): Promise<number> {
    const o = await this.git(['rev-list', '--count', '@{upstream}..HEAD']);
    return o.code === 0 ? Number(o.stdout.trim()) || 0 : 0;
  }
}

function splitZ(s: string): string[] {
  return s
    .split('\0')
    .map((x) => x.trim())
    .filter(Boolean);
}

/**
 * The transport for the repository holding `dir`, or why there is none (not a repository): the caller goes on locally
 * and says "not synced: <reason>". Rejects GitMissingError when git is absent.
 */
export async function gitTransportFor(dir: string): Promise<GitTransport | { unavailable: string }> {
  try {
    return await openGitCli(dir);
  } catch (err) {
    if (err instanceof SyncError) return { unavailable: err.message };
    throw err;
  }
}
