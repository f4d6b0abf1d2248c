/**
 * Runs in flight, seen from VS Code: a thin shell over the one way into a run (src/core/run/session.ts). It checks trust
 * and the key, makes what the user asked into one run request (runRequest.ts: the models from SecretStorage / settings /
 * environment, the settings), shows progress with a Cancel button, logs each event in one line, forwards events to the
 * panel, and reports the outcome in words (outcomeUi.ts).
 */
import { takeInVotesOf } from '../../core/evaluation/votes/takeIn';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunEvent } from '../../core/step/events';
import type { RunRecord } from '../../core/record/record';
import { runSession, type RunMeans } from '../../core/run/session';
import { confirmInModal } from '../costModal';
import { ApiKeyStore, IMAGE_KEY } from './keys/apiKeyStore';
import { ChatModelChoice, chatProviderSetting } from '../llm/chatModelChoice';
import { modelLabel } from '../llm/vscodeChat';
import { vscodeChatFor } from '../llm/vscodeChatFor';
import { askedRun, modelMeans, type ChatReady, type RunAsked, type StartOptions } from './runRequest';
import { pinFromPanel, sayFromPanel, type BridgeEnv, type PeopleOutcome } from './peopleBridge';
import { eventLogLevel, eventLogLine, outcomeSentence, progressMessage } from './eventText';
import { redactSecrets } from './keys/redact';
import { resolveConnection } from './runSettings';
import { RunStatusBar } from './statusBar';
import { ensureTrusted, preflight, type GuardUi } from './trustGuard';
import type { TeamSync } from '../sync/teamSync';
import { ACTION_RESUME, ACTION_SHOW_LOG, offerWaiting, reportOutcome, type OutcomeActions } from './outcomeUi';

export type { ChatReady, StartOptions } from './runRequest';

const CONTINUE_TEXT_ONLY = 'Continue Text-Only';

export interface RunEventEnvelope {
  reviewRoot: string;
  event: RunEvent;
}

interface ActiveRun {
  reviewRoot: string;
  kind: RunAsked['kind'];
  controller: AbortController;
  runId?: string;
  iteration?: number;
  total?: number;
}

