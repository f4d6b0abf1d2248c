/**
 * A team on several machines, from VS Code (issue 18), with the setting `teamfusion.sync` on (default off):
 *   - a run started or resumed here goes through the review repository's upstream (core/sync/runSync.ts);
 *   - say, pin, ratings and survey from the panel are committed (only that file) and pulled + pushed;
 *   - an open panel follows the remote: it pulls every `teamfusion.syncInterval` seconds (unless this window drives the
 *     run, which pulls itself), the file watcher refreshes the panel, and the Run tab says "live from <remote>".
 * All git work goes through VS Code's built-in git extension (vscodeGit.ts). A remote that cannot be reached is said once
 * ("not synced: …") and tried again; a conflict is never resolved here: it is named.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { commitAndPush } from '../../core/sync/personSync';
import { DEFAULT_SYNC_INTERVAL_S, RunSync, type SyncState } from '../../core/sync/runSync';
import { SyncConflictError, SyncError, upstreamName, type GitTransport } from '../../core/sync/transport';
import { vscodeGitTransportFor } from './vscodeGit';
import { errorMessage } from '../../core/kernel/errors';

export interface SyncStateEvent {
  reviewRoot: string;
  state: SyncState;
  /** Files of this review a pull of the panel's follower just brought (absolute paths under reviewRoot): the panel reloads them. */
  pulled?: string[];
}

export class TeamSync implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<SyncStateEvent>();
  readonly onState: vscode.Event<SyncStateEvent> = this.emitter.event;
  private readonly states = new Map<string, SyncState>();
  private readonly reported = new Map<string, string>();
  private readonly via = new Map<string, string>();
  /** One git operation at a time per review (a follower's pull never runs into a panel's commit). */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly log: vscode.LogOutputChannel) {}

  enabled(): boolean {
    return vscode.workspace.getConfiguration('teamfusion').get<boolean>('sync', false) === true;
  }

  intervalMs(): number {
    const s = vscode.workspace.getConfiguration('teamfusion').get<number>('syncInterval', DEFAULT_SYNC_INTERVAL_S);
    return Math.max(1, Number.isFinite(s) ? s : DEFAULT_SYNC_INTERVAL_S) * 1000;
  }

  /** The last known state of a review's sync (for a panel that opens later). */
  stateOf(reviewRoot: string): SyncState | undefined {
    return this.states.get(path.resolve(reviewRoot));
  }

  private setState(reviewRoot: string, state: SyncState, pulled?: string[]): void {
    const root = path.resolve(reviewRoot);
    this.states.set(root, { ...state });
    this.emitter.fire({ reviewRoot: root, state: { ...state }, ...(pulled?.length ? { pulled } : {}) });
  }

  private async transport(reviewRoot: string): Promise<GitTransport | { unavailable: string }> {
    let fallback = '';
    const t = await vscodeGitTransportFor(reviewRoot, (why) => (fallback = why)).catch((err: unknown) => ({
      unavailable: errorMessage(err),
    }));
    const root = path.resolve(reviewRoot);
    if ('via' in t && this.via.get(root) !== t.via) {
      this.via.set(root, t.via);
      this.log.info(`The review ${root} goes through its git remote with ${t.via}${fallback ? ` (${fallback})` : ''}.`);
    }
    return t;
  }

  /** The driver's collaborator for a run started or resumed in this window; undefined when the setting is off. */
  async forRun(reviewRoot: string): Promise<RunSync | undefined> {
    if (!this.enabled()) return undefined;
    return new RunSync({
      transport: await this.transport(reviewRoot),
      reviewRoot,
      intervalMs: this.intervalMs(),
      log: (line) => this.log.info(line),
      onState: (s) => this.setState(reviewRoot, s),
    });
  }

  /**
   * A person's file written from the panel (an inbox entry, ratings, survey), `file` relative to the review: commits only
   * that file, pulls and pushes. Returns a few words for the panel. A conflict is thrown in words (never resolved).
   */
  commitFile(reviewRoot: string, file: string, message: string): Promise<string> {
    return this.serial(reviewRoot, () => this.commitFileNow(reviewRoot, file, message));
  }

  private serial<T>(reviewRoot: string, fn: () => Promise<T>): Promise<T> {
    const root = path.resolve(reviewRoot);
    const next = (this.queues.get(root) ?? Promise.resolve()).then(fn, fn);
    this.queues.set(
      root,
      next.catch(() => undefined),
    );
    return next;
  }

  private async commitFileNow(reviewRoot: string, file: string, message: string): Promise<string> {
    const t = await this.transport(reviewRoot);
    try {
      const out = await commitAndPush(t, [path.join(reviewRoot, ...file.split('/'))], message);
      if (out.pushed) {
        this.setState(reviewRoot, { remote: out.remote, lastSyncAt: new Date().toISOString() });
        return `committed and pushed to ${out.remote ?? 'the upstream'}`;
      }
      const why = out.problem ?? 'unknown';
      this.log.warn(`not synced: ${why}`);
      this.setState(reviewRoot, { ...this.stateOf(reviewRoot), problem: why });
      return `not synced: ${why}${out.committed ? ' (committed here; the next sync delivers it)' : ''}`;
    } catch (err) {
      if (err instanceof SyncConflictError) throw new Error(err.message);
      throw err;
    }
  }

  /**
   * Follows the remote for an open panel: pulls every interval while the setting is on and `driving()` is false (a run
   * driven here pulls itself). The file watcher of the panel picks up what the pull brings.
   */
  follow(reviewRoot: string, driving: () => boolean): vscode.Disposable {
    let timer: NodeJS.Timeout | undefined;
    let busy = false;
    let stopped = false;
    const tick = async (): Promise<void> => {
      if (stopped) return;
      if (this.enabled() && !driving() && !busy) {
        busy = true;
        try {
          await this.serial(reviewRoot, () => this.pullOnce(reviewRoot));
        } finally {
          busy = false;
        }
      }
      if (!stopped) timer = setTimeout(() => void tick(), this.intervalMs());
    };
    timer = setTimeout(() => void tick(), 0);
    return new vscode.Disposable(() => {
      stopped = true;
      if (timer) clearTimeout(timer);
    });
  }

  private async pullOnce(reviewRoot: string): Promise<void> {
    const root = path.resolve(reviewRoot);
    const t = await this.transport(root);
    try {
      if ('unavailable' in t) throw new SyncError('no-repo', t.unavailable);
      const status = await t.status();
      const pulled = await t.pull();
      if (this.reported.has(root)) this.log.info(`synced again with ${status.upstream ? upstreamName(status) : 'the remote'}.`);
      this.reported.delete(root);
      // What the pull brought into this review is reloaded at once (the file watcher may see git's writes late).
      const real = await fs.realpath(root).catch(() => root);
      const mine = pulled.changedFiles.flatMap((f) => {
        const rel = path.relative(real, f);
        return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? [path.join(root, rel)] : [];
      });
      this.setState(root, { remote: status.upstream ? upstreamName(status) : undefined, lastSyncAt: new Date().toISOString() }, mine);
    } catch (err) {
      const why = errorMessage(err);
      if (this.reported.get(root) !== why) {
        this.reported.set(root, why);
        this.log.warn(`not synced: ${why}`);
        if (err instanceof SyncConflictError) void vscode.window.showErrorMessage(`TeamFusion: ${why}`);
      }
      this.setState(root, { ...this.stateOf(root), problem: why });
    }
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
