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

/** The MCP server definition API (VS Code 1.101+; not in the @types/vscode this builds against): used only when present. */
interface McpApi {
  registerMcpServerDefinitionProvider?(
    id: string,
    provider: { onDidChangeMcpServerDefinitions?: vscode.Event<void>; provideMcpServerDefinitions(): unknown[] },
  ): vscode.Disposable;
}
type McpStdioDefinition = new (
  label: string,
  command: string,
  args?: string[],
  env?: Record<string, string | number | null>,
) => { cwd?: vscode.Uri };

const FOLLOWUPS = [
  { command: 'status', prompt: '', label: 'How much does the team agree?' },
  { command: 'disagree', prompt: '', label: 'Where does the team disagree?' },
  { command: 'next', prompt: '', label: 'What is left to decide?' },
];

/**
 * The editor's agents (issue 42): the language-model tools package.json lists, the @teamfusion chat participant (both
 * answered by the core, loaded on first use) and the MCP server (`teamfusion mcp` of the bundled CLI, one per workspace
 * folder, started in it). Each API is used only where this VS Code has it (code-server may lack some).
 */
function registerAgents(context: vscode.ExtensionContext, load: () => Core): void {
  const manifest = context.extension.packageJSON as { contributes?: { languageModelTools?: { name?: unknown }[] } };
  const lm = vscode.lm as (typeof vscode.lm & McpApi) | undefined;
  if (typeof lm?.registerTool === 'function') {
    for (const name of (manifest.contributes?.languageModelTools ?? [])
      .map((t) => t.name)
      .filter((n): n is string => typeof n === 'string')) {
      context.subscriptions.push(
        lm.registerTool(name, {
          invoke: (o, t) => load().agents.invokeTool(name, o, t),
          prepareInvocation: (o) => load().agents.prepareTool(name, o),
        }),
      );
    }
  }
  if (typeof vscode.chat?.createChatParticipant === 'function') {
    const participant = vscode.chat.createChatParticipant('teamfusion', (r, c, s, t) => load().agents.chat(r, c, s, t));
    participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
    participant.followupProvider = {
      provideFollowups: (result) => FOLLOWUPS.filter((f) => f.command !== (result.metadata as { command?: string } | undefined)?.command),
    };
    context.subscriptions.push(participant);
  }
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: McpStdioDefinition }).McpStdioServerDefinition;
  if (typeof lm?.registerMcpServerDefinitionProvider === 'function' && Definition) {
    const changed = new vscode.EventEmitter<void>();
    const cli = vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath;
    context.subscriptions.push(
      changed,
      vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
      lm.registerMcpServerDefinitionProvider('teamfusion', {
        onDidChangeMcpServerDefinitions: changed.event,
        provideMcpServerDefinitions: () =>
          (vscode.workspace.workspaceFolders ?? [])
            .filter((f) => f.uri.scheme === 'file')
            .map((f) => {
              // The extension host's own Node (in VS Code desktop an Electron binary, run as Node).
              const d = new Definition(`TeamFusion (${f.name})`, process.execPath, [cli, 'mcp'], { ELECTRON_RUN_AS_NODE: '1' });
              d.cwd = f.uri;
              return d;
            }),
      }),
    );
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
  registerAgents(context, load);
  // The chosen VS Code chat model is shown in the status bar: that needs the core, but not before activation returns (nor
  // does reading the setting that says so).
  setTimeout(() => {
    if (wantsChatModel())
      void Promise.resolve()
        .then(load)
        .catch(() => undefined);
  }, 0);
}

export function deactivate(): void {
  // Disposables registered on the context are disposed by VS Code.
}
