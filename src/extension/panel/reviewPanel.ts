/**
 * One webview panel per review folder: the page host (pageHost.ts) for its webview, the state builder (reviewState.ts)
 * for its review, and the handlers of its messages by area (handlers/). This class ties them together: it wires the
 * panel's events (file changes, run events, coding progress, sync, trust and settings) to a reload or a new state, and
 * hands each message the webview posts, once parsed, to its handler.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../services';
import type { RunEvent } from '../../core/step/events';
import { errorMessage } from '../../core/kernel/errors';
import { parseWebviewMessage } from '../../protocol/panel';
import { discussionCoding } from '../analysis/discussionCoding';
import { COMMANDS, type CommandArgList, type CommandName } from '../commandIds';
import { PageHost } from './pageHost';
import { panelTrust } from './trust';
import type { PanelTrust } from './handlers/trustGate';
import { ReviewState } from './state/reviewState';
import { dispatch } from './handlers';
import type { PanelActions } from './handlers/context';

import { REVIEW_VIEW_TYPE } from '../firstUse';
export { REVIEW_VIEW_TYPE };

function sameFolder(a: string, b: string): boolean {
  return path.resolve(a) === path.resolve(b);
}

export class ReviewPanel implements vscode.Disposable, PanelActions {
  private static readonly panels = new Map<string, ReviewPanel>();

  /** Shows the panel of `root`, creating it or bringing the open one to the front. */
  static show(services: Services, root: vscode.Uri, runId?: string): ReviewPanel {
    const key = path.resolve(root.fsPath);
    const open = ReviewPanel.panels.get(key);
    if (open) {
      open.panel.reveal();
      if (runId && runId !== open.state.selectedRunId) {
        open.state.selectedRunId = runId;
        void open.postState();
      }
      return open;
    }
    const panel = vscode.window.createWebviewPanel(
      REVIEW_VIEW_TYPE,
      `Review: ${path.basename(root.fsPath)}`,
      vscode.ViewColumn.Active,
      ReviewPanel.webviewOptions(services.context.extensionUri, root),
    );
    return new ReviewPanel(services, panel, root, runId);
  }

  /** Adopts a panel VS Code restored after a reload (see the serializer in register.ts). */
  static revive(services: Services, panel: vscode.WebviewPanel, root: vscode.Uri, runId?: string): ReviewPanel {
    ReviewPanel.panels.get(path.resolve(root.fsPath))?.dispose();
    return new ReviewPanel(services, panel, root, runId);
  }

  static webviewOptions(extensionUri: vscode.Uri, root: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    return {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media'), root],
    };
  }

  private readonly disposables: vscode.Disposable[] = [];
  private readonly page: PageHost;
  private readonly state: ReviewState;
  readonly trust: PanelTrust;
  /** Counts the state builds started (postState shows only the newest). */
  private builds = 0;

  private constructor(
    readonly services: Services,
    readonly panel: vscode.WebviewPanel,
    readonly root: vscode.Uri,
    runId: string | undefined,
  ) {
    ReviewPanel.panels.set(path.resolve(root.fsPath), this);
    this.trust = panelTrust(services.log);
    const page = new PageHost(services, panel, root);
    this.page = page;
    this.state = new ReviewState(services, root, {
      postState: () => this.postState(),
      whenReady: (fn) => page.whenReady(fn),
      mark: (step) => page.mark(step),
      setTitle: (title) => (panel.title = title),
      get disposed() {
        return page.disposed;
      },
    });
    this.state.selectedRunId = runId;
    const webview = panel.webview;
    webview.options = ReviewPanel.webviewOptions(services.context.extensionUri, root);
    panel.iconPath = vscode.Uri.joinPath(services.context.extensionUri, 'media', 'teamfusion.svg');
    // The page is written with the first state (postState), once the review is loaded.

    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      // A hidden webview is torn down (no retainContextWhenHidden) and rebuilt from its HTML when shown: what is posted
      // into the gap waits for the new page (PageHost.post); the page is rewritten with the current state, so it comes
      // back showing that, not the state it was first written with (and `ready` sends a newer one if there is).
      panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.visible) return;
        this.page.hidden();
        void this.postState();
      }),
      webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)),
      services.runs.onEvent((e) => {
        if (sameFolder(e.reviewRoot, root.fsPath)) this.onRunEvent(e.event);
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.postState()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('teamfusion.thumbnailSize')) void this.postState();
      }),
    );
    const coding = discussionCoding();
    if (coding) {
      this.disposables.push(
        coding.onProgress((e) => {
          if (!sameFolder(e.reviewRoot, root.fsPath)) return;
          this.post({ type: 'codingProgress', progress: e.progress });
          if (!e.progress.active) void this.postState();
        }),
      );
    }
    // Setting teamfusion.sync: the panel follows the team's remote (a pull every interval unless this window drives the
    // run); what a pull brings reaches the panel through the file watcher below.
    this.disposables.push(
      services.sync.follow(root.fsPath, () => services.runs.isRunning(root.fsPath)),
      services.sync.onState((e) => {
        if (!sameFolder(e.reviewRoot, root.fsPath)) return;
        this.post({ type: 'syncState', ...e.state });
        // A pull that brought files of this review (new turns of a run driven on another machine) refreshes the panel.
        for (const f of e.pulled ?? []) this.state.scheduleReload(vscode.Uri.file(f));
      }),
    );
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, '**/*'));
    const changed = (uri: vscode.Uri) => this.state.scheduleReload(uri);
    this.disposables.push(watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed), watcher.onDidDelete(changed));
    this.state.start();
  }

  // ── PanelActions: what the message handlers may do ──────────────────────────────────────────────────────────────

  post: PanelActions['post'] = (m) => this.page.post(m);

  async command<K extends CommandName>(name: K, ...arg: CommandArgList<K>): Promise<void> {
    try {
      await vscode.commands.executeCommand(COMMANDS[name], ...arg);
    } catch (e) {
      this.services.log.error(`${name} failed: ${errorMessage(e)}`);
      this.post({ type: 'notice', level: 'error', message: errorMessage(e) });
    }
  }

  async showRun(runId: string | undefined): Promise<void> {
    this.state.selectedRunId = runId;
    await this.postState();
  }

  reload(all: boolean): void {
    this.state.reload(all);
  }

  async confirm(message: string, detail: string, button: string): Promise<boolean> {
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, button)) === button;
  }

  async pageReady(): Promise<void> {
    await this.page.onReady(this.state.loading, () => this.postState());
    const sync = this.services.sync.stateOf(this.root.fsPath);
    if (sync) this.post({ type: 'syncState', ...sync });
  }

  // ────────────────────────────────────────────────────────────────────────────────────────────────────────────────

  /** Builds the state and gives it to the page (see PageHost.show), unless the page is still starting. */
  private async postState(): Promise<void> {
    if (!this.state.loaded || !this.page.wantsState()) return;
    // Builds read files and may overlap (a reload, a trust grant, a picked run): only the newest started is shown, so an
    // older one that finishes late never puts back what it read.
    const build = ++this.builds;
    const state = await this.state.build(this.page.toWebviewUri);
    if (state && build === this.builds) this.page.show(state);
  }

  private onRunEvent(event: RunEvent): void {
    if (event.type === 'run-started') this.state.selectedRunId = event.runId;
    // The record is saved as the run goes (journal and run.json); the webview needs only the events (and fresh state at start and end).
    if (event.type !== 'record-saved') this.post({ type: 'runEvent', event });
    if (event.type === 'run-started' || event.type === 'run-finished') this.state.reloadRuns();
  }

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.services.log.warn(`Dropped an invalid message from the review panel: ${parsed.error}`);
      return;
    }
    await dispatch(parsed.value, this);
  }

  dispose(): void {
    if (this.page.disposed) return;
    this.page.disposed = true;
    this.state.stop();
    const key = path.resolve(this.root.fsPath);
    if (ReviewPanel.panels.get(key) === this) ReviewPanel.panels.delete(key);
    this.panel.dispose();
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }
}
