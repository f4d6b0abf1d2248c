/**
 * Everything the extension does, loaded by the activation shell (extension.ts) on first use — a command, the Reviews
 * view asking for its items, a review file opened or edited, a review panel restored: the shared services and every
 * area's commands, the Reviews view's data, live diagnostics and the review panel. Bundled apart as dist/extension-core.js.
 */
import * as vscode from 'vscode';
import { registerFoundation, type ShellTree } from './foundation/register';
import { registerRunCommands } from './run/register';
import { registerReviewPanel, reviveReviewPanel } from './panel/register';
import { registerRerank } from './rerank/register';
import { registerDiscussionAnalysis } from './analysis/discussionCoding';
import { registerFindCriteria } from './analysis/findCriteria';
import { createServices } from './services';
import { registerWalkthrough } from './walkthrough';
import { registerBriefReview } from './brief/register';
import { registerBaseline } from './baseline/register';
import { invokeTool, prepareTool } from './agents/tools';
import { chatHandler } from './agents/participant';
import { setOwnRequireSignedCommits } from '../core/authorship/ownSettings';

export interface Core {
  /** A review panel VS Code restored after a reload. */
  revivePanel(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
  /** A document event that happened before the core listened (the one that loaded it). */
  replayDocument(doc: vscode.TextDocument, edit: boolean): void;
  /** A review file's change on disk that the shell's watcher saw before the core listened (the one that loaded it). */
  replayWatched(kind: 'create' | 'delete' | 'change', uri: vscode.Uri): void;
  /** The language-model tools and the @teamfusion chat participant the shell registered (issue 42, agents/). */
  agents: {
    invokeTool(
      name: string,
      options: vscode.LanguageModelToolInvocationOptions<unknown>,
      token: vscode.CancellationToken,
    ): Promise<vscode.LanguageModelToolResult>;
    prepareTool(name: string, options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation;
    chat: vscode.ChatRequestHandler;
  };
}

/** What the activation shell made at activation and hands over. */
export interface ShellParts extends ShellTree {
  /** Watches REVIEW_FILES_GLOB since activation. */
  readonly reviewWatcher: vscode.FileSystemWatcher;
}

/** Registers every command and listener; the commands the shell stood in for must be free again (it disposed them). */
export function startCore(context: vscode.ExtensionContext, shell: ShellParts): Core {
  // The member's own signature setting (user settings only: a workspace's settings, which a push can bring, cannot turn it off).
  const ownSigned = (): void =>
    setOwnRequireSignedCommits(vscode.workspace.getConfiguration('teamfusion').get<boolean>('requireSignedCommits', false) === true);
  ownSigned();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('teamfusion.requireSignedCommits') && ownSigned()),
  );
  const services = createServices(context, shell.reviewWatcher);
  context.subscriptions.push(services);
  const live = registerFoundation(context, services, shell);
  registerRunCommands(context, services);
  registerDiscussionAnalysis(context, services);
  registerFindCriteria(context, services);
  registerReviewPanel(context, services);
  registerRerank(context, services);
  registerWalkthrough(context, services);
  registerBriefReview(context, services);
  registerBaseline(context, services);
  return {
    revivePanel: (panel, state) => reviveReviewPanel(services, panel, state),
    replayDocument: (doc, edit) => live.replay(doc, edit),
    replayWatched: (kind, uri) => services.reviews.onWatched(kind, uri),
    agents: { invokeTool, prepareTool, chat: chatHandler(services.reviews) },
  };
}
