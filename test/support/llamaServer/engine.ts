/**
 * llama.cpp on the CPU through node-llama-cpp (installed into the test cache by scripts/llama, never a dependency of the
 * extension): one model, one context of one sequence, one thread, requests answered one at a time. The types are the few
 * parts of node-llama-cpp's API this uses, written here because the package is not in the repository's node_modules.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface Grammar {
  /** (a JSON-schema grammar) The answer parsed and checked against the schema; throws when it does not conform. */
  parse?(json: string): unknown;
}
interface LlamaText {
  tokenize(tokenizer: unknown): unknown[];
}
type HistoryItem = { type: 'system' | 'user'; text: string } | { type: 'model'; response: string[] };
interface Sequence {
  tokenMeter: { getState(): { usedInputTokens: number; usedOutputTokens: number } };
}
interface Chat {
  chatWrapper: { wrapperName?: string; generateContextState(o: { chatHistory: HistoryItem[] }): { contextText: LlamaText } };
  generateResponse(
    history: HistoryItem[],
    o: {
      maxTokens?: number;
      temperature?: number;
      seed?: number;
      grammar?: Grammar;
      signal?: AbortSignal;
      onTextChunk?: (text: string) => void;
    },
  ): Promise<{ response: string; metadata: { stopReason: string } }>;
  dispose(o?: { disposeSequence?: boolean }): void;
}
interface NodeLlamaCpp {
  getLlama(o: { gpu: false; build: 'never'; logLevel: string }): Promise<Llama>;
  LlamaChat: new (o: { contextSequence: Sequence; autoDisposeSequence: boolean }) => Chat;
}
interface Llama {
  loadModel(o: { modelPath: string }): Promise<Model>;
  createGrammarForJsonSchema(schema: unknown): Promise<Grammar>;
  getGrammarFor(name: 'json'): Promise<Grammar>;
  dispose(): Promise<void>;
}
interface Model {
  tokenizer: unknown;
  createContext(o: { contextSize: number; threads: number; sequences: number }): Promise<{ getSequence(): Sequence }>;
}

export interface Turn {
  role: 'system' | 'user' | 'assistant';
  text: string;
}

export interface Generation {
  text: string;
  /** OpenAI's words: `length` when the token cap ended it, else `stop`. */
  finishReason: 'stop' | 'length';
  promptTokens: number;
  completionTokens: number;
  ms: number;
}

export interface GenerateOptions {
  maxTokens: number;
  temperature: number;
  seed?: number;
  grammar?: Grammar;
  signal?: AbortSignal;
  onText?: (text: string) => void;
}

export class LlamaEngine {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly lib: NodeLlamaCpp,
    private readonly llama: Llama,
    private readonly model: Model,
    private readonly sequence: Sequence,
    readonly chatWrapper: string,
  ) {}

  /** Loads node-llama-cpp from `engineDir` (a folder with node_modules/node-llama-cpp) and the model, CPU only. */
  static async load(engineDir: string, modelPath: string, contextSize: number): Promise<LlamaEngine> {
    const entry = join(engineDir, 'node_modules', 'node-llama-cpp', 'dist', 'index.js');
    const lib = (await import(pathToFileURL(entry).href)) as NodeLlamaCpp;
    const llama = await lib.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
    const model = await llama.loadModel({ modelPath });
    // One thread: on a loaded two-core machine it is the fastest (docs/testing.md).
    const context = await model.createContext({ contextSize, threads: 1, sequences: 1 });
    const sequence = context.getSequence();
    const probe = new lib.LlamaChat({ contextSequence: sequence, autoDisposeSequence: false });
    const wrapper = probe.chatWrapper.wrapperName ?? 'unknown';
    probe.dispose({ disposeSequence: false });
    return new LlamaEngine(lib, llama, model, sequence, wrapper);
  }

  /** The grammar for a JSON schema (node-llama-cpp's own converter) or for any JSON. */
  grammarForSchema(schema: unknown): Promise<Grammar> {
    return this.llama.createGrammarForJsonSchema(schema);
  }

  grammarForJson(): Promise<Grammar> {
    return this.llama.getGrammarFor('json');
  }

  /** One answer to `turns` through the model's chat template; requests wait their turn for the one sequence. */
  generate(turns: readonly Turn[], o: GenerateOptions): Promise<Generation> {
    const next = this.queue.then(() => this.generateNow(turns, o));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async generateNow(turns: readonly Turn[], o: GenerateOptions): Promise<Generation> {
    const t0 = Date.now();
    const history: HistoryItem[] = turns.map((t) =>
      t.role === 'assistant' ? { type: 'model', response: [t.text] } : { type: t.role, text: t.text },
    );
    history.push({ type: 'model', response: [] });
    const chat = new this.lib.LlamaChat({ contextSequence: this.sequence, autoDisposeSequence: false });
    try {
      // The prompt's tokens as the template lays them out (what OpenAI reports as prompt_tokens).
      const promptTokens = chat.chatWrapper
        .generateContextState({ chatHistory: history })
        .contextText.tokenize(this.model.tokenizer).length;
      const before = this.sequence.tokenMeter.getState();
      const r = await chat.generateResponse(history, {
        maxTokens: o.maxTokens,
        temperature: o.temperature,
        ...(o.seed === undefined ? {} : { seed: o.seed }),
        ...(o.grammar ? { grammar: o.grammar } : {}),
        ...(o.signal ? { signal: o.signal } : {}),
        ...(o.onText ? { onTextChunk: o.onText } : {}),
      });
      const after = this.sequence.tokenMeter.getState();
      return {
        text: r.response,
        finishReason: r.metadata.stopReason === 'maxTokens' ? 'length' : 'stop',
        promptTokens,
        completionTokens: after.usedOutputTokens - before.usedOutputTokens,
        ms: Date.now() - t0,
      };
    } finally {
      chat.dispose({ disposeSequence: false });
    }
  }

  async close(): Promise<void> {
    await this.llama.dispose();
  }
}
