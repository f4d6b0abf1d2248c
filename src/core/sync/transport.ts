/**
 * The git transport of a team on several machines (issue 18): the small interface the engine, the CLI and the extension
 * share. Two implementations: the user's `git` program (gitCli.ts, the CLI) and VS Code's built-in git extension
 * (src/extension/sync). Paths are absolute file-system paths; the transport turns them into repository paths.
 *
 * Rules every implementation keeps:
 *   - pull = fetch, then fast-forward or rebase onto the upstream; never a merge commit of our own;
 *   - a conflict is never resolved: the rebase is undone and SyncConflictError names the file;
 *   - commit takes only the given paths (whatever else is staged stays staged, uncommitted);
 *   - push goes to the branch's upstream; a rejection is SyncError('rejected') (pushWithRetry pulls and tries again).
 */

export type SyncProblem = 'no-git' | 'no-repo' | 'no-upstream' | 'unreachable' | 'rejected' | 'failed';

/** Why a sync did not happen, in words (`not synced: <message>`); the run or the command goes on locally. */
export class SyncError extends Error {
  constructor(
    readonly kind: SyncProblem,
    message: string,
  ) {
    super(message);
    this.name = 'SyncError';
  }
}

/** A pull met a conflict; nothing was merged (the rebase was undone). `file` is the repository path of the first one. */
export class SyncConflictError extends Error {
  constructor(
    readonly file: string,
    readonly root: string,
    readonly upstream: string,
  ) {
    super(
      `Pulling from ${upstream} met a conflict in ${file}; nothing was merged or overwritten (the pull was undone). ` +
        `Resolve it by hand in ${root}: git pull --rebase, fix ${file} (a review file is written by one person or by the run's driver only), ` +
        'git add it, git rebase --continue; then go on.',
    );
    this.name = 'SyncConflictError';
  }
}

export interface SyncStatus {
  /** Repository top level (absolute, real path). */
  root: string;
  branch?: string;
  /** The branch's upstream, e.g. { remote: "origin", branch: "main" }. */
  upstream?: { remote: string; branch: string };
}

/** The upstream a pull or a push goes to; without a branch or an upstream, SyncError('no-upstream') in words. */
export function upstreamOf(s: SyncStatus): { remote: string; branch: string } {
  if (!s.branch) throw new SyncError('no-upstream', 'the repository is not on a branch (detached HEAD)');
  if (!s.upstream) throw new SyncError('no-upstream', `the branch ${s.branch} has no upstream (git push -u <remote> ${s.branch} sets one)`);
  return s.upstream;
}

export interface PullResult {
  /** True when the pull brought commits. */
  changed: boolean;
  /** Absolute paths the pulled commits changed (added, modified or deleted). */
  changedFiles: string[];
  /** Absolute paths the pulled commits added, in the order of the commits (oldest first): the order of arrival. */
  addedFiles: string[];
  /** Absolute paths the pulled commits deleted (when the transport can tell). */
  deletedFiles?: string[];
  /** Said to the person when the pull had to undo something of theirs (their own files clashing with it), in words. */
  note?: string;
}

export interface GitTransport {
  /** Repository top level (absolute). */
  readonly root: string;
  /** What carries the git work, in words ("the git program", "VS Code's Git"). */
  readonly via: string;
  status(): Promise<SyncStatus>;
  /** Fetch + fast-forward or rebase onto the upstream. Throws SyncError or SyncConflictError. */
  pull(): Promise<PullResult>;
  /** Stages the given files or folders (additions, changes, deletions; never `exclude`) and commits only them. False when nothing changed. */
  commit(paths: string[], message: string, exclude?: string[]): Promise<boolean>;
  /** Pushes HEAD to the upstream. Throws SyncError ('rejected' when the remote has commits we lack). */
  push(): Promise<void>;
  /** Commits not on the upstream yet (0 when unknown). */
  ahead(): Promise<number>;
  /** The commits that added or changed a file (newest first; [] when it was never committed): who wrote it, per git. */
  history?(abs: string): Promise<CommitAuthor[]>;
  /** Does `git verify-commit` accept this commit's signature? */
  verifyCommit?(commit: string): Promise<boolean>;
}

/** A commit and its author as git records them. */
export interface CommitAuthor {
  commit: string;
  email: string;
  name: string;
}

/** How often a rejected push is retried after a pull. */
export const PUSH_ATTEMPTS = 5;

/**
 * Pushes; when the remote has moved on (rejected), pulls (rebase) and tries again. Returns what the pulls brought, so the
 * caller can check it like any other pull. Throws the last SyncError when every attempt was rejected.
 */
export async function pushWithRetry(t: GitTransport, onPulled?: (r: PullResult) => Promise<void> | void): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await t.push();
      return;
    } catch (err) {
      if (!(err instanceof SyncError) || err.kind !== 'rejected' || attempt >= PUSH_ATTEMPTS) throw err;
      const pulled = await t.pull();
      await onPulled?.(pulled);
    }
  }
}

/** The upstream in words: "origin/main". */
export function upstreamName(s: SyncStatus): string {
  return s.upstream ? `${s.upstream.remote}/${s.upstream.branch}` : 'the upstream';
}
