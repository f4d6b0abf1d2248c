/**
 * The run commands: Run, Refine, Cancel, Set/Clear API Key, Commit Run. Each accepts an optional argument object so
 * tests and scripts can drive it without UI (see commandArgs.ts); the interactive path asks with QuickPick/InputBox.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../commandIds';
import { guardCommand, guardWriteCommand } from '../commandGuard';
import type { RunRecord } from '../../core/record/record';
import { loadReview } from '../../core/review/loadReview';
import { SubsetError, checkSubset } from '../../core/run/runner';
import type { Services } from '../services';
import type { ChatReady, StartOptions } from './runManager';
import { CHAT_KEY_KIND, IMAGE_KEY_KIND, clearKey, setKey } from './keys/keyCommands';
import { CancelArgsSchema, hasReviewRoot, RefineArgsSchema, RunReviewArgsSchema, runRefFromArg, type RunRef } from './commandArgs';
import { stageRunForCommit, type CommitRunResult } from './git/commitRun';
import { pickRun } from './pickRun';
import { completesStep, STEP_DONE } from '../walkthrough';

function invalidArgs(command: string, error: { issues: { path: PropertyKey[]; message: string }[] }): void {
  const first = error.issues[0];
  const where = first?.path.length ? `${first.path.map(String).join('.')}: ` : '';
  void vscode.window.showErrorMessage(`${command}: the argument is not valid (${where}${first?.message ?? 'unknown problem'}).`);
}

async function reviewRootOf(services: Services, arg: unknown): Promise<string | undefined> {
  const uri = await services.reviews.resolve(arg);
  if (!uri) {
    if (arg === undefined) void vscode.window.showInformationMessage('No review folder found in this workspace.');
    else void vscode.window.showWarningMessage('That is not a review folder (it needs brief.md, options/ and rankings/).');
    return undefined;
  }
  return uri.fsPath;
}

/** The run a command acts on: from its argument, else a QuickPick of the review's runs. */
async function runRefOf(services: Services, arg: unknown, pick: Parameters<typeof pickRun>[1]): Promise<RunRef | undefined> {
  const direct = runRefFromArg(arg);
  if (direct) return direct;
  const root = await reviewRootOf(services, arg);
  if (!root) return undefined;
  const record = await pickRun(root, pick);
  return record ? { reviewRoot: root, runId: record.id } : undefined;
}

async function runReview(services: Services, arg: unknown): Promise<RunRecord | undefined> {
  if (!services.runs.ensureTrusted()) return undefined;
  if (hasReviewRoot(arg)) {
    const parsed = RunReviewArgsSchema.safeParse(arg);
    if (!parsed.success) {
      invalidArgs('Run TeamFusion', parsed.error);
      return undefined;
    }
    const a = parsed.data;
    if (a.resume) return services.runs.resume(a.reviewRoot, a.resume);
    const options: StartOptions = {};
    if (a.task !== undefined) options.task = a.task;
    if (a.feedback !== undefined) options.feedback = a.feedback;
    if (a.iterations !== undefined) options.iterations = a.iterations;
    if (a.turns !== undefined) options.turns = a.turns;
    if (a.designers !== undefined) {
      const subset = await checkedSubset(a.reviewRoot, a.designers);
      if (!subset) return undefined;
      options.designers = subset;
    }
    return services.runs.start(a.reviewRoot, options);
  }
  // Whether anything can run comes first: without a key or a model the first-run choices show before any question.
  const ready = await services.runs.chatReady();
  if (!ready) return undefined;
  const root = await reviewRootOf(services, arg);
  if (!root) return undefined;
  const picked = await pickDesigners(root);
  if (picked === null) return undefined;
  return services.runs.start(root, picked ? { designers: picked } : {}, ready);
}

/** The subset checked against the review (known ids, two or more); a warning and undefined when it is not usable. */
async function checkedSubset(root: string, ids: readonly string[]): Promise<string[] | undefined> {
  const { review } = await loadReview(root, { decodeImages: false });
  if (!review) return [...ids]; // the run itself reports what is wrong with the review
  try {
    return checkSubset(review, ids);
  } catch (err) {
    if (!(err instanceof SubsetError)) throw err;
    void vscode.window.showWarningMessage(`Run TeamFusion: ${err.message}`);
    return undefined;
  }
}

/**
 * With three or more designers, asks who takes part (all ticked). Returns undefined for "everyone", the chosen ids for a
 * subset, or null when the user backed out (or chose fewer than two).
 */
async function pickDesigners(root: string): Promise<string[] | undefined | null> {
  const { review } = await loadReview(root, { decodeImages: false });
  if (!review || review.designers.length < 3) return undefined;
  const items = review.designers.map((d) => ({ label: d.name, description: d.role, detail: d.id, id: d.id, picked: true }));
  const chosen = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: 'Run TeamFusion: who takes part?',
    placeHolder: 'Untick designers to run with a smaller team (two or more); agreement is then computed for them only.',
    ignoreFocusOut: true,
  });
  if (!chosen) return null;
  if (chosen.length < 2) {
    void vscode.window.showWarningMessage('Run TeamFusion: a run needs at least two designers.');
    return null;
  }
  return chosen.length === review.designers.length ? undefined : chosen.map((c) => c.id);
}

