/**
 * The foundation of the extension: the Reviews view's data (the view itself is the activation shell's), live diagnostics of review folders, and the commands
 * New Review, Validate Review, Import Rankings from CSV, Refresh Reviews and Show Log.
 * Commands accept optional argument objects so tests and scripts can drive them without any UI.
 */
import * as vscode from 'vscode';
import { guardCommand, guardWriteCommand } from '../commandGuard';
import type { Services } from '../services';
import { importRankings } from './importRankings';
import { LiveDiagnostics } from './liveDiagnostics';
import { newReview } from './newReview';
import { ReviewsTree } from './reviewsTree';
import { validateReview } from './validateReview';
import { completesStep, STEP_DONE } from '../walkthrough';
import type { INTERNAL_COMMANDS } from '../firstUse';

/** Not in the command palette: used by the integration tests to see what the Reviews view shows. */
export const DESCRIBE_TREE_COMMAND: (typeof INTERNAL_COMMANDS)[number] = 'teamfusion.internal.describeReviewsTree';

/** The Reviews view the activation shell created (extension.ts), and how to give it its data. */
export interface ShellTree {
  readonly view: vscode.TreeView<unknown>;
  attach(provider: vscode.TreeDataProvider<unknown>): vscode.Disposable;
}

/** Returns the live diagnostics, so the shell can hand over the document event that loaded the core. */
export function registerFoundation(context: vscode.ExtensionContext, services: Services, shell: ShellTree): LiveDiagnostics {
  const { reviews, log } = services;
  const live = new LiveDiagnostics(reviews, log);
  const tree = new ReviewsTree(reviews, live);
  const view = shell.view;

  const reveal = async (root: vscode.Uri): Promise<void> => {
    reviews.invalidate();
    tree.refresh();
    const node = await tree.reviewNode(root);
    if (node) await view.reveal(node, { select: true, focus: false, expand: true }).then(undefined, () => undefined);
  };

  // Streamed tokens and per-turn saves don't change the tree; a run appearing or ending does.
  const runEvents = services.runs.onEvent(({ event }) => {
    if (event.type === 'run-started' || event.type === 'run-finished') tree.refresh();
  });

  // Activation only registers. The reviews are scanned and validated (for the Problems panel) once, when something first
  // needs them: the Reviews view becoming visible, or one of the commands below.
  let validated = false;
  const validateOnce = (): void => {
    if (validated) return;
    validated = true;
    void live.validateAll().catch((e: unknown) => log.error(`Validating the reviews failed: ${String(e)}`));
  };
  const visibility = view.onDidChangeVisibility((e) => {
    if (e.visible) validateOnce();
  });
  if (view.visible) setTimeout(validateOnce, 0);

  const guard = <T>(name: string, fn: (arg: unknown) => Promise<T>) =>
    guardCommand(log, name, (arg: unknown) => {
      validateOnce();
      return fn(arg);
    });

  context.subscriptions.push(
    live,
    tree,
    shell.attach(tree as vscode.TreeDataProvider<unknown>),
    runEvents,
    visibility,
    vscode.commands.registerCommand(
      'teamfusion.newReview',
      guardWriteCommand(
        log,
        'New Review',
        completesStep(STEP_DONE.newReview, (arg) => (validateOnce(), newReview(context.extensionUri, log, arg, reveal))),
      ),
    ),
    vscode.commands.registerCommand(
      'teamfusion.validateReview',
      guard(
        'Validate Review',
        completesStep(STEP_DONE.rankings, (arg) => validateReview(reviews, live, log, arg)),
      ),
    ),
    vscode.commands.registerCommand(
      'teamfusion.importRankings',
      guardWriteCommand(
        log,
        'Import Rankings',
        completesStep(STEP_DONE.rankings, (arg) => (validateOnce(), importRankings(reviews, live, log, arg))),
      ),
    ),
    vscode.commands.registerCommand(
      'teamfusion.refreshReviews',
      guard('Refresh Reviews', async () => {
        reviews.invalidate();
        tree.refresh();
        await live.validateAll();
      }),
    ),
    vscode.commands.registerCommand('teamfusion.showLog', () => log.show(true)),
    vscode.commands.registerCommand(DESCRIBE_TREE_COMMAND, (depth?: unknown) => {
      validateOnce();
      return tree.snapshot(typeof depth === 'number' ? depth : 3);
    }),
  );
  return live;
}
