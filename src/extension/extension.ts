/**
 * Entry point of the extension: a thin shell over src/core. Each area registers its own commands and views and
 * returns disposables; everything is collected on the context and disposed on deactivate.
 */
import * as vscode from 'vscode';
import { registerFoundation } from './foundation/register';
import { registerRunCommands } from './run/register';
import { registerReviewPanel } from './panel/register';
import { registerRerank } from './rerank/register';
import { registerDiscussionAnalysis } from './analysis/discussionCoding';
import { createServices } from './services';
import { registerWalkthrough } from './walkthrough';
import { registerBriefReview } from './brief/register';
import { registerBaseline } from './baseline/register';

export function activate(context: vscode.ExtensionContext): void {
  const services = createServices(context);
  context.subscriptions.push(services);
  registerFoundation(context, services);
  registerRunCommands(context, services);
  registerDiscussionAnalysis(context, services);
  registerReviewPanel(context, services);
  registerRerank(context, services);
  registerWalkthrough(context, services);
  registerBriefReview(context, services);
  registerBaseline(context, services);
}

export function deactivate(): void {
  // Disposables registered on the context are disposed by VS Code.
}
