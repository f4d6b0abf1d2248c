/**
 * The small part of the built-in Git extension's API (`vscode.git`, getAPI(1)) TeamFusion uses: find or open the
 * repository holding a review, stage paths, pre-fill the commit message. Typed locally (the full git.d.ts is not a package).
 */
import type * as vscode from 'vscode';

export interface GitInputBox {
  value: string;
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: GitInputBox;
  /** `git add` of these file-system paths (files or folders). */
  add(paths: string[]): Promise<void>;
  status(): Promise<void>;
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
