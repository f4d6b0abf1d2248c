/**
 * The checks that must pass before anything is sent to a model: a trusted workspace, no other run of the same review,
 * an API key. Pure (the UI is injected) so the guard itself is unit-tested; RunManager wires it to VS Code.
 */

export const UNTRUSTED_MESSAGE =
  'TeamFusion sends nothing to a model in an untrusted workspace. Trust this workspace to run the proxy agents; ' +
  'validation and analysis keep working without trust.';
export const MANAGE_TRUST = 'Manage Workspace Trust';

export const MISSING_KEY_MESSAGE =
  "TeamFusion needs a model to run, and none is set up yet: set an API key (kept in VS Code's secret storage; OPENAI_API_KEY " +
  'works too), use a language model you already have in VS Code, or point it to a local endpoint such as Ollama or LM Studio. Nothing was sent.';
export const SET_API_KEY = 'Set API Key';
export const USE_VSCODE_MODEL = 'Use a VS Code Model';
export const USE_LOCAL_ENDPOINT = 'Use a Local Endpoint';
/** The first-run choices, in one place (Run and the walkthrough offer the same): button → command. */
export const FIRST_RUN_CHOICES: ReadonlyArray<readonly [string, string]> = [
  [SET_API_KEY, 'teamfusion.setApiKey'],
  [USE_VSCODE_MODEL, 'teamfusion.useVsCodeModel'],
  [USE_LOCAL_ENDPOINT, 'teamfusion.useLocalEndpoint'],
];

/** Offers the first-run choices with `message`; runs the command of the one chosen. */
export function offerFirstRunChoices(ui: GuardUi, message: string = MISSING_KEY_MESSAGE): void {
  void Promise.resolve(ui.warn(message, ...FIRST_RUN_CHOICES.map(([b]) => b))).then((choice) => {
    const command = FIRST_RUN_CHOICES.find(([b]) => b === choice)?.[1];
    if (command) ui.runCommand(command);
  });
}

export interface GuardUi {
  /** Shows a warning with buttons; resolves with the chosen button (the guard does not wait for it). */
  warn(message: string, ...buttons: string[]): PromiseLike<string | undefined>;
  /** Runs a VS Code command (e.g. the trust editor or Set API Key). */
  runCommand(command: string): unknown;
}

/** False (after telling the user, with a button to manage trust) when the workspace is not trusted. */
export function ensureTrusted(isTrusted: boolean, ui: GuardUi): boolean {
  if (isTrusted) return true;
  void Promise.resolve(ui.warn(UNTRUSTED_MESSAGE, MANAGE_TRUST)).then((choice) => {
    if (choice === MANAGE_TRUST) ui.runCommand('workbench.trust.manage');
  });
  return false;
}

export type PreflightResult =
  /** `apiKey` is absent only when the key is optional (the chat runs on a VS Code model). */
  { ok: true; apiKey?: string } | { ok: false; reason: 'untrusted' | 'busy' | 'no-key' };

export interface PreflightInput {
  isTrusted: boolean;
  /** Another run of this review is in flight. */
  busy: boolean;
  /** Secret storage, else environment. Only called when the workspace is trusted. */
  getApiKey: () => Promise<string | undefined>;
  ui: GuardUi;
  /** Told when the review is busy (defaults to a plain warning). */
  onBusy?: () => void;
  /** The chat runs on a VS Code language model: no key is needed to start (the image endpoint is checked by the run). */
  keyOptional?: boolean;
}

/** Runs the checks in order; nothing later is touched when an earlier one fails. */
export async function preflight(input: PreflightInput): Promise<PreflightResult> {
  if (!ensureTrusted(input.isTrusted, input.ui)) return { ok: false, reason: 'untrusted' };
  if (input.busy) {
    if (input.onBusy) input.onBusy();
    else void input.ui.warn('A TeamFusion run of this review is already in progress. Cancel it or wait for it to finish.');
    return { ok: false, reason: 'busy' };
  }
  const apiKey = (await input.getApiKey())?.trim();
  if (!apiKey) {
    if (input.keyOptional) return { ok: true };
    offerFirstRunChoices(input.ui);
    return { ok: false, reason: 'no-key' };
  }
  return { ok: true, apiKey };
}

/** Told when a command would write into an untrusted workspace (import, re-rank, new review, ranking form, commit …). */
export function untrustedWriteMessage(action: string): string {
  return (
    `TeamFusion writes nothing into an untrusted workspace, so ${action} is off. Trust this workspace to use it; ` +
    'validation and analysis keep working without trust.'
  );
}

/** False (after telling the user, with a button to manage trust) when the workspace is not trusted: nothing is written. */
export function ensureTrustedToWrite(isTrusted: boolean, ui: GuardUi, action: string): boolean {
  if (isTrusted) return true;
  void Promise.resolve(ui.warn(untrustedWriteMessage(action), MANAGE_TRUST)).then((choice) => {
    if (choice === MANAGE_TRUST) ui.runCommand('workbench.trust.manage');
  });
  return false;
}
