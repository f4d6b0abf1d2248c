/**
 * The `@teamfusion` chat participant (issue 42): `/status` (the default), `/disagree`, `/run` and `/next`, answered only
 * from the questions table — the figures as TeamFusion's code computed them (chatAnswers.ts), references to the files the
 * answer comes from, and buttons for the panel and a run (the same commands, with their cost question and Workspace Trust;
 * no run button in an untrusted workspace). The review is the one the prompt names, else the active editor's, else the
 * workspace's only one. No language model is asked anything.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { escapeMarkdown } from '../../core/files/markdown';
import { RUN_ID_PATTERN } from '../../core/record/paths';
import type { CriteriaAnswer } from '../../core/questions/criteria';
import type { NextStepsAnswer } from '../../core/questions/nextSteps';
import type { RunSummary } from '../../core/questions/runSummary';
import type { ReviewIndex } from '../foundation/reviewIndex';
import { askInWorkspace } from './tools';
import { disagreeMarkdown, nextMarkdown, runMarkdown, statusMarkdown } from './chatAnswers';

export const PARTICIPANT_COMMANDS = ['status', 'disagree', 'run', 'next'] as const;

type Found = { review: string; runId?: string } | { say: string };

/** The review (and run) a request is about. */
async function reviewOfRequest(prompt: string, reviews: Pick<ReviewIndex, 'find' | 'reviewOf'>): Promise<Found> {
  const words = prompt.trim().split(/\s+/).filter(Boolean);
  const runId = words.find((w) => RUN_ID_PATTERN.test(w));
  const named = words.filter((w) => w !== runId).join(' ');
  const withRun = (review: string): Found => (runId ? { review, runId } : { review });
  if (named) {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const hit = path.isAbsolute(named)
      ? existsSync(named)
        ? named
        : undefined
      : folders.map((f) => path.join(f, named)).find((p) => existsSync(p));
    if (hit) return withRun(hit);
    const byName = (await reviews.find()).filter((u) => path.basename(u.fsPath) === named);
    if (byName.length === 1) return withRun(byName[0]!.fsPath);
    return { say: `There is no review folder "${escapeMarkdown(named)}" in the workspace.` };
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const own = active?.scheme === 'file' ? await reviews.reviewOf(active) : undefined;
  if (own) return withRun(own.fsPath);
  const all = await reviews.find();
  if (all.length === 1) return withRun(all[0]!.fsPath);
  if (all.length === 0) return { say: 'There is no review folder in this workspace.' };
  return {
    say: `Which review? Name one after the command, e.g. \`@teamfusion /status ${escapeMarkdown(path.basename(all[0]!.fsPath))}\`:\n\n${all.map((u) => `- ${escapeMarkdown(vscode.workspace.asRelativePath(u, true))}`).join('\n')}`,
  };
}

/** The answer of one question, or a sentence said in the chat (then undefined). */
async function answerOf<T>(stream: vscode.ChatResponseStream, question: string, review: string, runId?: string): Promise<T | undefined> {
  const a = await askInWorkspace(question, runId ? { review, runId } : { review });
  if (a.ok) return a.value as T;
  stream.markdown(new vscode.MarkdownString(escapeMarkdown(a.error)));
  return undefined;
}

export function chatHandler(reviews: Pick<ReviewIndex, 'find' | 'reviewOf'>): vscode.ChatRequestHandler {
  return async (request, _context, stream, token) => {
    const command = (PARTICIPANT_COMMANDS as readonly string[]).includes(request.command ?? '') ? request.command! : 'status';
    const found = await reviewOfRequest(request.prompt, reviews);
    if ('say' in found) {
      stream.markdown(new vscode.MarkdownString(found.say));
      return { metadata: { command } };
    }
    const { review, runId } = found;
    const name = path.basename(review);
    const root = vscode.Uri.file(review);
    stream.progress(`Reading ${name}…`);
    const stop = (): boolean => token.isCancellationRequested;
    let shownRun: string | undefined;
    if (command === 'status') {
      const analysis = await answerOf<Parameters<typeof statusMarkdown>[1]>(stream, 'analyze', review);
      const problems = await answerOf<{ errors: number; warnings: number }>(stream, 'validate', review);
      if (stop() || !analysis || !problems) return { metadata: { command } };
      stream.markdown(new vscode.MarkdownString(statusMarkdown(name, analysis, problems)));
      stream.reference(vscode.Uri.joinPath(root, 'rankings'));
    } else if (command === 'disagree') {
      const criteria = await answerOf<CriteriaAnswer>(stream, 'criteria', review);
      if (stop() || !criteria) return { metadata: { command } };
      const analysis = (await askInWorkspace('analyze', { review })) as { ok: boolean; value?: unknown };
      const next = (await askInWorkspace('next_steps', runId ? { review, runId } : { review })) as { ok: boolean; value?: unknown };
      if (stop()) return { metadata: { command } };
      stream.markdown(
        new vscode.MarkdownString(
          disagreeMarkdown(
            name,
            criteria,
            analysis.ok ? (analysis.value as Parameters<typeof statusMarkdown>[1]) : undefined,
            next.ok ? (next.value as NextStepsAnswer) : undefined,
          ),
        ),
      );
      if (criteria.state !== 'missing') stream.reference(vscode.Uri.joinPath(root, 'criteria.md'));
    } else if (command === 'run') {
      const summary = await answerOf<RunSummary>(stream, 'run_summary', review, runId);
      if (stop() || !summary) return { metadata: { command } };
      shownRun = summary.runId;
      stream.markdown(new vscode.MarkdownString(runMarkdown(summary)));
      stream.reference(vscode.Uri.joinPath(root, 'runs', summary.runId, 'run.json'));
    } else {
      const next = await answerOf<NextStepsAnswer>(stream, 'next_steps', review, runId);
      if (stop() || !next) return { metadata: { command } };
      shownRun = next.runId ?? undefined;
      stream.markdown(new vscode.MarkdownString(nextMarkdown(next)));
      if (next.runId) stream.reference(vscode.Uri.joinPath(root, 'runs', next.runId, 'run.json'));
    }
    stream.button({
      command: 'teamfusion.openReview',
      title: shownRun ? 'Open the run in the panel (votes there)' : 'Open the review in the panel',
      arguments: [shownRun ? { reviewRoot: review, runId: shownRun } : root],
    });
    // A run sends paid requests: only through its command (its cost question), and never offered in an untrusted workspace.
    if (vscode.workspace.isTrusted && (command === 'status' || command === 'run'))
      stream.button({ command: 'teamfusion.runReview', title: 'Start a run…', arguments: [root] });
    return { metadata: { command, review, ...(shownRun ? { runId: shownRun } : {}) } };
  };
}
