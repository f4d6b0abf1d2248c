/**
 * The language-model tools `teamfusion_analyze`, `teamfusion_validate`, `teamfusion_criteria`, `teamfusion_run_summary`
 * and `teamfusion_next_steps` (package.json `languageModelTools`): each asks its question of the one table (core/questions)
 * under the workspace folder that holds the review. Every question of the table is read-only (nothing sent, nothing
 * written), so they answer in an untrusted workspace too and need no confirmation.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ask, questionNamed, type Answer } from '../../core/questions';

export const TOOL_PREFIX = 'teamfusion_';

/** The workspace folder a review path is asked under: the one holding it (an absolute path), else the first that has it. */
export function workspaceRootFor(review: string): string | undefined {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  if (path.isAbsolute(review)) {
    const holding = folders.filter((f) => {
      const rel = path.relative(f, review);
      return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    });
    return holding.sort((a, b) => b.length - a.length)[0] ?? folders[0];
  }
  return folders.find((f) => existsSync(path.join(f, review))) ?? folders[0];
}

/** Asks a question of the table for a review in the workspace; one sentence when no folder is open. */
export async function askInWorkspace(
  question: string,
  input: { review?: unknown; runId?: unknown } & Record<string, unknown>,
): Promise<Answer> {
  const root = workspaceRootFor(typeof input.review === 'string' ? input.review : '');
  if (!root)
    return {
      ok: false,
      error: 'Open the folder that holds the review first: TeamFusion answers only about review folders in the workspace.',
    };
  return ask(question, input, root);
}

function questionOf(tool: string): string {
  return tool.startsWith(TOOL_PREFIX) ? tool.slice(TOOL_PREFIX.length) : tool;
}

export async function invokeTool(
  tool: string,
  options: vscode.LanguageModelToolInvocationOptions<unknown>,
  token: vscode.CancellationToken,
): Promise<vscode.LanguageModelToolResult> {
  const input = (typeof options.input === 'object' && options.input !== null ? options.input : {}) as Record<string, unknown>;
  const answer = await askInWorkspace(questionOf(tool), input);
  if (token.isCancellationRequested) return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart('Cancelled.')]);
  // The answer is data: JSON whose member and model text sits in { "quoted": … } fields; a refusal is one sentence.
  return new vscode.LanguageModelToolResult([
    new vscode.LanguageModelTextPart(answer.ok ? JSON.stringify(answer.value) : `TeamFusion could not answer: ${answer.error}`),
  ]);
}

export function prepareTool(
  tool: string,
  options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>,
): vscode.PreparedToolInvocation {
  const review = (options.input as { review?: unknown } | undefined)?.review;
  const title = questionNamed(questionOf(tool))?.title ?? 'TeamFusion';
  return { invocationMessage: `TeamFusion: ${title.toLowerCase()}${typeof review === 'string' ? ` (${path.basename(review)})` : ''}` };
}