async function refine(services: Services, arg: unknown): Promise<RunRecord | undefined> {
  if (!services.runs.ensureTrusted()) return undefined;
  let feedback: string | undefined;
  let ref: RunRef | undefined;
  let ready: ChatReady | undefined;
  const parsed = RefineArgsSchema.safeParse(arg);
  if (parsed.success) {
    ref = { reviewRoot: parsed.data.reviewRoot, runId: parsed.data.runId };
    feedback = parsed.data.feedback;
  } else if (hasReviewRoot(arg) && typeof (arg as { runId?: unknown }).runId !== 'undefined') {
    invalidArgs('Refine Run', parsed.error);
    return undefined;
  } else {
    // As for Run: no key or model = the first-run choices, before the user picks a run and writes feedback.
    ready = await services.runs.chatReady();
    if (!ready) return undefined;
    ref = await runRefOf(services, arg, {
      statuses: ['completed'],
      title: 'TeamFusion: Refine Run',
      placeHolder: 'Which run should the team refine? (newest first)',
      emptyMessage: 'This review has no completed run to refine yet. Run TeamFusion on it first.',
    });
  }
  if (!ref) return undefined;
  if (feedback === undefined) {
    feedback = await vscode.window.showInputBox({
      title: `TeamFusion: Refine ${ref.runId}`,
      prompt: "The lead's feedback for one more iteration (optional). Leave empty to refine without feedback.",
      placeHolder: 'e.g. Keep the bottle of Image 2 but warmer light, less text.',
      ignoreFocusOut: true,
    });
    if (feedback === undefined) return undefined; // Escape: the user changed their mind.
  }
  return services.runs.refine(ref.reviewRoot, ref.runId, feedback, ready);
}

async function cancel(services: Services, arg: unknown): Promise<boolean> {
  const parsed = CancelArgsSchema.safeParse(arg ?? {});
  const a = parsed.success ? parsed.data : {};
  const active = services.runs.activeRuns();
  if (active.length === 0) {
    void vscode.window.showInformationMessage('No TeamFusion run is in progress.');
    return false;
  }
  if (a.runId || a.reviewRoot) {
    const target = a.runId ?? path.resolve(a.reviewRoot ?? '');
    const found = active.some((r) => (a.runId !== undefined ? r.runId === a.runId : path.resolve(r.reviewRoot) === target));
    if (!found) {
      void vscode.window.showInformationMessage('That run is not in progress.');
      return false;
    }
    services.runs.cancel(target);
    return true;
  }
  if (a.ask) {
    const choice = await vscode.window.showQuickPick(
      [
        ...active.map((r) => ({
          label: `$(debug-stop) Cancel ${r.runId ?? 'the run'}`,
          description: path.basename(r.reviewRoot),
          target: r.runId ?? r.reviewRoot,
        })),
        { label: '$(output) Show Log', description: '', target: undefined },
      ],
      { title: 'TeamFusion run' },
    );
    if (!choice) return false;
    if (choice.target === undefined) {
      services.runs.showLog();
      return false;
    }
    services.runs.cancel(choice.target);
    return true;
  }
  if (active.length === 1) {
    const only = active[0];
    services.runs.cancel(only?.runId ?? only?.reviewRoot);
    return true;
  }
  const picked = await vscode.window.showQuickPick(
    active.map((r) => ({ label: r.runId ?? 'starting…', description: path.basename(r.reviewRoot), target: r.runId ?? r.reviewRoot })),
    { title: 'TeamFusion: Cancel Run', placeHolder: 'Which run?' },
  );
  if (!picked) return false;
  services.runs.cancel(picked.target);
  return true;
}

/** Quick pick of VS Code's language models; the choice is remembered for this workspace (status bar). */
async function pickChatModel(services: Services): Promise<boolean> {
  const model = await services.runs.models.pick();
  if (!model) {
    const none = (await vscode.lm.selectChatModels()).length === 0;
    if (none)
      void vscode.window.showWarningMessage(
        'VS Code has no language model TeamFusion could use: install or sign in to a model provider (e.g. GitHub Copilot), or set an API key.',
      );
    return false;
  }
  services.log.info(`Chat model: ${model.name || model.id} (${model.vendor}).`);
  return true;
}

/** First-run choice: the discussion runs on a language model the user already has in VS Code. */
async function useVsCodeModel(services: Services): Promise<boolean> {
  const picked = await pickChatModel(services);
  if (!picked) return false;
  await vscode.workspace.getConfiguration('teamfusion').update('chatProvider', 'vscode', vscode.ConfigurationTarget.Workspace);
  services.runs.models.refresh();
  void vscode.window.showInformationMessage(
    'TeamFusion: the proxies use your VS Code model (teamfusion.chatProvider is "vscode"). Remixes still need an image endpoint key: Set Image API Key or Set API Key.',
  );
  return true;
}

