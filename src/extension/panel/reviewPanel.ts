/**
 * One webview panel per review folder. Loads the review, its analysis and its runs, gives them to the webview app as
 * its state, forwards live run events, and turns the app's commands into extension commands.
 * The first state comes with the page (the HTML is written once it is built), so the app draws it without a round trip.
 * The host posts nothing before the app says `ready`; on `ready` it posts the state unless the page already holds that
 * very state, and after that a state change is posted at once. While the panel is hidden (its page torn down) a new state
 * rewrites the page, so it comes back showing the current state.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../services';
import { analyzeReview } from '../../core/stats';
import { listRunEntries, type RunEntry } from '../../core/record/store';
import { formatDiagnostic } from '../../core/diagnostics/diagnostics';
import { LOCK_FILE, STALE_MS, interruptedRuns } from '../../core/record/lock';
import { PARTS_FILE } from '../../core/record/promptParts';
import { JOURNAL_FILE } from '../../core/record/journal';
import type { RunRecord } from '../../core/record/record';
import type { RunEvent } from '../../core/step/events';
import {
  AnalysisSchema,
  parseWebviewMessage,
  type HostMessage,
  type PanelAnalysis,
  type PanelEvaluation,
  type PanelSideBySide,
  type PanelState,
  type SaveRankingRequest,
  type WebviewMessage,
} from '../../protocol/panel';
import { buildPanelState, chosenRunId } from './panelState';
import { readInbox } from '../../core/people/inbox';
import { notTakenIn } from '../../core/people/apply';
import { panelCriteria } from './criteriaState';
import { runEvaluation, runFeedback, saveRatingsFromPanel, saveSurveyFromPanel, sideBySide } from './evaluation';
import { noteRerankingSaved } from '../../core/evaluation/decisionTimes';
import { makeNonce, panelHtml } from './html';
import { saveRanking } from './rankingWriter';
import { workspaceWritable } from '../commandGuard';
import { resolveInReview } from '../../core/files/reviewFiles';
import { untrustedWriteMessage } from '../run/trustGuard';
import { discussionCoding } from '../analysis/discussionCoding';
import { discussionState } from '../analysis/panelDiscussion';
import { briefRunState } from './briefState';

import { REVIEW_VIEW_TYPE } from '../firstUse';
import { errorMessage } from '../../core/kernel/errors';
export { REVIEW_VIEW_TYPE };

/** Designers × options above which the panel shows the rankings before the agreement (50 × 50 is 2,500; the sample 24). */
const DEFER_ANALYSIS_CELLS = 400;

function sameFolder(a: string, b: string): boolean {
  return path.resolve(a) === path.resolve(b);
}

/** When a run's record last moved (its last save, or its last message: turns go to the journal between saves). */
function lastMove(r: RunRecord): number {
  const times = [r.updatedAt, ...r.iterations.flatMap((it) => it.messages.map((m) => m.at))].map((t) => (t ? Date.parse(t) : NaN));
  return Math.max(0, ...times.filter((t) => Number.isFinite(t)));
}

export class ReviewPanel implements vscode.Disposable {
  private static readonly panels = new Map<string, ReviewPanel>();

