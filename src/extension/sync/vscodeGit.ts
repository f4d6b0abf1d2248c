/**
 * The git transport (core/sync/transport.ts) over VS Code's built-in git extension, for runs driven and entries written
 * from the editor. The same rules as the CLI's: fetch, then fast-forward (pull with nothing local) or rebase (when the
 * API offers it) — never a merge commit of ours; a conflict is never resolved (the file is named); only TeamFusion's own
 * files are committed (refused when something else is staged in Source Control); a rejected push is SyncError('rejected').
 * Where the editor has no usable git extension (turned off, missing, or it does not see the repository), the git program
 * transport of the CLI (core/sync/gitCli.ts) is used instead: one transport room, the same rules.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { GitMissingError, gitTransportFor } from '../../core/sync/gitCli';
import { SyncConflictError, SyncError, upstreamOf, type GitTransport, type PullResult, type SyncStatus } from '../../core/sync/transport';
import { gitApi, repositoryFor, type GitChange, type GitRepository } from '../run/git/gitApi';

/** The API's Status numbers for files a commit adds. */
const ADDED = new Set([1, 7, 9]); // INDEX_ADDED, UNTRACKED, INTENT_TO_ADD

function why(err: unknown): string {
  const e = err as { stderr?: string; message?: string };
  const text = (e?.stderr || e?.message || String(err))
    .split('\n')
    .map((l) => l.replace(/^(fatal|error):\s*/, '').trim())
    .find(Boolean);
  return text ?? 'git failed';
}

function gitErrorCode(err: unknown): string | undefined {
  return (err as { gitErrorCode?: string })?.gitErrorCode;
}

/**
 * The transport for the repository holding `dir`, or why there is none: VS Code's git extension when it is there and sees
 * the repository, else the git program (the CLI's transport).
 */
export async function vscodeGitTransportFor(
  dir: string,
  onFallback?: (why: string) => void,
): Promise<GitTransport | { unavailable: string }> {
  const api = await gitApi();
  const repo = typeof api === 'string' ? undefined : await repositoryFor(api, dir);
  if (repo) return new VsCodeGit(repo);
  onFallback?.(typeof api === 'string' ? api : `VS Code's Git does not see a repository holding ${dir}`);
  try {
    return await gitTransportFor(dir);
  } catch (err) {
    if (err instanceof GitMissingError)
      return { unavailable: typeof api === 'string' ? `${api}, and the git program was not found` : 'the git program was not found' };
    throw err;
  }
}

class VsCodeGit implements GitTransport {
  readonly via = "VS Code's Git";
  readonly root: string;
  constructor(private readonly repo: GitRepository) {
    this.root = repo.rootUri.fsPath;
  }

  async status(): Promise<SyncStatus> {
    await this.repo.status().catch(() => undefined);
    const head = this.repo.state.HEAD;
    if (!head?.name) return { root: this.root };
    if (!head.upstream) return { root: this.root, branch: head.name };
    return { root: this.root, branch: head.name, upstream: { remote: head.upstream.remote, branch: head.upstream.name } };
  }