/** First-run choice: an OpenAI-compatible server on this machine (Ollama, LM Studio, vLLM…), which needs no real key. */
async function useLocalEndpoint(services: Services): Promise<boolean> {
  const url = await vscode.window.showInputBox({
    title: 'TeamFusion: Use a Local Endpoint',
    prompt: 'Base URL of an OpenAI-compatible server on this machine (Ollama, LM Studio, vLLM, LiteLLM).',
    value: 'http://localhost:11434/v1',
    ignoreFocusOut: true,
    validateInput: (text) => (/^https?:\/\/\S+$/.test(text.trim()) ? undefined : 'A URL such as http://localhost:11434/v1'),
  });
  if (url === undefined) return false;
  const config = vscode.workspace.getConfiguration('teamfusion');
  await config.update('baseUrl', url.trim(), vscode.ConfigurationTarget.Workspace);
  await config.update('chatProvider', 'openai', vscode.ConfigurationTarget.Workspace);
  // Local servers accept any key; one is stored so Run does not ask again (Set API Key replaces it).
  if (!(await services.runs.apiKeys.get())) await services.runs.apiKeys.set('local-endpoint');
  void vscode.window.showInformationMessage(
    `TeamFusion: the chat runs on ${url.trim()}; set teamfusion.chatModel to a model it serves, and teamfusion.imageBaseUrl for the remixes if it edits no images.`,
  );
  return true;
}

async function commitRun(services: Services, arg: unknown): Promise<CommitRunResult | undefined> {
  const ref = await runRefOf(services, arg, {
    title: 'TeamFusion: Commit Run',
    placeHolder: 'Which run should be staged for a commit? (newest first)',
    emptyMessage: 'This review has no run to commit yet.',
  });
  if (!ref) return undefined;
  if (services.runs.activeRuns().some((r) => r.runId === ref.runId)) {
    const message = `Run ${ref.runId} is still in progress; commit it when it has finished.`;
    void vscode.window.showWarningMessage(message);
    return { staged: false, message };
  }
  const result = await stageRunForCommit(ref.reviewRoot, ref.runId);
  services.log.info(result.message);
  if (result.staged) void vscode.window.showInformationMessage(result.message);
  else void vscode.window.showWarningMessage(result.message);
  return result;
}

export function registerRunCommands(context: vscode.ExtensionContext, services: Services): void {
  const guarded = <T>(name: string, fn: (arg: unknown) => Promise<T>) => guardCommand(services.log, name, fn);
  context.subscriptions.push(
    vscode.commands.registerCommand(
      COMMANDS.runReview,
      guarded('Run', (arg) => runReview(services, arg)),
    ),
    vscode.commands.registerCommand(
      COMMANDS.refineRun,
      guarded('Refine Run', (arg) => refine(services, arg)),
    ),
    vscode.commands.registerCommand(
      COMMANDS.cancelRun,
      guarded('Cancel Run', (arg) => cancel(services, arg)),
    ),
    vscode.commands.registerCommand(
      COMMANDS.setApiKey,
      guarded(
        'Set API Key',
        completesStep(STEP_DONE.apiKey, (arg) => setKey(services, CHAT_KEY_KIND, arg)),
      ),
    ),
    vscode.commands.registerCommand(
      'teamfusion.clearApiKey',
      guarded('Clear API Key', () => clearKey(services, CHAT_KEY_KIND)),
    ),
    vscode.commands.registerCommand(
      'teamfusion.pickChatModel',
      guarded('Pick Chat Model', () => pickChatModel(services)),
    ),
    vscode.commands.registerCommand(
      'teamfusion.useVsCodeModel',
      guarded(
        'Use a VS Code Model',
        completesStep(STEP_DONE.apiKey, () => useVsCodeModel(services)),
      ),
    ),
    vscode.commands.registerCommand(
      'teamfusion.useLocalEndpoint',
      guarded(
        'Use a Local Endpoint',
        completesStep(STEP_DONE.apiKey, () => useLocalEndpoint(services)),
      ),
    ),
    vscode.commands.registerCommand(
      'teamfusion.setImageApiKey',
      guarded('Set Image API Key', (arg) => setKey(services, IMAGE_KEY_KIND, arg)),
    ),
    vscode.commands.registerCommand(
      'teamfusion.clearImageApiKey',
      guarded('Clear Image API Key', () => clearKey(services, IMAGE_KEY_KIND)),
    ),
    vscode.commands.registerCommand(
      'teamfusion.commitRun',
      guardWriteCommand(services.log, 'Commit Run', (arg) => commitRun(services, arg)),
    ),
  );
}
