/**
 * The chat backend of `teamfusion.chatProvider: "vscode"` for anything that talks to a model (runs, discussion coding): the
 * remembered or picked VS Code language model, or — when none is available or none was picked — the first-run choices in
 * one sentence and nothing sent.
 */
import type * as vscode from 'vscode';
import { offerFirstRunChoices, type GuardUi } from '../run/trustGuard';
import type { ChatModelChoice } from './chatModelChoice';
import { VsCodeChatBackend, modelAcceptsImages } from './vscodeChat';

export const NO_VSCODE_MODEL_MESSAGE =
  'teamfusion.chatProvider is "vscode", but no VS Code language model is available (or none was picked): install or sign in to a ' +
  'model provider (e.g. GitHub Copilot), set an API key, or point TeamFusion to a local endpoint. Nothing was sent.';

export interface VsCodeChat {
  chat: VsCodeChatBackend;
  model: vscode.LanguageModelChat;
  /** The model reads text only (for a run: the candidates are described by label and justifications, after asking). */
  textOnly: boolean;
}

/**
 * The VS Code model's chat backend, or undefined after offering the first-run choices. `textOnly` forces text-only requests
 * (discussion coding sends no images); otherwise the model's own capability decides.
 */
export async function vscodeChatFor(models: ChatModelChoice, ui: GuardUi, o: { textOnly?: boolean } = {}): Promise<VsCodeChat | undefined> {
  const model = await models.current();
  if (!model) {
    offerFirstRunChoices(ui, NO_VSCODE_MODEL_MESSAGE);
    return undefined;
  }
  const textOnly = o.textOnly === true || !modelAcceptsImages(model);
  return { chat: new VsCodeChatBackend(model, { textOnly }), model, textOnly };
}