  async pull(): Promise<PullResult> {
    const up = upstreamOf(await this.status());
    const none: PullResult = { changed: false, changedFiles: [], addedFiles: [] };
    try {
      await this.repo.fetch(up.remote);
    } catch (err) {
      throw new SyncError('unreachable', `git fetch: ${why(err)}`);
    }
    await this.repo.status().catch(() => undefined);
    const head = this.repo.state.HEAD;
    if (!head?.behind) return none;
    const before = head.commit;
    try {
      if (!head.ahead) await this.repo.pull();
      else if (this.repo.rebase) await this.repo.rebase(`${up.remote}/${up.branch}`);
      else
        throw new SyncError(
          'failed',
          `this branch and ${up.remote}/${up.branch} have both moved on, and this editor's git cannot rebase; run git pull --rebase in ${this.root}`,
        );
    } catch (err) {
      if (err instanceof SyncError) throw err;
      await this.repo.status().catch(() => undefined);
      const conflicted = this.repo.state.mergeChanges[0];
      if (conflicted || gitErrorCode(err) === 'Conflict') {
        const file = conflicted ? path.relative(this.root, conflicted.uri.fsPath).split(path.sep).join('/') : '(a file git did not name)';
        throw new SyncConflictError(file, this.root, `${up.remote}/${up.branch}`);
      }
      throw new SyncError('failed', `git pull: ${why(err)}`);
    }
    await this.repo.status().catch(() => undefined);
    const after = this.repo.state.HEAD?.commit;
    if (!before || !after || before === after) return { ...none, changed: before !== after };
    const changes: GitChange[] = await this.repo.diffBetween(before, after).catch(() => []);
    return {
      changed: true,
      changedFiles: changes.map((c) => c.uri.fsPath),
      addedFiles: changes.filter((c) => ADDED.has(c.status)).map((c) => c.uri.fsPath),
    };
  }

  async commit(paths: string[], message: string, exclude: string[] = []): Promise<boolean> {
    await this.repo.status().catch(() => undefined);
    const inside = (p: string): boolean => paths.some((x) => p === x || p.startsWith(x + path.sep));
    const skip = new Set(exclude.map((p) => path.resolve(p)));
    const foreign = this.repo.state.indexChanges.filter((c) => !inside(c.uri.fsPath));
    if (foreign.length) {
      throw new SyncError(
        'failed',
        `other changes are staged in Source Control (${path.basename(foreign[0]!.uri.fsPath)}…); TeamFusion commits only its own files — commit or unstage them first`,
      );
    }
    // New and changed files under the paths (never the excluded ones), and deletions git already sees.
    const files = (await listFiles(paths)).filter((f) => !skip.has(path.resolve(f)));
    const deleted = this.repo.state.workingTreeChanges.filter((c) => c.status === 6 && inside(c.uri.fsPath)).map((c) => c.uri.fsPath);
    const toAdd = [...files, ...deleted];
    try {
      if (toAdd.length) await this.repo.add(toAdd);
      await this.repo.status();
    } catch (err) {
      throw new SyncError('failed', `git add: ${why(err)}`);
    }
    if (!this.repo.state.indexChanges.some((c) => inside(c.uri.fsPath))) return false;
    try {
      // Like the git program transport: TeamFusion's own commits skip the commit hooks.
      await this.repo.commit(message, { noVerify: true });
    } catch (err) {
      throw new SyncError('failed', `git commit: ${why(err)}`);
    }
    return true;
  }

  async push(): Promise<void> {
    const up = upstreamOf(await this.status());
    const local = this.repo.state.HEAD?.name;
    try {
      await this.repo.push(up.remote, local === up.branch ? local : `HEAD:refs/heads/${up.branch}`);
    } catch (err) {
      if (gitErrorCode(err) === 'PushRejected' || /rejected|fetch first|non-fast-forward/i.test(why(err))) {
        throw new SyncError('rejected', `the push to ${up.remote}/${up.branch} was rejected (the remote has newer commits)`);
      }
      throw new SyncError(gitErrorCode(err) === 'RemoteConnectionError' ? 'unreachable' : 'failed', `git push: ${why(err)}`);
    }
  }

  async ahead(): Promise<number> {
    await this.repo.status().catch(() => undefined);
    return this.repo.state.HEAD?.ahead ?? 0;
  }
}

/** Every file under the given files or folders (a folder that is gone lists nothing). */
async function listFiles(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (p: string): Promise<void> => {
    const st = await fs.lstat(p).catch(() => undefined);
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of await fs.readdir(p)) await walk(path.join(p, name));
    } else if (st.isFile()) out.push(p);
  };
  for (const p of paths) await walk(p);
  return out;
}