  /** Shows the panel of `root`, creating it or bringing the open one to the front. */
  static show(services: Services, root: vscode.Uri, runId?: string): ReviewPanel {
    const key = path.resolve(root.fsPath);
    const open = ReviewPanel.panels.get(key);
    if (open) {
      open.panel.reveal();
      if (runId && runId !== open.selectedRunId) {
        open.selectedRunId = runId;
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
    const created = new ReviewPanel(services, panel, root);
    created.selectedRunId = runId;
    return created;
  }

  /** Adopts a panel VS Code restored after a reload (see the serializer in register.ts). */
  static revive(services: Services, panel: vscode.WebviewPanel, root: vscode.Uri, runId?: string): ReviewPanel {
    const key = path.resolve(root.fsPath);
    ReviewPanel.panels.get(key)?.dispose();
    const revived = new ReviewPanel(services, panel, root);
    revived.selectedRunId = runId;
    return revived;
  }

  static webviewOptions(extensionUri: vscode.Uri, root: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    return {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [
        vscode.Uri.joinPath(extensionUri, 'dist'),
        vscode.Uri.joinPath(extensionUri, 'media'),
        root,
      ],
    };
  }

  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  /** The state (JSON) the current page was written with; undefined until the page is written. */
  private pageState: string | undefined;
  /** Whether something changed after the page was written and before it said `ready` (then `ready` sends a new state). */
  private pageStale = false;
  /** What waits for the page's `ready` (the rest of a load: see reload). */
  private afterReady: (() => void) | undefined;
  /** When the steps of opening happened (ms since `created`), logged once the page says `ready`. */
  private readonly openMarks: Record<string, number> = {};
  private readonly createdAt = Date.now();
  private disposed = false;
  private selectedRunId: string | undefined;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private reloadAll = false;
  private loading: Promise<void> | undefined;
  private analysisCache: { value: PanelAnalysis } | { error: string } = { error: 'Loading…' };
  /** Bumped by every reload of the review: a deferred analysis of an older load is dropped. */
  private analysisGeneration = 0;
  private lastLoad: Awaited<ReturnType<Services['reviews']['load']>> | undefined;
  private runs: RunRecord[] = [];
  /** Runs whose record cannot be used, with their diagnostic. */
  private brokenRuns: { id: string; problem: string }[] = [];
  /** Runs "running" on disk that no live process drives. */
  private interrupted: ReadonlySet<string> = new Set();
  /** Agreement before → after per run id (runs with a re-ranking folder); forgotten on every reload. */
  private readonly agreements = new Map<string, Promise<PanelEvaluation | undefined>>();
  /** This review beside its team's usual-way review(s) in the parent folder; forgotten on every reload. */
  private sideBySide: Promise<PanelSideBySide | undefined> | undefined;

  private constructor(
    private readonly services: Services,
    readonly panel: vscode.WebviewPanel,
    readonly root: vscode.Uri,
  ) {
    ReviewPanel.panels.set(path.resolve(root.fsPath), this);
    const webview = panel.webview;
    webview.options = ReviewPanel.webviewOptions(services.context.extensionUri, root);
    panel.iconPath = vscode.Uri.joinPath(services.context.extensionUri, 'media', 'teamfusion.svg');
    // The page is written with the first state (postState), once the review is loaded.

    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      // A hidden webview is torn down (no retainContextWhenHidden) and rebuilt from its HTML when shown: nothing is posted
      // into the gap; the page is rewritten with the current state, so it comes back showing that, not the state it
      // was first written with (and `ready` sends a newer one if there is).
      panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.visible) return;
        this.ready = false;
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
        for (const f of e.pulled ?? []) this.scheduleReload(vscode.Uri.file(f));
      }),
    );
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root, '**/*'));
    const changed = (uri: vscode.Uri) => this.scheduleReload(uri);
    this.disposables.push(watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed), watcher.onDidDelete(changed));
    this.reloadAll = true;
    this.loading = this.reload(true);
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

  /** Notes when a step of opening the panel happened (the first time only). */
  private mark(name: string): void {
    this.openMarks[name] ??= Date.now() - this.createdAt;
  }

  private toWebviewUri = (absPath: string): string => this.panel.webview.asWebviewUri(vscode.Uri.file(absPath)).toString();

  /** Changes under runs/ only reload the runs; anything else reloads the review and its analysis too. */
  private scheduleReload(uri: vscode.Uri): void {
    const rel = path.relative(this.root.fsPath, uri.fsPath).split(path.sep);
    if (rel[0] !== 'runs') this.reloadAll = true;
    if (rel.some((p) => p.endsWith('.tmp'))) return;
    // The prompt parts are appended with every run.json write, and the driver's lock is refreshed every few seconds: neither
    // changes what the panel shows.
    const name = rel[rel.length - 1] ?? '';
    if (rel[0] === 'runs' && (name === PARTS_FILE || name.startsWith(LOCK_FILE))) return;
    // During a run its turns go to the journal and its record is rewritten at round boundaries; the live events already
    // carry both, and the run's start and end reload the state.
    if (rel[0] === 'runs' && (name === 'run.json' || name === JOURNAL_FILE) && this.services.runs.isRunning(this.root.fsPath)) return;
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      const all = this.reloadAll;
      this.reloadAll = false;
      this.loading = this.reload(all);
    }, 250);
  }

  private async reload(all: boolean): Promise<void> {
    this.agreements.clear();
    this.sideBySide = undefined;
    let analyseAfter = false;
    let decodeAfter = false;
    try {
      // The runs and the usual-way reviews beside this one are read while the review loads.
      const listed = listRunEntries(this.root.fsPath).catch((e: unknown) => {
        this.services.log.warn(`Could not list the runs of ${this.root.fsPath}: ${errorMessage(e)}`);
        return [] as RunEntry[];
      });
      this.sideBySide = this.pairedReviews();
      if (all || !this.lastLoad) {
        // Decoding every image (to find a corrupt one) is most of a review's load: the panel shows the review first and
        // decodes right after (completeLater), like the agreement of a large review.
        this.lastLoad = await this.services.reviews.load(this.root, { partial: true, despiteSettings: true, decodeImages: false });
        decodeAfter = true;
        this.mark('loaded');
        // A large review's permutation test takes a few hundred milliseconds of the extension host: the panel shows the
        // rankings first and the agreement right after, instead of waiting for it.
        const review = this.lastLoad.review;
        analyseAfter = !!review && review.designers.length * review.options.length > DEFER_ANALYSIS_CELLS;
        this.analysisGeneration++;
        this.analysisCache = analyseAfter ? { error: 'Working out the agreement (10,000 permutations)…' } : this.analyse();
        if (this.lastLoad.review) this.panel.title = `Review: ${this.lastLoad.review.title}`;
      }
      const entries = await listed;
      this.runs = entries.flatMap((e) => (e.record ? [e.record] : []));
      this.brokenRuns = entries.flatMap((e) => (e.diagnostics ? [{ id: e.id, problem: e.diagnostics.map(formatDiagnostic).join(' ') }] : []));
      for (const b of this.brokenRuns) this.services.log.warn(b.problem);
      const interrupted = new Set(await interruptedRuns(this.root.fsPath, this.runs));
      // Through the team's remote (setting teamfusion.sync) a run may be driven on another machine: its lock is not here.
      // It counts as interrupted only once its record has not moved for as long as another host's lock goes stale.
      if (this.services.sync.enabled()) {
        for (const r of this.runs) if (interrupted.has(r.id) && Date.now() - lastMove(r) < STALE_MS) interrupted.delete(r.id);
      }
      this.interrupted = interrupted;
    } catch (e) {
      this.services.log.error(`Could not load the review ${this.root.fsPath}: ${errorMessage(e)}`);
    }
    await this.postState();
    // `loading` (which `ready` waits for) ends here; the agreement and the images' decode follow in states of their own,
    // once the page is up (the extension host's work would hold back what it sends the page while it starts).
    if (analyseAfter || decodeAfter) {
      const generation = this.analysisGeneration;
      this.whenReady(() => void this.completeLater(generation, analyseAfter, decodeAfter));
    }
  }

  /** Runs `fn` now if the page is ready, else when it says `ready` (the last one asked for wins). */
  private whenReady(fn: () => void): void {
    if (this.ready) fn();
    else this.afterReady = fn;
  }

  /**
   * What the first state left out, unless a later reload has replaced it or the panel is gone: a large review's agreement
   * (posted as soon as it is worked out), then the load with every image decoded, which replaces the first one only when
   * it finds more (a corrupt image: an error in the Problems list and the panel).
   */
  private async completeLater(generation: number, analyse: boolean, decode: boolean): Promise<void> {
    const current = () => !this.disposed && generation === this.analysisGeneration;
    await new Promise((r) => setImmediate(r));
    if (!current()) return;
    if (analyse) {
      this.analysisCache = this.analyse();
      await this.postState();
    }
    if (!decode || !current()) return;
    const full = await this.services.reviews.load(this.root, { partial: true, despiteSettings: true });
    if (!current()) return;
    const shown = this.lastLoad;
    if (shown && JSON.stringify(full.diagnostics) === JSON.stringify(shown.diagnostics) && !!full.review === !!shown.review) return;
    this.lastLoad = full;
    this.analysisCache = this.analyse();
    await this.postState();
  }

  private analyse(): { value: PanelAnalysis } | { error: string } {
    const review = this.lastLoad?.review;
    if (!review) return { error: 'The review has errors; fix them to see the analysis (see the Problems view).' };
    if (review.designers.length === 0 && review.comments.length > 0) {
      return { error: 'A brief review: there is nothing to rank. The members\' comments on the brief are below; run it from the Run tab.' };
    }
    if (review.designers.length < 2) return { error: 'Agreement needs at least two designers\' rankings.' };
    try {
      const parsed = AnalysisSchema.safeParse(analyzeReview(review));
      if (!parsed.success) {
        this.services.log.error(`The analysis has an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`);
        return { error: 'The analysis could not be shown.' };
      }
      return { value: parsed.data };
    } catch (e) {
      return { error: `The analysis failed: ${errorMessage(e)}` };
    }
  }

  private post(message: HostMessage): void {
    if (!this.ready || this.disposed) return;
    void this.panel.webview.postMessage(message).then(undefined, (e: unknown) => {
      this.services.log.warn(`Posting to the review panel failed: ${errorMessage(e)}`);
    });
  }

  /**
   * Builds the state and gives it to the page: posted when the app is ready; else written with the page when there is
   * none yet or the panel is hidden (a hidden page is torn down and rebuilt from its HTML when shown). A visible page
   * that is still starting gets it on its `ready`.
   */
  private async postState(): Promise<void> {
    if (!this.lastLoad || this.disposed) return;
    if (!this.ready && this.pageState !== undefined && this.panel.visible) {
      this.pageStale = true;
      return;
    }
    const runId = chosenRunId(this.runs, this.selectedRunId);
    const evaluation = runId ? await this.evaluationOf(runId) : undefined;
    const record = runId ? this.runs.find((r) => r.id === runId) : undefined;
    const team = record?.settings.designers ?? this.lastLoad.review?.designers.map((d) => d.id);
    const feedback = record ? await runFeedback(this.root.fsPath, record, (line) => this.services.log.warn(line), team) : undefined;
    const discussion = await discussionState(this.root.fsPath, this.runs.find((r) => r.id === runId), this.lastLoad.review, discussionCoding()?.current(this.root.fsPath));
    const brief = await briefRunState(this.root.fsPath, record, (line) => this.services.log.warn(line));
    // What people said or pinned that no driver has taken in yet (a stray or broken entry is the driver's to name).
    const waiting = record ? notTakenIn(record, await readInbox(this.root.fsPath, record.id).catch(() => [])) : [];
    const paired = await (this.sideBySide ??= this.pairedReviews());
    const criteria = this.lastLoad.review ? await panelCriteria(this.root.fsPath, this.lastLoad.review) : undefined;
    if (this.disposed || !this.lastLoad) return;
    const state = buildPanelState({
      root: this.root.fsPath,
      load: this.lastLoad,
      analysis: this.analysisCache,
      runs: this.runs,
      brokenRuns: this.brokenRuns,
      interrupted: this.interrupted,
      ...(this.selectedRunId ? { selectedRunId: this.selectedRunId } : {}),
      trusted: vscode.workspace.isTrusted,
      running: this.services.runs.isRunning(this.root.fsPath),
      toWebviewUri: this.toWebviewUri,
      ...(evaluation ? { evaluation } : {}),
      ...(feedback ? { feedback } : {}),
      thumbSize: vscode.workspace.getConfiguration('teamfusion').get<unknown>('thumbnailSize'),
      ...(brief ? { brief } : {}),
      ...(paired ? { sideBySide: paired } : {}),
      ...(criteria ? { criteria } : {}),
      ...(record && waiting.length ? { pending: { runId: record.id, entries: waiting } } : {}),
    });
    if (discussion) state.discussion = discussion;
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

  /** Once: how long opening took, step by step (the TeamFusion output; the vsix stage reports it). */
  private logOpen(): void {
    if (this.openMarks.logged !== undefined) return;
    this.openMarks.logged = 0;
    const steps = Object.entries({ created: 0, ...this.openMarks }).filter(([k]) => k !== 'logged').map(([k, v]) => `${k} +${v} ms`);
    this.services.log.info(`Review panel ${path.basename(this.root.fsPath)} opened at ${this.createdAt}: ${steps.join(', ')}`);
  }

  /** This review beside its team's usual-way review(s) in the parent folder, when the workspace holds that folder. */
  private pairedReviews(): Promise<PanelSideBySide | undefined> {
    const within = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    return sideBySide(this.root.fsPath, within, (line) => this.services.log.warn(line));
  }

  private evaluationOf(runId: string): Promise<PanelEvaluation | undefined> {
    let p = this.agreements.get(runId);
    if (!p) {
      p = runEvaluation(this.root.fsPath, runId, (line) => this.services.log.warn(line));
      this.agreements.set(runId, p);
    }
    return p;
  }

  private onRunEvent(event: RunEvent): void {
    if (event.type === 'run-started') this.selectedRunId = event.runId;
    // The record is saved as the run goes (journal and run.json); the webview needs only the events (and fresh state at start and end).
    if (event.type !== 'record-saved') this.post({ type: 'runEvent', event });
    if (event.type === 'run-started' || event.type === 'run-finished') {
      void this.reload(false);
    }
  }

  private async onMessage(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.services.log.warn(`Dropped an invalid message from the review panel: ${parsed.error}`);
      return;
    }
    const m: WebviewMessage = parsed.value;
    const reviewRoot = this.root.fsPath;
    switch (m.type) {
      case 'ready': {
        this.ready = true;
        this.mark('ready');
        await this.loading;
        // The page came with the state it was written with: a new one only if something changed since.
        if (this.pageState === undefined || this.pageStale) await this.postState();
        this.pageStale = false;
        this.logOpen();
        const next = this.afterReady;
        this.afterReady = undefined;
        next?.();
        const sync = this.services.sync.stateOf(this.root.fsPath);
        if (sync) this.post({ type: 'syncState', ...sync });
        return;
      }
      case 'refresh':
        this.loading = this.reload(true);
        return;
      case 'run':
        if (!vscode.workspace.isTrusted) {
          this.post({ type: 'notice', level: 'warning', message: 'Runs are off in an untrusted workspace: nothing is sent to a model.' });
          return;
        }
        await this.command('teamfusion.runReview', { reviewRoot, ...(m.task ? { task: m.task } : {}) });
        return;
      case 'showBriefChanges':
        await this.command('teamfusion.showBriefChanges', { reviewRoot, runId: m.runId, ...(m.iteration ? { iteration: m.iteration } : {}) });
        return;
      case 'adoptBrief':
        // The command asks for a modal confirmation and refuses in an untrusted workspace (the one write guard).
        await this.command('teamfusion.adoptRevisedBrief', { reviewRoot, runId: m.runId, ...(m.iteration ? { iteration: m.iteration } : {}) });
        return;
      case 'commentOnBrief':
        await this.command('teamfusion.commentOnBrief', { uri: vscode.Uri.joinPath(this.root, 'brief.md').toString() });
        return;
      case 'refine':
        await this.command('teamfusion.refineRun', { reviewRoot, runId: m.runId, feedback: m.feedback });
        return;
      case 'cancel':
        await this.command('teamfusion.cancelRun', { reviewRoot, ...(m.runId ? { runId: m.runId } : {}) });
        return;
      case 'openRun':
        this.selectedRunId = m.runId;
        await this.postState();
        return;
      case 'saveRanking':
        await this.onSaveRanking(m);
        return;
      case 'saveRatings':
      case 'saveSurvey': {
        if (!vscode.workspace.isTrusted) {
          this.post({ type: 'saveFeedbackResult', requestId: m.requestId, ok: false, message: 'Nothing is written in an untrusted workspace.' });
          return;
        }
        const reply = m.type === 'saveRatings' ? await saveRatingsFromPanel(reviewRoot, m) : await saveSurveyFromPanel(reviewRoot, m);
        this.post(reply);
        if (reply.ok) {
          this.services.log.info(`Saved ${reply.file} from the review panel.`);
          if (this.services.sync.enabled() && reply.file) {
            // A person's own file: committed alone, pulled and pushed (setting teamfusion.sync).
            const what = m.type === 'saveRatings' ? `${m.designer} rates` : `${m.designer} answers the survey`;
            const how = await this.services.sync.commitFile(reviewRoot, reply.file, `TeamFusion ${m.runId}: ${what}`).catch((e: unknown) => errorMessage(e));
            this.services.log.info(`${reply.file}: ${how}`);
            this.post({ type: 'notice', level: how.startsWith('committed') ? 'info' : 'warning', message: `Saved ${reply.file}: ${how}.` });
          }
          this.loading = this.reload(false);
        } else this.services.log.warn(`Not saved: ${reply.message ?? ''}`);
        return;
      }
      case 'openFile':
        await this.openFile(m.path);
        return;
      case 'setApiKey':
        await this.command('teamfusion.setApiKey');
        return;
      case 'codeDiscussion':
        if (!vscode.workspace.isTrusted) {
          this.post({ type: 'notice', level: 'warning', message: 'Coding is off in an untrusted workspace: nothing is sent to a model.' });
          return;
        }
        await this.command('teamfusion.codeDiscussion', { reviewRoot, runId: m.runId, ...(m.force ? { force: true } : {}) });
        return;
      case 'say':
      case 'pin': {
        const out = m.type === 'say'
          ? await this.services.runs.say(reviewRoot, m.runId, m.as, m.text)
          : await this.services.runs.pin(reviewRoot, m.runId, m.message, m.as, m.remove === true);
        this.post({ type: 'peopleResult', requestId: m.requestId, ok: out.ok, message: out.message });
        if (out.ok && !this.services.runs.isDriving(reviewRoot, m.runId)) this.loading = this.reload(false);
        return;
      }
      case 'cancelCoding':
        discussionCoding()?.cancel(reviewRoot);
        return;
      case 'log':
        this.services.log[m.level === 'warning' ? 'warn' : m.level](`Review panel: ${m.message}`);
        return;
    }
  }

  private async command(id: string, arg?: unknown): Promise<void> {
    try {
      await vscode.commands.executeCommand(id, ...(arg === undefined ? [] : [arg]));
    } catch (e) {
      this.services.log.error(`${id} failed: ${errorMessage(e)}`);
      this.post({ type: 'notice', level: 'error', message: errorMessage(e) });
    }
  }

  private async onSaveRanking(m: SaveRankingRequest): Promise<void> {
    if (!workspaceWritable('saving a ranking from the panel', this.services.log)) {
      const message = untrustedWriteMessage('saving a ranking from the panel');
      this.post({ type: 'saveRankingResult', requestId: m.requestId, ok: false, diagnostics: [{ file: 'rankings', line: 0, column: 0, severity: 'error', message }] });
      return;
    }
    const load = await this.services.reviews.load(this.root, { partial: true });
    if (!load.review) {
      const diagnostics = load.diagnostics.filter((d) => d.severity === 'error');
      this.post({ type: 'saveRankingResult', requestId: m.requestId, ok: false, diagnostics });
      return;
    }
    const outcome = await saveRanking(load.review, m);
    this.post({
      type: 'saveRankingResult',
      requestId: m.requestId,
      ok: outcome.ok,
      ...(outcome.file ? { file: outcome.file } : {}),
      ...(outcome.designerId ? { designerId: outcome.designerId } : {}),
      diagnostics: outcome.diagnostics,
    });
    if (outcome.ok) {
      this.services.log.info(`Saved ${outcome.file} from the review panel.`);
      // A ranking of a blind re-rank set: its run records when the re-rankings were saved (time to decision).
      await noteRerankingSaved(this.root.fsPath).catch((e: unknown) => this.services.log.warn(`Could not note the re-ranking time: ${errorMessage(e)}`));
      if (this.reloadTimer) clearTimeout(this.reloadTimer);
      this.reloadTimer = undefined;
      this.loading = this.reload(true);
    }
  }

  private async openFile(rel: string): Promise<void> {
    let abs: string;
    try {
      // Contained, symbolic links followed: the panel never opens a file outside the review.
      abs = await resolveInReview(this.root.fsPath, rel);
    } catch (e) {
      this.services.log.warn(`The review panel asked to open a file outside the review: ${errorMessage(e)}`);
      return;
    }
    await this.command('vscode.open', vscode.Uri.file(abs));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    const key = path.resolve(this.root.fsPath);
    if (ReviewPanel.panels.get(key) === this) ReviewPanel.panels.delete(key);
    this.panel.dispose();
    while (this.disposables.length) this.disposables.pop()?.dispose();
  }
}
