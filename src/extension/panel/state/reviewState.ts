/**
 * The review panel's state builder: what the panel shows of one review folder, loaded and kept current. It loads the
 * review, its analysis and its runs, reloads them when files change (debounced; a change under runs/ reloads only the
 * runs), completes a large review's agreement and its images' decode after the first state, and builds the `state`
 * notification for the run shown. The page is told through `PageSide` (page host: pageHost.ts).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { rememberedMe } from '../me';
import type { Services } from '../../services';
import { analyzeReview } from '../../../core/stats';
import { panelRuns } from './runsState';
import { LOCK_FILE, STALE_MS, interruptedRuns } from '../../../core/record/lock';
import { FORECAST_LOCK } from '../../../core/forecast/forecast';
import { PARTS_FILE } from '../../../core/record/promptParts';
import { JOURNAL_FILE } from '../../../core/record/journal';
import type { RunRecord } from '../../../core/record/record';
import { errorMessage } from '../../../core/kernel/errors';
import { readInbox } from '../../../core/people/inbox';
import { notTakenIn } from '../../../core/people/apply';
import { AnalysisSchema, type PanelAnalysis, type PanelEvaluation, type PanelSideBySide, type PanelState } from '../../../protocol/panel';
import { buildPanelState, chosenRunId } from '../panelState';
import { panelCriteria } from './criteriaState';
import { panelForks } from './votesState';
import { voteTeam } from '../../../core/evaluation/votes/forks';
import { briefRunFidelity, runEvaluation, runFeedback, sideBySide } from './evaluation';
import type { PanelBriefRun } from '../../../protocol/brief';
import { briefRunState } from './briefState';
import { discussionCoding } from '../../analysis/discussionCoding';
import { discussionState } from '../../analysis/panelDiscussion';
import { workspaceTrusted } from '../trust';
import { reviewFingerprint, runFingerprint } from '../../../core/files/fingerprint';
import { SerialLoads } from '../serialLoads';
import { blindSetTeam } from './blindSetState';
import { panelAuthorship } from './authorshipState';
import type { PanelAuthorship } from '../../../protocol/panelData';

/** Designers × options above which the panel shows the rankings before the agreement (50 × 50 is 2,500; the sample 24). */
const DEFER_ANALYSIS_CELLS = 400;
/** How often the panel looks at the disk for changes no file event reported. */
const LOOK_MS = 2000;
/** The stat fingerprints of the review and of the run `runId` (the one shown) at one moment. */
interface Seen {
  review: string;
  runs: string;
  runId: string | undefined;
}
/** A run folder's files that change without changing what the panel shows: the driver's lock and the prompt parts. */
const unshown = (name: string): boolean => name === PARTS_FILE || name.startsWith(LOCK_FILE) || name.startsWith(FORECAST_LOCK);

/** What the state builder needs of the page: to give it a new state, to wait for it, and to note the steps of opening. */
export interface PageSide {
  /** Builds the state (ReviewState.build) and gives it to the page, or marks the page stale. */
  postState(): Promise<void>;
  /** Runs `fn` once the page is ready. */
  whenReady(fn: () => void): void;
  mark(step: string): void;
  setTitle(title: string): void;
  readonly disposed: boolean;
}

/** When a run's record last moved (its last save, or its last message: turns go to the journal between saves). */
function lastMove(r: RunRecord): number {
  const times = [r.updatedAt, ...r.iterations.flatMap((it) => it.messages.map((m) => m.at))].map((t) => (t ? Date.parse(t) : NaN));
  return Math.max(0, ...times.filter((t) => Number.isFinite(t)));
}

