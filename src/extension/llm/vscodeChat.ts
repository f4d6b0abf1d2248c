/**
 * VS Code's Language Model API behind the engine's chat interface (src/core/llm/backend.ts): the models the user already has
 * (GitHub Copilot or any other provider inside VS Code), used with their consent, which VS Code asks for itself on the first
 * request. Images go as image data parts where VS Code and the model support them (LanguageModelDataPart is newer than the
 * 1.99 typings, so it is looked up at run time); structured answers are asked for in the prompt (the LM API has no
 * json_schema) and validated by the engine with the same zod schemas, repair and retry; usage is counted with the model's
 * own token counter; cancellation goes through a CancellationToken.
 */
import * as vscode from 'vscode';
import { type ChatAnswer, type ChatBackend, type ChatRequest } from '../../core/llm/backend';
import { checkRequestSize, type ChatMessage } from '../../core/llm/messages';
import type { Usage } from '../../core/record/record';
import { languageModelError } from './languageModelErrors';

interface DataPartClass {
  image(data: Uint8Array, mimeType: string): unknown;
}

/** vscode.LanguageModelDataPart when this VS Code has it (1.10x and later), else undefined. */
export function dataPartClass(): DataPartClass | undefined {
  const c = (vscode as unknown as { LanguageModelDataPart?: DataPartClass }).LanguageModelDataPart;
  return c && typeof c.image === 'function' ? c : undefined;
}

/** Whether this model can be sent images: VS Code has image data parts and the model says it reads images. */
export function modelAcceptsImages(model: vscode.LanguageModelChat): boolean {
  if (!dataPartClass()) return false;
  const caps = (model as unknown as { capabilities?: { supportsImageToText?: boolean; imageInput?: boolean } }).capabilities;
  return caps?.supportsImageToText === true || caps?.imageInput === true;
}

export function modelLabel(model: Pick<vscode.LanguageModelChat, 'name' | 'vendor' | 'id'>): string {
  return `${model.name || model.id} (${model.vendor})`;
}

/** The instruction that replaces `response_format: json_schema` on the LM API. */
export function structuredInstruction(schema: Record<string, unknown>): string {
  return (
    'Answer with one JSON object only — no prose before or after it, no code fence — that is valid against this JSON schema ' +
    `(every required field present, no other fields):\n${JSON.stringify(schema)}`
  );
}

/** A JSON answer wrapped in a code fence, as chat models like to write it, without the fence. */
export function unfence(text: string): string {
  const m = /^\s*```(?:json)?\s*\n?([\s\S]*?)\n?\s*```\s*$/i.exec(text);
  return m ? m[1]!.trim() : text.trim();
}

const JUSTIFICATION = 'TeamFusion: the proxy agents of your design review discuss the candidates with this model.';

export class VsCodeChatBackend implements ChatBackend {
  readonly provider = 'vscode' as const;
  readonly host = undefined;
  readonly priced = false;
  readonly acceptsImages: boolean;

  constructor(
    private readonly model: vscode.LanguageModelChat,
    o: { textOnly?: boolean } = {},
  ) {
    this.acceptsImages = !o.textOnly && modelAcceptsImages(model);
  }

  async chat(req: ChatRequest): Promise<ChatAnswer> {
    checkRequestSize(req.messages); // the caps of every backend, before the request is built
    const messages = this.toLmMessages(req.messages);
    if (req.structured) messages.push(vscode.LanguageModelChatMessage.User(structuredInstruction(req.structured.schema)));
    const cts = new vscode.CancellationTokenSource();
    const onAbort = (): void => cts.cancel();
    if (req.signal?.aborted) cts.cancel();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const options: vscode.LanguageModelChatRequestOptions = { justification: JUSTIFICATION };
    if (req.temperature !== undefined) options.modelOptions = { temperature: req.temperature };
    let text = '';
    try {
      const response = await this.model.sendRequest(messages, options, cts.token);
      for await (const chunk of response.text) {
        if (cts.token.isCancellationRequested) break;
        text += chunk;
        req.onDelta?.(chunk);
      }
      if (cts.token.isCancellationRequested) throw abortError();
      const usage = await this.usage(messages, text, cts.token);
      return { text: req.structured ? unfence(text) : text, finishReason: 'stop', usage, model: this.model.id };
    } catch (err) {
      if (cts.token.isCancellationRequested || req.signal?.aborted) throw abortError();
      throw this.describe(err);
    } finally {
      req.signal?.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }

  private toLmMessages(messages: readonly ChatMessage[]): vscode.LanguageModelChatMessage[] {
    const Data = this.acceptsImages ? dataPartClass() : undefined;
    return messages.map((m) => {
      // The LM API has user and assistant messages only: instructions go as a user message.
      if (m.role === 'assistant') {
        const text =
          typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : `[${p.label}]`)).join('\n\n');
        return vscode.LanguageModelChatMessage.Assistant(text);
      }
      if (typeof m.content === 'string') return vscode.LanguageModelChatMessage.User(m.content);
      const parts = m.content.map((p) => {
        if (p.type === 'text') return new vscode.LanguageModelTextPart(p.text);
        if (Data) {
          const base64 = p.image.dataUrl.slice(p.image.dataUrl.indexOf(',') + 1);
          return Data.image(new Uint8Array(Buffer.from(base64, 'base64')), p.image.mime);
        }
        return new vscode.LanguageModelTextPart(`[${p.label}]`);
      });
      return vscode.LanguageModelChatMessage.User(parts as vscode.LanguageModelTextPart[]);
    });
  }

  /** Input and output tokens by the model's own counter (an estimate of 4 characters a token where it cannot count). */
  private async usage(
    messages: vscode.LanguageModelChatMessage[],
    output: string,
    token: vscode.CancellationToken,
  ): Promise<Partial<Usage>> {
    const count = async (m: string | vscode.LanguageModelChatMessage): Promise<number> => {
      try {
        return await this.model.countTokens(m, token);
      } catch {
        const t = typeof m === 'string' ? m : m.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
        return Math.ceil(t.length / 4);
      }
    };
    let inputTokens = 0;
    for (const m of messages) inputTokens += await count(m);
    return { inputTokens, cachedInputTokens: 0, outputTokens: await count(output) };
  }

  private describe(err: unknown): Error {
    return languageModelError(modelLabel(this.model), err, err instanceof vscode.LanguageModelError ? err.code : undefined);
  }
}

function abortError(): Error {
  const e = new Error('The request was cancelled.');
  e.name = 'AbortError';
  return e;
}
