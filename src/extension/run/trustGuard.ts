/**
 * The checks that must pass before anything is sent to a model: a trusted workspace, no other run of the same review,
 * an API key. Pure (the UI is injected) so the guard itself is unit-tested; RunManager wires it to VS Code.
 */

export const UNTRUSTED_MESSAGE =
  'TeamFusion sends nothing to a model in an untrusted workspace. Trust this workspace to run the proxy agents; ' +
  'validation and analysis keep working without trust.';
export const MANAGE_TRUST = 'Manage Workspace Trust';

export const MISSING_KEY_MESSAGE =
  'TeamFusion needs an API key for the model endpoint. Set one (it is kept in VS Code\'s secret storage) or set the ' +
  'OPENAI_API_KEY environment variable. Nothing was sent.';
export const SET_API_KEY = 'Set API Key';

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
  | { ok: true; apiKey: string }
  | { ok: false; reason: 'untrusted' | 'busy' | 'no-key' };

export interface PreflightInput {
  isTrusted: boolean;
  /** Another run of this review is in flight. */
  busy: boolean;
  /** Secret storage, else environment. Only called when the workspace is trusted. */
  getApiKey: () => Promise<string | undefined>;
  ui: GuardUi;
  /** Told when the review is busy (defaults to a plain warning). */
  onBusy?: () => void;
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
    void Promise.resolve(input.ui.warn(MISSING_KEY_MESSAGE, SET_API_KEY)).then((choice) => {
      if (choice === SET_API_KEY) input.ui.runCommand('teamfusion.setApiKey');
    });
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
