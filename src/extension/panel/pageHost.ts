/**
 * The review panel's page host: the webview page's lifecycle, and nothing about the review. The first state comes with
 * the page (the HTML is written once it is built), so the app draws it without a round trip. Nothing is lost before
 * the app says `ready`: what is posted meanwhile (run events, notices, coding progress) waits in a bounded queue and is
 * delivered in order on `ready`, before the state; a reply is not kept (the page that asked is gone). On `ready` the host
 * gives the state unless the page already holds that very state, and after that a state change is posted at once. While
 * the panel is hidden (its page torn down) a new state rewrites the page, so it comes back showing the current state.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../services';
import { isReplyType, type HostMessage, type PanelState } from '../../protocol/panel';
import { errorMessage } from '../../core/kernel/errors';
import { makeNonce, panelHtml } from './html';

/** At most this many messages wait for the page; beyond, the oldest is dropped (and the log says how many). */
export const PAGE_QUEUE_LIMIT = 500;

export class PageHost {
  private ready = false;
  /** What was posted while the page was not ready, oldest first (delivered on `ready`). */
  private readonly waiting: HostMessage[] = [];
  /** How many of the oldest waiting messages were dropped since the last delivery. */
  private dropped = 0;
  /** The state (JSON) the current page was written with; undefined until the page is written. */
  private pageState: string | undefined;
  /** Whether something changed after the page was written and before it said `ready` (then `ready` sends a new state). */
  private pageStale = false;
  /** What waits for the page's `ready` (the rest of a load: see ReviewState.load). */
  private afterReady: (() => void) | undefined;
  /** When the steps of opening happened (ms since `createdAt`), logged once the page says `ready`. */
  private readonly openMarks: Record<string, number> = {};
  private readonly createdAt = Date.now();
  disposed = false;

  constructor(
    private readonly services: Services,
    readonly panel: vscode.WebviewPanel,
    private readonly root: vscode.Uri,
  ) {}

  /** The page was torn down (panel hidden): what is posted waits for the next page; the next state rewrites the page. */
  hidden(): void {
    this.ready = false;
  }

  /** Notes when a step of opening the panel happened (the first time only). */
  mark(name: string): void {
    this.openMarks[name] ??= Date.now() - this.createdAt;
  }

  toWebviewUri = (absPath: string): string => this.panel.webview.asWebviewUri(vscode.Uri.file(absPath)).toString();

  /** Posts `message` now if the page is ready, else keeps it for the page's `ready` (a reply excepted: see the header). */
  post(message: HostMessage): void {
    if (this.disposed) return;
    if (this.ready) return this.send(message);
    if (isReplyType(message.type)) {
      this.services.log.warn(`Review panel: ${message.type} not posted: the page that asked is gone.`);
      return;
    }
    this.waiting.push(message);
    if (this.waiting.length > PAGE_QUEUE_LIMIT) {
      this.waiting.shift();
      this.dropped++;
    }
  }

  private send(message: HostMessage): void {
    if (this.disposed) return;
    void this.panel.webview.postMessage(message).then(undefined, (e: unknown) => {
      this.services.log.warn(`Posting to the review panel failed: ${errorMessage(e)}`);
    });
  }

  /** Delivers what waited for the page, in the order it was posted. */
  private deliverWaiting(): void {
    if (this.dropped > 0) {
      this.services.log.warn(
        `Review panel: the ${this.dropped} oldest message(s) posted before the page was ready were dropped (at most ${PAGE_QUEUE_LIMIT} wait).`,
      );
      this.dropped = 0;
    }
    for (const m of this.waiting.splice(0)) this.send(m);
  }

  /**
   * Whether a new state should be built now: not while a visible page is still starting (it gets the state on its
   * `ready`, marked stale here so it does).
   */
  wantsState(): boolean {
    if (this.disposed) return false;
    if (!this.ready && this.pageState !== undefined && this.panel.visible) {
      this.pageStale = true;
      return false;
    }
    return true;
  }

  /** Gives the page a state: posted when the app is ready; else written with the page when there is none yet or it is hidden. */
  show(state: PanelState): void {
    if (this.disposed) return;
    if (this.ready) {
      this.post({ type: 'state', state });
      this.mark('statePosted');
      return;
    }
    if (this.pageState !== undefined && this.panel.visible) return;
    const json = JSON.stringify(state);
    if (json === this.pageState) return;
    this.pageState = json;
    this.pageStale = false;
    this.panel.webview.html = this.html(state);
    this.mark('pageWritten');
  }

  /**
   * The app said `ready`: what waited is delivered; once `loading` is done, a new state only if something changed since
   * the page was written.
   */
  async onReady(loading: Promise<void> | undefined, postState: () => Promise<void>): Promise<void> {
    this.ready = true;
    this.mark('ready');
    this.deliverWaiting();
    await loading;
    if (this.pageState === undefined || this.pageStale) await postState();
    this.pageStale = false;
    this.logOpen();
    const next = this.afterReady;
    this.afterReady = undefined;
    next?.();
  }

  /** Runs `fn` now if the page is ready, else when it says `ready` (the last one asked for wins). */
  whenReady(fn: () => void): void {
    if (this.ready) fn();
    else this.afterReady = fn;
  }

  private html(state: PanelState): string {
    const webview = this.panel.webview;
    const ext = this.services.context.extensionUri;
    return panelHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(ext, 'dist', 'webview', 'panel.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(ext, 'media', 'panel.css')).toString(),
      nonce: makeNonce(),
      title: path.basename(this.root.fsPath),
      state,
    });
  }

  /** Once: how long opening took, step by step (the TeamFusion output; the vsix stage reports it). */
  private logOpen(): void {
    if (this.openMarks.logged !== undefined) return;
    this.openMarks.logged = 0;
    const steps = Object.entries({ created: 0, ...this.openMarks })
      .filter(([k]) => k !== 'logged')
      .map(([k, v]) => `${k} +${v} ms`);
    this.services.log.info(`Review panel ${path.basename(this.root.fsPath)} opened at ${this.createdAt}: ${steps.join(', ')}`);
  }
}
