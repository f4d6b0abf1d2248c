/**
 * Wraps a command handler so that an unexpected error reaches the user as one sentence (and the Output channel with its
 * stack), never as an unhandled rejection. Handlers report expected refusals themselves and resolve.
 *
 * `guardWriteCommand` is THE guard for every command that writes into the workspace (import rankings, re-rank, new
 * review, commit run, and later ones): in an untrusted workspace it refuses in words (with a button to manage trust)
 * before the handler runs, so nothing is written. Code that writes outside a command (the panel's ranking form) asks
 * `workspaceWritable(action)` first.
 */
import * as vscode from 'vscode';
import { ensureTrustedToWrite, type GuardUi } from './run/trustGuard';
import { errorMessage } from '../core/kernel/errors';

export function guardCommand<T>(
  log: vscode.LogOutputChannel,
  name: string,
  fn: (arg: unknown) => Promise<T>,
): (arg?: unknown) => Promise<T | undefined> {
  return async (arg?: unknown) => {
    try {
      return await fn(arg);
    } catch (e) {
      const why = errorMessage(e);
      log.error(`${name} failed: ${e instanceof Error && e.stack ? e.stack : why}`);
      void vscode.window.showErrorMessage(`TeamFusion ${name} failed: ${why}`);
      return undefined;
    }
  };
}

/** The trust guards' UI in VS Code: a warning with buttons, and a command run for the button chosen. */
export const trustUi: GuardUi = {
  warn: (message, ...buttons) => vscode.window.showWarningMessage(message, ...buttons),
  runCommand: (command) => vscode.commands.executeCommand(command),
};

/** True when the workspace is trusted; else tells the user that `action` writes nothing here, and returns false. */
export function workspaceWritable(action: string, log?: vscode.LogOutputChannel): boolean {
  const ok = ensureTrustedToWrite(vscode.workspace.isTrusted, trustUi, action);
  if (!ok) log?.warn(`${action}: refused in an untrusted workspace (nothing written).`);
  return ok;
}

/** guardCommand for a command that writes into the workspace: refused (nothing runs) in an untrusted workspace. */
export function guardWriteCommand<T>(
  log: vscode.LogOutputChannel,
  name: string,
  fn: (arg: unknown) => Promise<T>,
): (arg?: unknown) => Promise<T | undefined> {
  const guarded = guardCommand(log, name, fn);
  return async (arg?: unknown) => {
    if (!workspaceWritable(name, log)) return undefined;
    return guarded(arg);
  };
}
