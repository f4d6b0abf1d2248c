/**
 * A test-only VS Code extension (manifest: test/lmProvider/package.json) that registers scripted chat models with
 * `vscode.lm.registerLanguageModelChatProvider` (finalized in VS Code 1.104), so TeamFusion's `chatProvider: "vscode"` path
 * runs in a real VS Code without a network. It answers like the mock OpenAI server does (test/support/openaiMock): a short
 * designer-like turn naming the "Image k" labels it was given, or — when the prompt asks for one JSON object valid against a
 * JSON schema, as TeamFusion's VS Code backend does — an instance of that schema. It records what it received (the parts of
 * every message: text, or image data parts with their MIME type and bytes) so tests can assert how the images arrived.
 *
 * Controlled two ways:
 * - in the same extension host (integration tests): `vscode.extensions.getExtension(ID).exports` is a ScriptedLmApi;
 * - from outside (end-to-end tests): TEAMFUSION_LM_CONFIG names a JSON file `{ "models": [ScriptedModel…] }`, read at
 *   activation and on "TeamFusion Test: Reload Scripted Models"; TEAMFUSION_LM_RECORD names a file that gets one JSON line
 *   per request received.
 * A model with `imageInput: false` rejects a request that carries an image, as a text-only model would.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { designerReply } from '../support/openaiMock/autoResponder';
import { instanceFromSchema } from '../support/openaiMock/schemaInstance';

export const EXTENSION_ID = 'teamfusion-test.scripted-language-model';
export const VENDOR = 'teamfusion-test';

export interface ScriptedModel {
  id: string;
  name: string;
  /** Declares image input (VS Code shows it as supportsImageToText); false: a request with an image is rejected. */
  imageInput: boolean;
}

export interface ReceivedPart {
  kind: 'text' | 'data' | 'other';
  /** text: its length. */
  chars?: number;
  /** data: the MIME type, byte length and whether the bytes start with the PNG / JPEG signature. */
  mime?: string;
  bytes?: number;
  signature?: 'png' | 'jpeg' | 'webp' | 'unknown';
}

export interface ReceivedRequest {
  seq: number;
  model: string;
  /** Who sent it, as VS Code tells the provider (the calling extension's id). */
  initiator?: string;
  justification?: string;
  messages: { role: string; parts: ReceivedPart[] }[];
  /** The prompt asked for one JSON object valid against a schema. */
  structured: boolean;
  answer?: string;
  error?: string;
}

/** Context a responder gets: the model, every text of the request in order, and the asked-for schema if any. */
export interface ScriptedRequest {
  model: string;
  texts: string[];
  schema?: Record<string, unknown>;
}

export interface ScriptedLmApi {
  /** Every request received since the last reset, in order. */
  readonly received: ReceivedRequest[];
  /** Calls of provideTokenCount since the last reset. */
  readonly tokenCounts: number;
  /** The models offered from now on ([] withdraws them all); VS Code is told they changed. */
  setModels(models: ScriptedModel[]): void;
  /** A function that may script an answer (undefined: the default answer). */
  setResponder(fn?: (req: ScriptedRequest) => string | undefined): void;
  reset(): void;
}

/** The shape of VS Code's finalized LanguageModelChatProvider (1.104+), which @types/vscode 1.99 does not have. */
interface ChatInformation {
  id: string;
  name: string;
  family: string;
  version: string;
  tooltip?: string;
  detail?: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  capabilities: { imageInput?: boolean; toolCalling?: boolean | number };
}

interface RequestMessage {
  role: number;
  content: readonly unknown[];
  name?: string;
}

interface LmWithProviders {
  registerLanguageModelChatProvider(
    vendor: string,
    provider: {
      onDidChangeLanguageModelChatInformation?: vscode.Event<void>;
      provideLanguageModelChatInformation(options: { silent: boolean }, token: vscode.CancellationToken): ChatInformation[];
      provideLanguageModelChatResponse(
        model: ChatInformation,
        messages: readonly RequestMessage[],
        options: { justification?: string; requestInitiator?: string; modelOptions?: Record<string, unknown> },
        progress: vscode.Progress<unknown>,
        token: vscode.CancellationToken,
      ): Promise<void>;
      provideTokenCount(model: ChatInformation, text: string | RequestMessage, token: vscode.CancellationToken): Promise<number>;
    },
  ): vscode.Disposable;
}

const SCHEMA_ASK = 'valid against this JSON schema';

function signature(data: Uint8Array): ReceivedPart['signature'] {
  if (data[0] === 0x89 && data[1] === 0x50 && data[2] === 0x4e && data[3] === 0x47) return 'png';
  if (data[0] === 0xff && data[1] === 0xd8) return 'jpeg';
  if (data[8] === 0x57 && data[9] === 0x45 && data[10] === 0x42 && data[11] === 0x50) return 'webp';
  return 'unknown';
}

function describePart(p: unknown): ReceivedPart {
  if (p instanceof vscode.LanguageModelTextPart) return { kind: 'text', chars: p.value.length };
  const d = p as { mimeType?: unknown; data?: unknown };
  if (typeof d?.mimeType === 'string' && d.data instanceof Uint8Array) {
    return { kind: 'data', mime: d.mimeType, bytes: d.data.byteLength, signature: signature(d.data) };
  }
  return { kind: 'other' };
}

