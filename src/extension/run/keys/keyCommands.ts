/**
 * Set / Clear API Key and Set / Clear Image API Key: one way for both keys. A key comes as the command's argument (checked
 * by apiKeyProblem) or from a password box, and lives only in VS Code's secret storage; what differs is the words, the
 * store and what is used once the stored key is cleared.
 */
import * as vscode from 'vscode';
import type { Services } from '../../services';
import { apiKeyProblem, type ApiKeyStore } from './apiKeyStore';

export interface KeyKind {
  /** The key in a sentence ("API key", "image API key"). */
  name: string;
  /** The password box's title and prompt. */
  title: string;
  prompt: string;
  store: (services: Services) => ApiKeyStore;
  /** What a clear adds: which key is used now (`environment`: the variable is set). */
  afterClear: (environment: boolean) => string;
}

export const CHAT_KEY_KIND: KeyKind = {
  name: 'API key',
  title: 'TeamFusion: Set API Key',
  prompt: "The key of your OpenAI-compatible endpoint. It is kept in VS Code's secret storage, never in settings or files.",
  store: (services) => services.runs.apiKeys,
  afterClear: (environment) => (environment ? ' The OPENAI_API_KEY environment variable is still set and will be used.' : ''),
};

export const IMAGE_KEY_KIND: KeyKind = {
  name: 'image API key',
  title: 'TeamFusion: Set Image API Key',
  prompt:
    "The key of the image endpoint (teamfusion.imageBaseUrl), when it is not the chat key. Kept in VS Code's secret storage, never in settings or files.",
  store: (services) => services.runs.imageKeys,
  afterClear: (environment) =>
    environment ? ' The TEAMFUSION_IMAGE_API_KEY environment variable is still set and will be used.' : ' Image edits use the chat key.',
};

const capitalized = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Stores the key given as `arg` (a string) or typed in the box; false when it was refused or not given. */
export async function setKey(services: Services, kind: KeyKind, arg: unknown): Promise<boolean> {
  let key: string | undefined = typeof arg === 'string' ? arg : undefined;
  if (key !== undefined) {
    const problem = apiKeyProblem(key);
    if (problem) {
      void vscode.window.showErrorMessage(`TeamFusion: the ${kind.name} was not stored. ${problem}`);
      return false;
    }
  } else {
    key = await vscode.window.showInputBox({
      title: kind.title,
      prompt: kind.prompt,
      placeHolder: 'sk-…',
      password: true,
      ignoreFocusOut: true,
      validateInput: (text) => apiKeyProblem(text),
    });
    if (key === undefined) return false;
  }
  await kind.store(services).set(key);
  services.log.info(`${capitalized(kind.name)} stored in secret storage.`);
  void vscode.window.showInformationMessage(`TeamFusion: ${kind.name} stored in VS Code's secret storage.`);
  return true;
}

/** Removes the stored key and says which key is used now. */
export async function clearKey(services: Services, kind: KeyKind): Promise<void> {
  const store = kind.store(services);
  await store.clear();
  services.log.info(`${capitalized(kind.name)} removed from secret storage.`);
  void vscode.window.showInformationMessage(
    `TeamFusion: ${kind.name} removed from secret storage.${kind.afterClear(store.hasEnvironmentKey())}`,
  );
}