export class ReviewState {
  /** The run the user picked (undefined: the newest). */
  selectedRunId: string | undefined;
  /** The load in flight (which the page's `ready` waits for). */
  loading: Promise<void> | undefined;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private reloadAll = false;
  private analysisCache: { value: PanelAnalysis } | { error: string } = { error: 'Loading…' };
  /** Bumped by every reload of the review: a deferred analysis of an older load is dropped. */
  private analysisGeneration = 0;
  private lastLoad: Awaited<ReturnType<Services['reviews']['load']>> | undefined;
  /** Who wrote each member's file, as the last load's door says (worked out once per load of the review). */
  private authorship: PanelAuthorship | undefined;
  private runs: RunRecord[] = [];
  /** Runs whose record cannot be used, with their diagnostic. */
  private brokenRuns: { id: string; problem: string }[] = [];
  /** Runs "running" on disk that no live process drives. */
  private interrupted: ReadonlySet<string> = new Set();
  /** Agreement before → after per run id (runs with a re-ranking folder); forgotten on every reload. */
  private readonly agreements = new Map<string, Promise<PanelEvaluation | undefined>>();
  /** A brief run's proxy fidelity per run id (runs with a blind pair); forgotten on every reload. */
  private readonly briefFidelities = new Map<string, Promise<PanelBriefRun['fidelity']>>();
  /** This review beside its team's usual-way review(s) in the parent folder; forgotten on every reload. */
  private sideBySide: Promise<PanelSideBySide | undefined> | undefined;
  /** The fingerprints to compare with (look): taken as the last load began, or by a look. */
  private seen: Seen | undefined;
  private looking: ReturnType<typeof setInterval> | undefined;
  private lookInFlight = false;
  /** Loads run one at a time, so the last change is the last shown (serialLoads.ts). */
  private readonly loads = new SerialLoads((all) => this.load(all));

  constructor(
    private readonly services: Services,
    private readonly root: vscode.Uri,
    private readonly page: PageSide,
  ) {}

  /** Loads the review now (`all`) or only its runs; a reload of the review drops a reload the file watcher has scheduled. */
  reload(all: boolean): void {
    if (all) this.cancelScheduled();
    this.loading = this.loads.request(all);
  }

  /** Reloads the runs when one starts or ends (the page's `ready` does not wait for this). */
  reloadRuns(): void {
    void this.loads.request(false);
  }

  /** The first load of the panel. */
  start(): void {
    this.looking = setInterval(() => void this.look(), LOOK_MS);
    this.reloadAll = true;
    this.loading = this.loads.request(true);
  }

  cancelScheduled(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = undefined;
  }

  /** Stops looking at the disk (the panel is gone). */
  stop(): void {
    this.cancelScheduled();
    clearInterval(this.looking);
  }

  /** Changes under runs/ only reload the runs; anything else reloads the review and its analysis too. */
  scheduleReload(uri: vscode.Uri): void {
    const rel = path.relative(this.root.fsPath, uri.fsPath).split(path.sep);
    if (rel[0] !== 'runs') this.reloadAll = true;
    if (rel.some((p) => p.endsWith('.tmp'))) return;
    // The prompt parts are appended with every run.json write, and the driver's lock is refreshed every few seconds: neither
    // changes what the panel shows.
    const name = rel[rel.length - 1] ?? '';
    if (rel[0] === 'runs' && unshown(name)) return;
    // During a run its turns go to the journal and its record is rewritten at round boundaries; the live events already
    // carry both, and the run's start and end reload the state.
    if (rel[0] === 'runs' && (name === 'run.json' || name === JOURNAL_FILE) && this.services.runs.isRunning(this.root.fsPath)) return;
    this.schedule();
  }

  /**
   * Looks at the disk every LOOK_MS for changes no file event reported (VS Code's watcher can miss a file another process
   * writes, such as a vote by `teamfusion vote`): the stat fingerprints of the review and of the run shown, compared with
   * the ones taken as the last load began. Skipped while a reload is on its way or this window drives a run of the review.
   */
  private async look(): Promise<void> {
    if (
      this.lookInFlight ||
      this.page.disposed ||
      this.reloadTimer ||
      this.loads.busy ||
      !this.lastLoad ||
      this.services.runs.isRunning(this.root.fsPath)
    )
      return;
    const seen = this.seen;
    // Like is compared with like: after the first load (which takes none, to open quickly) or once another run is shown
    // (picked, or the newest after a load), the fingerprints as they are now become the ones to compare with, and nothing
    // is reloaded for that.
    const runId = chosenRunId(this.runs, this.selectedRunId);
    this.lookInFlight = true;
    const now = await this.fingerprints(runId)
      .catch(() => undefined)
      .finally(() => (this.lookInFlight = false));
    if (!now || this.seen !== seen || this.reloadTimer || this.page.disposed) return;
    if (!seen || runId !== seen.runId) {
      this.seen = now;
      return;
    }
    if (now.review !== seen.review) this.reloadAll = true;
    else if (now.runs === seen.runs) return;
    this.services.log.debug(`Files of ${this.root.fsPath} changed on disk without a file event; loading the review panel again.`);
    this.schedule();
  }

