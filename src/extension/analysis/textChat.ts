/**
 * The chat a one-off analysis uses from VS Code (Code Discussion, Find the Team's Criteria, the proxy forecasts): the
 * runs' guard first (nothing is sent in an untrusted workspace or without a model), then the VS Code language model the
 * runs use (text only) with `teamfusion.chatProvider: "vscode"`, else the OpenAI-compatible endpoint with the stored key;
 * and the cancellable progress notification such a job runs under.
 */
import * as vscode from 'vscode';
import type OpenAI from 'openai';
import type { ChatBackend } from '../../core/llm/backend';
import { createModelClient } from '../../core/llm/client';
import { OpenAIChatBackend } from '../../core/llm/openaiBackend';
import { chatProviderSetting } from '../llm/chatModelChoice';
import { modelLabel } from '../llm/vscodeChat';
import { vscodeChatFor } from '../llm/vscodeChatFor';
import type { Services } from '../services';
import { resolveConnection } from '../run/runSettings';
import { preflight } from '../run/trustGuard';

export interface TextChat {
  /** The VS Code language model picked (covered by the user's plan), when the provider is "vscode". */
  onPlan?: { chat: ChatBackend; model: string };
  /** The endpoint's client, made when first needed; present when a key is stored. */
  client?: () => OpenAI;
}

/** The chat for `what` on `reviewRoot`, or undefined after saying in the log why nothing is sent. */
export async function textChatFor(
  services: Services,
  what: string,
  reviewRoot: string,
  busy?: { now: boolean; say: () => void },
): Promise<TextChat | undefined> {
  const log = services.log;
  const provider = chatProviderSetting();
  const ui = {
    warn: (message: string, ...buttons: string[]) => vscode.window.showWarningMessage(message, ...buttons),
    runCommand: (command: string) => vscode.commands.executeCommand(command),
  };
  const check = await preflight({
    keyOptional: provider === 'vscode',
    isTrusted: vscode.workspace.isTrusted,
    busy: busy?.now ?? false,
    getApiKey: async () => (await services.runs.apiKeys.get())?.key,
    ui,
    onBusy: () => busy?.say(),
  });
  if (!check.ok) {
    const why =
      check.reason === 'untrusted'
        ? 'the workspace is not trusted'
        : check.reason === 'busy'
          ? 'it is already in progress'
          : 'no API key is set';
    log.warn(`${what}: nothing sent for ${reviewRoot} (${why}).`);
    return undefined;
  }
  const config = vscode.workspace.getConfiguration('teamfusion');
  const apiKey = check.apiKey;
  const connection = resolveConnection((k) => config.get(k), process.env);
  const client = apiKey ? () => createModelClient({ apiKey, ...connection }) : undefined;
  if (provider !== 'vscode') return { ...(client ? { client } : {}) };
  const picked = await vscodeChatFor(services.runs.models, ui, { textOnly: true });
  if (!picked) {
    log.warn(`${what}: nothing sent for ${reviewRoot} (no VS Code language model is available or none was picked).`);
    return undefined;
  }
  log.info(`${what} on the VS Code model ${modelLabel(picked.model)}.`);
  return { onPlan: { chat: picked.chat, model: picked.model.id }, ...(client ? { client } : {}) };
}

/** The backend a text job sends on: the VS Code model picked, else the endpoint's client through the openai SDK; undefined with neither. */
export function chatBackendOf(text: TextChat | undefined): ChatBackend | undefined {
  return text?.onPlan?.chat ?? (text?.client ? new OpenAIChatBackend(text.client()) : undefined);
}

/**
 * Runs `job` under a cancellable progress notification titled `title`: cancelling it aborts `controller` (the caller
 * keeps it, to tell a cancel from a failure); `report` puts a line in the notification.
 */
export async function withCancellableProgress<T>(
  title: string,
  controller: AbortController,
  job: (report: (message: string) => void) => Promise<T>,
): Promise<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        return await job((message) => progress.report({ message }));
      } finally {
        sub.dispose();
      }
    },
  );
}
