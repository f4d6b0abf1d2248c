/**
 * Entry point of the extension (dist/extension.js), and all that activation does: it registers every command (each a
 * stand-in), the Reviews view and the review panel's serializer, and returns. The core — src/core, the zod schemas, the
 * services and every area's code (core.ts, bundled apart as dist/extension-core.js) — is loaded on first use: a command
 * run, the Reviews view asking for its items, a review file opened, edited, saved or changed on disk, a review panel
 * restored, or the VS Code chat model that belongs in the status bar (teamfusion.chatProvider "vscode"). Loading replaces
 * the stand-ins with the core's commands in one synchronous step, and the command that loaded it then runs as the core's.
 */
import * as vscode from 'vscode';
import type { Core } from './core';
import { INTERNAL_COMMANDS, isReviewFilePath, REVIEW_FILES_GLOB, REVIEW_VIEW_TYPE, REVIEWS_VIEW_ID } from './firstUse';

/** The Reviews view's data provider until the core attaches its own, which it then forwards to. */
class ShellTree implements vscode.TreeDataProvider<unknown> {
  private target: vscode.TreeDataProvider<unknown> | undefined;
  private readonly changed = new vscode.EventEmitter<unknown>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly load: () => unknown) {}

  attach(target: vscode.TreeDataProvider<unknown>): vscode.Disposable {
    this.target = target;
    const sub = target.onDidChangeTreeData?.((e) => this.changed.fire(e));
    return new vscode.Disposable(() => {
      sub?.dispose();
      this.changed.dispose();
    });
  }

  private real(): vscode.TreeDataProvider<unknown> {
    if (!this.target) this.load();
    if (!this.target) throw new Error('TeamFusion did not start (see the TeamFusion output).');
    return this.target;
  }

  getTreeItem(element: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.real().getTreeItem(element);
  }

  getChildren(element?: unknown): vscode.ProviderResult<unknown[]> {
    return this.real().getChildren(element);
  }

  getParent(element: unknown): vscode.ProviderResult<unknown> {
    return this.real().getParent?.(element);
  }
}

function commandIds(context: vscode.ExtensionContext): string[] {
  const manifest = context.extension.packageJSON as { contributes?: { commands?: { command?: unknown }[] } };
  const listed = (manifest.contributes?.commands ?? []).map((c) => c.command).filter((c): c is string => typeof c === 'string');
  return [...new Set([...listed, ...INTERNAL_COMMANDS])];
}

export function activate(context: vscode.ExtensionContext): void {
  let core: Core | undefined;
  let failure: Error | undefined;
  const standIns: vscode.Disposable[] = [];

  const load = (): Core => {
    if (core) return core;
    if (failure) throw failure;
    for (const d of standIns.splice(0)) d.dispose();
    try {
      // The core's bundle is parsed here, on first use, never at activation (esbuild.mjs keeps it a file of its own).
      const { startCore } = require('./core') as typeof import('./core');
      core = startCore(context, { view, attach: (provider) => tree.attach(provider), reviewWatcher });
      return core;
    } catch (e) {
      failure = e instanceof Error ? e : new Error(String(e));
      void vscode.window.showErrorMessage(`TeamFusion could not start: ${failure.message}`);
      throw failure;
    }
  };

  // Review files changed on disk: watched from activation on (a change is a first use), so none is missed while the core loads.
  const reviewWatcher = vscode.workspace.createFileSystemWatcher(REVIEW_FILES_GLOB);
  context.subscriptions.push(reviewWatcher);
  const tree = new ShellTree(load);
  const view = vscode.window.createTreeView(REVIEWS_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  context.subscriptions.push(view);

  for (const id of commandIds(context)) {
    standIns.push(
      vscode.commands.registerCommand(id, (...args: unknown[]) => {
        load();
        return vscode.commands.executeCommand(id, ...args);
      }),
    );
  }

  const touched = (edit: boolean) => (doc: vscode.TextDocument) => {
    if (doc.uri.scheme === 'file' && isReviewFilePath(doc.uri.path)) load().replayDocument(doc, edit);
  };
  const wantsChatModel = () => vscode.workspace.getConfiguration('teamfusion').get('chatProvider') === 'vscode';
  const watched = (kind: 'create' | 'delete' | 'change') => (uri: vscode.Uri) => {
    if (!uri.path.includes('/node_modules/') && !(kind === 'change' && uri.path.endsWith('/run.json'))) load().replayWatched(kind, uri);
  };
  standIns.push(
    reviewWatcher.onDidCreate(watched('create')),
    reviewWatcher.onDidDelete(watched('delete')),
    reviewWatcher.onDidChange(watched('change')),
    vscode.workspace.onDidOpenTextDocument(touched(false)),
    vscode.workspace.onDidSaveTextDocument(touched(false)),
    vscode.workspace.onDidChangeTextDocument((e) => touched(true)(e.document)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('teamfusion.chatProvider') && wantsChatModel()) load();
    }),
  );
  context.subscriptions.push(
    new vscode.Disposable(() => {
      for (const d of standIns.splice(0)) d.dispose();
    }),
    vscode.window.registerWebviewPanelSerializer(REVIEW_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => load().revivePanel(panel, state),
    }),
  );
  // The chosen VS Code chat model is shown in the status bar: that needs the core, but not before activation returns (nor
  // does reading the setting that says so).
  setTimeout(() => {
    if (wantsChatModel()) void Promise.resolve().then(load).catch(() => undefined);
  }, 0);
}

export function deactivate(): void {
  // Disposables registered on the context are disposed by VS Code.
}
