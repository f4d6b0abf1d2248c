/**
 * Wraps a command handler so that an unexpected error reaches the user as one sentence (and the Output channel with its
 * stack), never as an unhandled rejection. Handlers report expected refusals themselves and resolve.
 */
import * as vscode from 'vscode';

export function guardCommand<T>(
  log: vscode.LogOutputChannel,
  name: string,
  fn: (arg: unknown) => Promise<T>,
): (arg?: unknown) => Promise<T | undefined> {
  return async (arg?: unknown) => {
    try {
      return await fn(arg);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      log.error(`${name} failed: ${e instanceof Error && e.stack ? e.stack : why}`);
      void vscode.window.showErrorMessage(`TeamFusion ${name} failed: ${why}`);
      return undefined;
    }
  };
}
