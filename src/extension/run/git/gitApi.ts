/**
 * The small part of the built-in Git extension's API (`vscode.git`, getAPI(1)) TeamFusion uses: find or open the
 * repository holding a review, stage paths, pre-fill the commit message, and the team sync (src/extension/sync): fetch,
 * pull, rebase, commit, push. Typed locally (the full git.d.ts is not a package).
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

export interface GitInputBox {
  value: string;
}

export interface GitBranch {
  readonly name?: string;
  readonly commit?: string;
  readonly upstream?: { readonly remote: string; readonly name: string };
  readonly ahead?: number;
  readonly behind?: number;
}

/** A changed file (the API's Change; only the parts used). */
export interface GitChange {
  readonly uri: vscode.Uri;
  /** The API's Status enum: 1 INDEX_ADDED, 6 DELETED, 7 UNTRACKED, … (numbers, stable in API version 1). */
  readonly status: number;
}

export interface GitRepositoryState {
  readonly HEAD: GitBranch | undefined;
  readonly mergeChanges: readonly GitChange[];
  readonly indexChanges: readonly GitChange[];
  readonly workingTreeChanges: readonly GitChange[];
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: GitInputBox;
  readonly state: GitRepositoryState;
  /** `git add` of these file-system paths (files or folders). */
  add(paths: string[]): Promise<void>;
  status(): Promise<void>;
  fetch(remote?: string, ref?: string): Promise<void>;
  pull(unshallow?: boolean): Promise<void>;
  push(remoteName?: string, branchName?: string, setUpstream?: boolean): Promise<void>;
  /** `noVerify` skips the commit hooks (the API's CommitOptions; passed through to `git commit --no-verify`). */
  commit(message: string, opts?: { noVerify?: boolean }): Promise<void>;
  diffBetween(ref1: string, ref2: string): Promise<GitChange[]>;
  /** Present in recent VS Code versions. */
  rebase?(branch: string): Promise<void>;
}

export type GitApiState = 'uninitialized' | 'initialized';

export interface GitApi {
  readonly state: GitApiState;
  readonly onDidChangeState: vscode.Event<GitApiState>;
  readonly repositories: GitRepository[];
  getRepository(uri: vscode.Uri): GitRepository | null;
  /** Present in VS Code ≥ 1.53: opens a repository the extension has not discovered (e.g. outside the workspace). */
  openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
}

export interface GitExtensionExports {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

const GIT_READY_TIMEOUT_MS = 10_000;

/** The nearest folder at or above `dir` holding `.git` (a folder, or a file for worktrees/submodules). */
export function findGitRoot(dir: string): string | undefined {
  let current = path.resolve(dir);
  for (;;) {
    if (existsSync(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

export async function gitApi(): Promise<GitApi | string> {
  const extension = vscode.extensions.getExtension<GitExtensionExports>('vscode.git');
  if (!extension) return 'The built-in Git extension is not available in this editor';
  let exports: GitExtensionExports;
  try {
    exports = extension.isActive ? extension.exports : await extension.activate();
  } catch {
    return 'The built-in Git extension could not start';
  }
  if (!exports || !exports.enabled) return 'Git is turned off in this editor (setting git.enabled)';
  const api = exports.getAPI(1);
  if (api.state !== 'initialized') {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        sub.dispose();
        resolve();
      }, GIT_READY_TIMEOUT_MS);
      const sub = api.onDidChangeState((state) => {
        if (state === 'initialized') {
          clearTimeout(timer);
          sub.dispose();
          resolve();
        }
      });
    });
  }
  return api;
}

export async function repositoryFor(api: GitApi, dir: string): Promise<GitRepository | undefined> {
  const known = api.getRepository(vscode.Uri.file(dir));
  if (known) return known;
  const root = findGitRoot(dir);
  if (!root || !api.openRepository) return undefined;
  return (await api.openRepository(vscode.Uri.file(root))) ?? api.getRepository(vscode.Uri.file(dir)) ?? undefined;
}