  private async fingerprints(runId = chosenRunId(this.runs, this.selectedRunId)): Promise<Seen> {
    const root = this.root.fsPath;
    return { review: await reviewFingerprint(root), runs: await runFingerprint(root, runId, unshown), runId };
  }

  /** A reload in 250 ms (a burst of changes makes one reload): the review too if reloadAll was set. */
  private schedule(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      const all = this.reloadAll;
      this.reloadAll = false;
      this.loading = this.loads.request(all);
    }, 250);
  }

  private async load(all: boolean): Promise<void> {
    // Taken before reading: a change made while this load reads shows at the next look. The first load (Open Review) takes
    // none; the first look does.
    this.seen = this.lastLoad ? await this.fingerprints().catch(() => undefined) : undefined;
    this.agreements.clear();
    this.briefFidelities.clear();
    this.sideBySide = undefined;
    let analyseAfter = false;
    let decodeAfter = false;
    try {
      // The runs and the usual-way reviews beside this one are read while the review loads.
      // A run whose record is not its driver's (issue 39) is listed as broken, with the file, commit and author.
      const listed = panelRuns(this.root.fsPath, (line) => this.services.log.warn(line));
      this.sideBySide = this.pairedReviews();
      if (all || !this.lastLoad) {
        // Decoding every image (to find a corrupt one) is most of a review's load: the panel shows the review first and
        // decodes right after (completeLater), like the agreement of a large review.
        this.lastLoad = await this.services.reviews.load(this.root, { partial: true, despiteSettings: true, decodeImages: false });
        decodeAfter = true;
        this.authorship = await this.authorshipOf(this.lastLoad);
        this.page.mark('loaded');
        // A large review's permutation test takes a few hundred milliseconds of the extension host: the panel shows the
        // rankings first and the agreement right after, instead of waiting for it.
        const review = this.lastLoad.review;
        analyseAfter = !!review && review.designers.length * review.options.length > DEFER_ANALYSIS_CELLS;
        this.analysisGeneration++;
        this.analysisCache = analyseAfter ? { error: 'Working out the agreement (10,000 permutations)…' } : this.analyse();
        if (this.lastLoad.review) this.page.setTitle(`Review: ${this.lastLoad.review.title}`);
      }
      ({ runs: this.runs, brokenRuns: this.brokenRuns } = await listed);
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
    await this.page.postState();
    // `loading` (which `ready` waits for) ends here; the agreement and the images' decode follow in states of their own,
    // once the page is up (the extension host's work would hold back what it sends the page while it starts).
    if (analyseAfter || decodeAfter) {
      const generation = this.analysisGeneration;
      this.page.whenReady(() => void this.completeLater(generation, analyseAfter, decodeAfter));
    }
  }

  /**
   * What the first state left out, unless a later reload has replaced it or the panel is gone: a large review's agreement
   * (posted as soon as it is worked out), then the load with every image decoded, which replaces the first one only when
   * it finds more (a corrupt image: an error in the Problems list and the panel).
   */
  private async completeLater(generation: number, analyse: boolean, decode: boolean): Promise<void> {
    const current = () => !this.page.disposed && generation === this.analysisGeneration;
    await new Promise((r) => setImmediate(r));
    if (!current()) return;
    if (analyse) {
      this.analysisCache = this.analyse();
      await this.page.postState();
    }
    if (!decode || !current()) return;
    const full = await this.services.reviews.load(this.root, { partial: true, despiteSettings: true });
    if (!current()) return;
    const shown = this.lastLoad;
    if (shown && JSON.stringify(full.diagnostics) === JSON.stringify(shown.diagnostics) && !!full.review === !!shown.review) return;
    this.lastLoad = full;
    this.authorship = await this.authorshipOf(full);
    this.analysisCache = this.analyse();
    await this.page.postState();
  }

  /** The panel's `authorship` of a load; undefined (and logged) when it cannot be worked out. */
  private authorshipOf(load: NonNullable<ReviewState['lastLoad']>): Promise<PanelAuthorship | undefined> {
    return panelAuthorship(load).catch((e: unknown) => {
      this.services.log.warn(`Who wrote each member's file of ${this.root.fsPath} could not be told: ${errorMessage(e)}`);
      return undefined;
    });
  }

  private analyse(): { value: PanelAnalysis } | { error: string } {
    const review = this.lastLoad?.review;
    if (!review) return { error: 'The review has errors; fix them to see the analysis (see the Problems view).' };
    if (review.designers.length === 0 && review.comments.length > 0) {
      return { error: "A brief review: there is nothing to rank. The members' comments on the brief are below; run it from the Run tab." };
    }
    if (review.designers.length < 2) return { error: "Agreement needs at least two designers' rankings." };
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

  /** Whether there is anything to show yet (the first load has come back). */
  get loaded(): boolean {
    return this.lastLoad !== undefined;
  }

  /** The `state` notification for the run shown; undefined before the first load or once the panel is gone. */
  async build(toWebviewUri: (absPath: string) => string): Promise<PanelState | undefined> {
    if (!this.lastLoad) return undefined;
    const root = this.root.fsPath;
    const warn = (line: string) => this.services.log.warn(line);
    const runId = chosenRunId(this.runs, this.selectedRunId);
    const record = runId ? this.runs.find((r) => r.id === runId) : undefined;
    const review = this.lastLoad.review;
    const team = record?.settings.designers ?? review?.designers.map((d) => d.id);
    // What the state gathers beside the load is read all at once (each is a few files): the page waits for the slowest,
    // not for their sum.
    const [evaluation, feedback, discussion, brief, waiting, paired, criteria, forks, blindSet] = await Promise.all([
      runId ? this.evaluationOf(runId) : undefined,
      record ? runFeedback(root, record, warn, team) : undefined,
      discussionState(root, record, review, discussionCoding()?.current(root)),
      briefRunState(root, record, warn).then(async (b) => {
        const fidelity = b && record ? await this.briefFidelityOf(record) : undefined;
        if (b && fidelity) b.fidelity = fidelity;
        return b;
      }),
      // What people said or pinned that no driver has taken in yet (a stray or broken entry is the driver's to name).
      record
        ? readInbox(root, record.id).then(
            (inbox) => notTakenIn(record, inbox),
            () => [],
          )
        : [],
      (this.sideBySide ??= this.pairedReviews()),
      review ? panelCriteria(root, review) : undefined,
      record && review
        ? panelForks(root, record, review.config, voteTeam(record, review)).catch(
            (e: unknown) => void warn(`The votes of run ${record.id} could not be read: ${errorMessage(e)}`),
          )
        : undefined,
      blindSetTeam(root).catch((e: unknown) => void warn(`The team of the blind re-rank set could not be read: ${errorMessage(e)}`)),
    ]);
    if (this.page.disposed || !this.lastLoad) return undefined;
    const state = buildPanelState({
      root,
      load: this.lastLoad,
      analysis: this.analysisCache,
      runs: this.runs,
      brokenRuns: this.brokenRuns,
      interrupted: this.interrupted,
      ...(this.selectedRunId ? { selectedRunId: this.selectedRunId } : {}),
      trusted: workspaceTrusted(),
      running: this.services.runs.isRunning(root),
      toWebviewUri,
      ...(evaluation ? { evaluation } : {}),
      ...(feedback ? { feedback } : {}),
      thumbSize: vscode.workspace.getConfiguration('teamfusion').get<unknown>('thumbnailSize'),
      ...(brief ? { brief } : {}),
      ...(paired ? { sideBySide: paired } : {}),
      ...(criteria ? { criteria } : {}),
      ...(this.authorship ? { authorship: this.authorship } : {}),
      ...(record && waiting.length ? { pending: { runId: record.id, entries: waiting } } : {}),
    });
    if (discussion) state.discussion = discussion;
    if (forks) state.forks = forks;
    if (blindSet) state.blindSet = blindSet;
    const me = rememberedMe(this.services.context.workspaceState);
    if (me) state.me = me;
    return state;
  }

  /** This review beside its team's usual-way review(s) in the parent folder, when the workspace holds that folder. */
  private pairedReviews(): Promise<PanelSideBySide | undefined> {
    const within = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    return sideBySide(this.root.fsPath, within, (line) => this.services.log.warn(line));
  }

  private briefFidelityOf(record: RunRecord): Promise<PanelBriefRun['fidelity']> {
    let p = this.briefFidelities.get(record.id);
    if (!p) {
      p = briefRunFidelity(this.root.fsPath, record, (line) => this.services.log.warn(line));
      this.briefFidelities.set(record.id, p);
    }
    return p;
  }

  private evaluationOf(runId: string): Promise<PanelEvaluation | undefined> {
    let p = this.agreements.get(runId);
    if (!p) {
      p = runEvaluation(this.root.fsPath, runId, (line) => this.services.log.warn(line));
      this.agreements.set(runId, p);
    }
    return p;
  }
}