/** A run the user can see as active (for pickers and the status bar). */
export interface ActiveRunInfo {
  reviewRoot: string;
  runId?: string;
  iteration?: number;
  total?: number;
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

function sameFolder(a: string, b: string): boolean {
  return path.resolve(a) === path.resolve(b);
}

export class RunManager implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<RunEventEnvelope>();
  readonly onEvent: vscode.Event<RunEventEnvelope> = this.emitter.event;
  /** Where the key is kept: SecretStorage 'teamfusion.apiKey', else OPENAI_API_KEY. */
  readonly apiKeys: ApiKeyStore;
  /** The image endpoint's own key: SecretStorage 'teamfusion.imageApiKey', else TEAMFUSION_IMAGE_API_KEY, else the chat key. */
  readonly imageKeys: ApiKeyStore;
  /** The VS Code language model of `teamfusion.chatProvider: "vscode"` (remembered per workspace, in the status bar). */
  readonly models: ChatModelChoice;
  private readonly active = new Map<string, ActiveRun>();
  private readonly statusBar = new RunStatusBar();
  private readonly disposables: vscode.Disposable[] = [];
  /** A run asked for while the workspace was untrusted; offered again when trust is granted. */

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly sync?: TeamSync,
  ) {
    this.apiKeys = new ApiKeyStore(context.secrets);
    this.imageKeys = new ApiKeyStore(context.secrets, process.env, IMAGE_KEY);
    this.models = new ChatModelChoice(context.workspaceState);
    this.disposables.push(this.models);
    this.disposables.push(this.emitter, this.statusBar);
  }

  /** `ready`: the chat checked beforehand with chatReady() (the interactive commands ask that before anything else). */
  start(reviewRoot: string, o: StartOptions = {}, ready?: ChatReady): Promise<RunRecord | undefined> {
    return this.execute({ kind: 'start', reviewRoot: path.resolve(reviewRoot), options: o }, ready);
  }

  resume(reviewRoot: string, runId: string): Promise<RunRecord | undefined> {
    return this.execute({ kind: 'resume', reviewRoot: path.resolve(reviewRoot), runId });
  }

  refine(reviewRoot: string, runId: string, feedback?: string, ready?: ChatReady): Promise<RunRecord | undefined> {
    const request: RunAsked = { kind: 'refine', reviewRoot: path.resolve(reviewRoot), runId };
    if (feedback !== undefined && feedback.trim() !== '') request.feedback = feedback.trim();
    return this.execute(request, ready);
  }

  /**
   * Is there a chat a run can go through? Asked first, before "which review?" or "who takes part?": without a key or a
   * model the user gets the first-run choices at once (nothing asked before, nothing sent); on a VS Code model, the model
   * is picked now when none is remembered, and a model that reads text only is confirmed now. Undefined when no run can
   * start (the user was told) or the user backed out.
   */
  async chatReady(): Promise<ChatReady | undefined> {
    const provider = chatProviderSetting();
    const check = await preflight({
      isTrusted: vscode.workspace.isTrusted,
      busy: false,
      keyOptional: provider === 'vscode',
      getApiKey: async () => (await this.apiKeys.get())?.key,
      ui: this.guardUi(),
    });
    if (!check.ok) {
      this.log.warn(`Nothing sent: ${check.reason === 'untrusted' ? 'the workspace is not trusted' : 'no API key is set'}.`);
      return undefined;
    }
    const ready: ChatReady = { provider, ...(check.apiKey ? { apiKey: check.apiKey } : {}) };
    if (provider === 'vscode') {
      // VS Code's language model (picked once, remembered per workspace); none = the first-run choices.
      const picked = await vscodeChatFor(this.models, this.guardUi());
      if (!picked) {
        this.log.warn('Nothing sent: no VS Code language model is available or none was picked.');
        return undefined;
      }
      if (picked.textOnly) {
        const go = await vscode.window.showWarningMessage(
          `${modelLabel(picked.model)} reads text only, so the candidates will be described to it by their labels and the designers' justifications instead of being shown.`,
          CONTINUE_TEXT_ONLY,
        );
        if (go !== CONTINUE_TEXT_ONLY) return undefined;
      }
      ready.chat = picked.chat;
    }
    return ready;
  }

  /** Cancels the run with this id (or of the review at this path); with no argument, every active run. */
  cancel(runId?: string): void {
    for (const run of this.active.values()) {
      const match = runId === undefined || run.runId === runId || (path.isAbsolute(runId) && sameFolder(run.reviewRoot, runId));
      if (match && !run.controller.signal.aborted) {
        this.log.info(`Cancelling ${run.runId ?? 'the run'} of ${run.reviewRoot}…`);
        run.controller.abort();
      }
    }
  }

  /** Does this window drive that run now? */
  isDriving(reviewRoot: string, runId: string): boolean {
    const run = this.active.get(path.resolve(reviewRoot));
    return run !== undefined && run.runId === runId;
  }

  /** A designer's message from the panel (see peopleBridge.ts); resumes a run that waited for exactly this answer. */
  async say(reviewRoot: string, runId: string, as: string, text: string): Promise<PeopleOutcome> {
    const root = path.resolve(reviewRoot);
    const driving = this.isDriving(root, runId);
    // A run this window drives takes the entry in and commits it with its turn; otherwise it goes through the remote alone.
    const out = await sayFromPanel(
      { trusted: vscode.workspace.isTrusted, driving, through: driving ? undefined : this.through(root) },
      root,
      runId,
      as,
      text,
    );
    this.log.info(this.redact(`${runId}: ${as} ${out.ok ? 'spoke' : 'could not speak'} (${out.message})`));
    if (out.resume && !this.isRunning(root)) void this.resume(root, runId);
    return out;
  }

  async pin(reviewRoot: string, runId: string, message: string, as: string, remove: boolean): Promise<PeopleOutcome> {
    const root = path.resolve(reviewRoot);
    const driving = this.isDriving(root, runId);
    const out = await pinFromPanel(
      { trusted: vscode.workspace.isTrusted, driving, through: driving ? undefined : this.through(root) },
      root,
      runId,
      message,
      as,
      remove,
    );
    this.log.info(this.redact(`${runId}: ${out.message}`));
    return out;
  }

  /** With the sync setting on: a person's file goes through the team's remote (commit only it, pull, push). */
  private through(root: string): BridgeEnv['through'] {
    const sync = this.sync;
    if (!sync?.enabled()) return undefined;
    return (file, message) => sync.commitFile(root, file, message);
  }

  isRunning(reviewRoot?: string): boolean {
    if (reviewRoot === undefined) return this.active.size > 0;
    return this.active.has(path.resolve(reviewRoot));
  }

  activeRuns(): ActiveRunInfo[] {
    return [...this.active.values()].map(({ reviewRoot, runId, iteration, total }) => ({ reviewRoot, runId, iteration, total }));
  }

  /** True when runs may send anything; otherwise tells the user (with a button to manage trust). */
  ensureTrusted(): boolean {
    return ensureTrusted(vscode.workspace.isTrusted, this.guardUi());
  }

  showLog(): void {
    this.log.show(true);
  }

  dispose(): void {
    this.cancel();
    for (const d of this.disposables) d.dispose();
  }

  /** Told when a run of this review is in flight already (with Cancel Run and Show Log). */
  private tellBusy(root: string): void {
    void vscode.window
      .showWarningMessage('A TeamFusion run of this review is already in progress.', 'Cancel Run', ACTION_SHOW_LOG)
      .then((choice) => {
        if (choice === 'Cancel Run') this.cancel(root);
        if (choice === ACTION_SHOW_LOG) this.showLog();
      });
  }

  private guardUi(): GuardUi {
    return {
      warn: (message, ...buttons) => vscode.window.showWarningMessage(message, ...buttons),
      runCommand: (command) => vscode.commands.executeCommand(command),
    };
  }

  private redact(line: string): string {
    return redactSecrets(line, [...this.apiKeys.knownSecrets(), ...this.imageKeys.knownSecrets()]);
  }

  /** What the user asked, as one run request (core/run/session.ts); the progress, the log and the panel observe the run. */
  private async execute(request: RunAsked, given?: ChatReady): Promise<RunRecord | undefined> {
    const root = request.reviewRoot;
    if (!this.ensureTrusted()) {
      this.log.warn(`Nothing sent for ${root}: the workspace is not trusted.`);
      return undefined;
    }
    if (this.isRunning(root)) {
      this.tellBusy(root);
      this.log.warn(`Nothing sent for ${root}: a run of this review is in progress.`);
      return undefined;
    }
    const ready = given ?? (await this.chatReady());
    if (!ready) return undefined;

    const config = vscode.workspace.getConfiguration('teamfusion');
    let made: { means: RunMeans; where: string };
    try {
      const connection = resolveConnection((key) => config.get(key), process.env);
      made = modelMeans(ready, (await this.imageKeys.get())?.key, connection, this.models.lastId);
    } catch (err) {
      const message = this.redact(errorText(err));
      this.log.error(message);
      void vscode.window.showErrorMessage(message);
      return undefined;
    }
    const { means } = made;
    // Setting teamfusion.sync: the run goes through the review repository's upstream (pull per turn, commit + push).
    const sync = await this.sync?.forRun(root);
    if (sync) means.sync = sync;
    const { what, feedback, prices, warnings } = askedRun(
      request,
      (key) => config.inspect(key),
      ready.chat ? this.models.lastId : undefined,
    );
    for (const w of warnings) {
      this.log.warn(w);
      void vscode.window.showWarningMessage(w);
    }
    if (prices) means.prices = prices;

    // Another start may have slipped in while the key was read: the slot is taken synchronously from here on.
    if (this.active.has(root)) {
      this.log.warn(`Nothing sent for ${root}: a run of this review is in progress.`);
      void vscode.window.showWarningMessage('A TeamFusion run of this review is already in progress.');
      return undefined;
    }
    const controller = new AbortController();
    const run: ActiveRun = { reviewRoot: root, kind: request.kind, controller };
    if (request.kind !== 'start') run.runId = request.runId;
    this.active.set(root, run);
    this.refreshStatus();
    this.log.info(startLine(request, what, made.where));

    try {
      const record = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `TeamFusion (${path.basename(root)})`, cancellable: true },
        async (progress, token) => {
          const sub = token.onCancellationRequested(() => controller.abort());
          try {
            return await runSession(
              {
                reviewRoot: root,
                what,
                means,
                ...(feedback ? { feedback } : {}),
                signal: controller.signal,
                // A person whose turn comes answers in the panel: the run holds (status "waiting") until they do.
                holdWhenWaiting: true,
                confirm: confirmInModal('This run', 'Start the run'),
                cacheDir: this.cacheDir(),
                // The driver takes in the team's decisions made by the votes before its next round (issue 39).
                takeInDecisions: takeInVotesOf,
              },
              { event: (event) => this.onRunEvent(run, event, progress), log: (line) => this.log.info(this.redact(line)) },
            );
          } finally {
            sub.dispose();
          }
        },
      );
      const outcome = this.redact(outcomeSentence(record));
      if (record.status === 'completed') this.log.info(outcome);
      else if (record.status === 'cancelled') this.log.warn(outcome);
      else this.log.error(outcome);
      reportOutcome(root, record, this.outcomeActions());
      return record;
    } catch (err) {
      const message = this.redact(errorText(err));
      this.log.error(`TeamFusion could not run ${root}: ${message}`);
      const buttons = run.runId ? [ACTION_RESUME, ACTION_SHOW_LOG] : [ACTION_SHOW_LOG];
      void vscode.window.showErrorMessage(`TeamFusion could not run: ${message}`, ...buttons).then((choice) => {
        if (choice === ACTION_RESUME && run.runId) void this.resume(root, run.runId);
        if (choice === ACTION_SHOW_LOG) this.showLog();
      });
      return undefined;
    } finally {
      this.active.delete(root);
      this.refreshStatus();
    }
  }

  private onRunEvent(run: ActiveRun, event: RunEvent, progress: vscode.Progress<{ message?: string }>): void {
    run.runId = event.runId;
    if (event.type === 'iteration-started') run.iteration = event.iteration;
    if (event.type === 'record-saved') run.total = event.record.settings.iterations;
    if (event.type === 'iteration-started' || event.type === 'record-saved' || event.type === 'run-started') this.refreshStatus();

    const line = eventLogLine(event);
    if (line !== undefined) {
      const text = this.redact(line);
      const level = eventLogLevel(event);
      if (level === 'error') this.log.error(text);
      else if (level === 'warn') this.log.warn(text);
      else if (level === 'trace') this.log.trace(text);
      else this.log.info(text);
    }
    const message = progressMessage(event);
    if (message !== undefined) progress.report({ message: this.redact(message) });
    if (event.type === 'waiting') offerWaiting(run.reviewRoot, event.speakerName, this.outcomeActions());
    try {
      this.emitter.fire({ reviewRoot: run.reviewRoot, event });
    } catch (err) {
      this.log.warn(`A run event listener failed: ${errorText(err)}`);
    }
  }

  private outcomeActions(): OutcomeActions {
    return { redact: (line) => this.redact(line), resume: (root, runId) => void this.resume(root, runId), showLog: () => this.showLog() };
  }

  private refreshStatus(): void {
    this.statusBar.update(this.activeRuns());
  }

  /** The engine's cache of resized images, outside the workspace (created by the file room when first written). */
  private cacheDir(): string {
    return path.join(this.context.globalStorageUri.fsPath, 'image-cache');
  }
}

/** The Output channel's line for a run about to start, resume or be refined: where it runs and whose settings. */
function startLine(request: RunAsked, what: ReturnType<typeof askedRun>['what'], where: string): string {
  const root = request.reviewRoot;
  const doing =
    request.kind === 'start' ? 'Starting a run' : request.kind === 'resume' ? `Resuming ${request.runId}` : `Refining ${request.runId}`;
  const chosen =
    what.kind !== 'start'
      ? 'as recorded in the run'
      : what.settings && Object.keys(what.settings).length
        ? `${JSON.stringify(what.settings)} over review.yaml and defaults`
        : 'from review.yaml and defaults';
  return `${doing} of ${root} (${where}, settings ${chosen}).`;
}
