/**
 * "Commit Run…": stage a run folder with the built-in Git extension and pre-fill the commit message with the outcome.
 * Never commits or pushes: the user reviews the message in Source Control and commits.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readRunRecord } from '../../../core/run/runner';
import { buildCommitMessage } from './commitMessage';
import { noteCommitted } from '../../../core/evaluation/compare/decisionTimes';
import { gitApi, repositoryFor } from './gitApi';
import { errorMessage } from '../../../core/kernel/errors';

export { findGitRoot } from './gitApi';

export interface CommitRunResult {
  staged: boolean;
  /** What happened, in words (shown to the user). */
  message: string;
  /** The pre-filled commit message when staged. */
  commitMessage?: string;
  repositoryRoot?: string;
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
    const why = errorMessage(err);
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
      message:
        `The review folder ${path.basename(reviewRoot)} is not inside a Git repository, so there is nothing to commit to. ` +
        'Run "git init" (or clone the team\'s repository) first.',
    };
  }
  try {
    // Time to decision: the record keeps when the run was committed (before staging, so the staged record has it).
    await noteCommitted(reviewRoot, runId);
  } catch (err) {
    const why = errorMessage(err);
    return { staged: false, message: `The run record of ${shown} could not be updated: ${why}` };
  }
  try {
    await repo.add([runDir]);
  } catch (err) {
    const why = errorMessage(err);
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