function textsOf(messages: readonly RequestMessage[]): string[] {
  const texts: string[] = [];
  for (const m of messages) for (const p of m.content) if (p instanceof vscode.LanguageModelTextPart) texts.push(p.value);
  return texts;
}

/** The JSON schema a prompt asks the answer to follow (TeamFusion's VS Code backend writes it after a colon and a line break). */
function askedSchema(texts: readonly string[]): Record<string, unknown> | undefined {
  for (const t of [...texts].reverse()) {
    const at = t.indexOf(SCHEMA_ASK);
    if (at < 0) continue;
    const start = t.indexOf('{', at);
    if (start < 0) continue;
    try {
      return JSON.parse(t.slice(start)) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function defaultAnswer(req: ScriptedRequest): string {
  if (req.schema) return JSON.stringify(instanceFromSchema(req.schema, 'response'));
  const turn = designerReply({ messages: req.texts.map((content) => ({ role: 'user', content })) });
  return `Scripted model reply: ${turn}`;
}

function readConfig(): ScriptedModel[] {
  const file = process.env.TEAMFUSION_LM_CONFIG;
  if (!file || !existsSync(file)) return [];
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { models?: ScriptedModel[] };
  return Array.isArray(parsed.models) ? parsed.models : [];
}

export function activate(context: vscode.ExtensionContext): ScriptedLmApi {
  const changed = new vscode.EventEmitter<void>();
  let models: ScriptedModel[] = readConfig();
  let responder: ((req: ScriptedRequest) => string | undefined) | undefined;
  const received: ReceivedRequest[] = [];
  let tokenCounts = 0;
  let seq = 0;
  const recordFile = process.env.TEAMFUSION_LM_RECORD;

  const info = (m: ScriptedModel): ChatInformation => ({
    id: m.id,
    name: m.name,
    family: 'scripted',
    version: '1',
    tooltip: 'A scripted test model: canned answers, no network.',
    detail: 'scripted',
    maxInputTokens: 128_000,
    maxOutputTokens: 4_096,
    capabilities: { imageInput: m.imageInput, toolCalling: false },
  });

  const lm = vscode.lm as unknown as LmWithProviders;
  context.subscriptions.push(
    changed,
    lm.registerLanguageModelChatProvider(VENDOR, {
      onDidChangeLanguageModelChatInformation: changed.event,
      provideLanguageModelChatInformation: () => models.map(info),
      async provideLanguageModelChatResponse(model, messages, options, progress, token) {
        const entry: ReceivedRequest = {
          seq: ++seq,
          model: model.id,
          ...(options.requestInitiator ? { initiator: options.requestInitiator } : {}),
          ...(options.justification ? { justification: options.justification } : {}),
          messages: messages.map((m) => ({
            role: m.role === 1 ? 'user' : m.role === 2 ? 'assistant' : String(m.role),
            parts: m.content.map(describePart),
          })),
          structured: false,
        };
        received.push(entry);
        const write = (): void => {
          if (recordFile) appendFileSync(recordFile, `${JSON.stringify(entry)}\n`);
        };
        try {
          const texts = textsOf(messages);
          const schema = askedSchema(texts);
          entry.structured = schema !== undefined;
          const scripted = models.find((m) => m.id === model.id);
          if (scripted && !scripted.imageInput && entry.messages.some((m) => m.parts.some((p) => p.kind === 'data'))) {
            throw new Error(`${scripted.name} cannot read images`);
          }
          const req: ScriptedRequest = { model: model.id, texts, ...(schema ? { schema } : {}) };
          const answer = responder?.(req) ?? defaultAnswer(req);
          entry.answer = answer;
          // Streamed in a few pieces, as real providers do.
          const step = Math.max(1, Math.ceil(answer.length / 3));
          for (let i = 0; i < answer.length; i += step) {
            if (token.isCancellationRequested) return;
            progress.report(new vscode.LanguageModelTextPart(answer.slice(i, i + step)));
          }
        } catch (err) {
          entry.error = err instanceof Error ? err.message : String(err);
          throw err;
        } finally {
          write();
        }
      },
      provideTokenCount(_model, text) {
        tokenCounts++;
        if (typeof text === 'string') return Promise.resolve(Math.ceil(text.length / 4));
        let n = 4;
        for (const p of text.content) {
          const d = describePart(p);
          n += d.kind === 'text' ? Math.ceil((d.chars ?? 0) / 4) : d.kind === 'data' ? 85 : 1;
        }
        return Promise.resolve(n);
      },
    }),
    vscode.commands.registerCommand('teamfusionTest.reloadModels', () => {
      models = readConfig();
      changed.fire();
      return models.length;
    }),
  );

  return {
    received,
    get tokenCounts() {
      return tokenCounts;
    },
    setModels(next) {
      models = [...next];
      changed.fire();
    },
    setResponder(fn) {
      responder = fn;
    },
    reset() {
      received.length = 0;
      tokenCounts = 0;
    },
  };
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
