/**
 * "Commit Run…": stage a run folder with the built-in Git extension and pre-fill the commit message with the outcome.
 * Never commits or pushes: the user reviews the message in Source Control and commits.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readRunRecord } from '../../core/run/runner';
import { buildCommitMessage } from './commitMessage';
import { noteCommitted } from '../../core/evaluation/decisionTimes';
import type { GitApi, GitExtensionExports, GitRepository } from './gitApi';

export interface CommitRunResult {
  staged: boolean;
  /** What happened, in words (shown to the user). */
  message: string;
  /** The pre-filled commit message when staged. */
  commitMessage?: string;
  repositoryRoot?: string;
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

async function gitApi(): Promise<GitApi | string> {
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

async function repositoryFor(api: GitApi, dir: string): Promise<GitRepository | undefined> {
  const known = api.getRepository(vscode.Uri.file(dir));
  if (known) return known;
  const root = findGitRoot(dir);
  if (!root || !api.openRepository) return undefined;
  return (await api.openRepository(vscode.Uri.file(root))) ?? api.getRepository(vscode.Uri.file(dir)) ?? undefined;
}

/** Stages `<review>/runs/<id>` and pre-fills the commit message; says in words why not when it cannot. */
export async function stageRunForCommit(reviewRoot: string, runId: string): Promise<CommitRunResult> {
  const runDir = path.join(reviewRoot, 'runs', runId);
  const shown = path.join(path.basename(reviewRoot), 'runs', runId);
  if (!existsSync(runDir)) return { staged: false, message: `There is no run folder ${shown}.` };
  let commitMessage: string;
  try {
    commitMessage = buildCommitMessage(await readRunRecord(reviewRoot, runId));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { staged: false, message: `The run record of ${shown} could not be read: ${why}` };
  }
  const api = await gitApi();
  if (typeof api === 'string') {
    return { staged: false, message: `${api}, so TeamFusion cannot stage the run. Stage ${shown} and commit it yourself.` };
  }
  const repo = await repositoryFor(api, runDir);
  if (!repo) {
    return {
      staged: false,
      message: `The review folder ${path.basename(reviewRoot)} is not inside a Git repository, so there is nothing to commit to. ` +
        'Run "git init" (or clone the team\'s repository) first.',
    };
  }
  try {
    // Time to decision: the record keeps when the run was committed (before staging, so the staged record has it).
    await noteCommitted(reviewRoot, runId);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { staged: false, message: `The run record of ${shown} could not be updated: ${why}` };
  }
  try {
    await repo.add([runDir]);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { staged: false, message: `Git could not stage ${shown}: ${why}` };
  }
  repo.inputBox.value = commitMessage;
  await vscode.commands.executeCommand('workbench.view.scm').then(undefined, () => undefined);
  return {
    staged: true,
    message: `Staged ${shown} and pre-filled the commit message. Review it in Source Control, then commit.`,
    commitMessage,
    repositoryRoot: repo.rootUri.fsPath,
  };
}
