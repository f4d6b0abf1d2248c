/**
 * Which VS Code language model the discussion uses (`teamfusion.chatProvider: "vscode"`): picked once with a quick pick of
 * vscode.lm.selectChatModels(), remembered per workspace, shown in the status bar (click to pick another).
 */
import * as vscode from 'vscode';
import { modelAcceptsImages, modelLabel } from './vscodeChat';

const STATE_KEY = 'teamfusion.vscodeChatModel';

interface Remembered {
  id: string;
  vendor: string;
  name: string;
}

export function chatProviderSetting(): 'openai' | 'vscode' {
  return vscode.workspace.getConfiguration('teamfusion').get('chatProvider') === 'vscode' ? 'vscode' : 'openai';
}

export class ChatModelChoice implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('teamfusion.chatModel', vscode.StatusBarAlignment.Right, 90);
  private readonly subs: vscode.Disposable[] = [];
  /** The id of the model `current()` or `pick()` returned last. */
  lastId: string | undefined;

  constructor(private readonly state: vscode.Memento) {
    this.item.name = 'TeamFusion chat model';
    this.item.command = 'teamfusion.pickChatModel';
    this.subs.push(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('teamfusion.chatProvider') && this.refresh()));
    const lm = (vscode as { lm?: typeof vscode.lm }).lm;
    if (lm?.onDidChangeChatModels) this.subs.push(lm.onDidChangeChatModels(() => this.refresh()));
    this.refresh();
  }

  /** The remembered model when VS Code still has it; else the quick pick (undefined when none is available or none picked). */
  async current(): Promise<vscode.LanguageModelChat | undefined> {
    const r = this.state.get<Remembered>(STATE_KEY);
    if (r) {
      const [m] = await vscode.lm.selectChatModels({ id: r.id, vendor: r.vendor });
      if (m) {
        this.lastId = m.id;
        return m;
      }
    }
    return this.pick();
  }

  /** All models VS Code offers; the chosen one is remembered for this workspace. */
  async pick(): Promise<vscode.LanguageModelChat | undefined> {
    const models = await vscode.lm.selectChatModels();
    if (models.length === 0) return undefined;
    const chosen =
      models.length === 1 && !this.state.get(STATE_KEY)
        ? { model: models[0]! }
        : await vscode.window.showQuickPick(
            models.map((model) => ({
              label: model.name || model.id,
              description: model.vendor,
              detail: `${model.family} · ${modelAcceptsImages(model) ? 'sees images' : 'text only'} · up to ${model.maxInputTokens} input tokens`,
              model,
            })),
            {
              title: 'TeamFusion: the model the proxy agents use',
              placeHolder: 'A language model you already have in VS Code',
              ignoreFocusOut: true,
            },
          );
    if (!chosen) return undefined;
    await this.state.update(STATE_KEY, {
      id: chosen.model.id,
      vendor: chosen.model.vendor,
      name: modelLabel(chosen.model),
    } satisfies Remembered);
    this.refresh();
    this.lastId = chosen.model.id;
    return chosen.model;
  }

  refresh(): void {
    if (chatProviderSetting() !== 'vscode') {
      this.item.hide();
      return;
    }
    const r = this.state.get<Remembered>(STATE_KEY);
    this.item.text = `$(sparkle) ${r ? r.name : 'pick a model'}`;
    this.item.tooltip = r
      ? `TeamFusion's proxies use ${r.name} (VS Code language model). Click to pick another.`
      : 'TeamFusion: pick the VS Code language model the proxies use.';
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subs) s.dispose();
  }
}
