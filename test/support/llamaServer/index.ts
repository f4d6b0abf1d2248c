/**
 * The llama.cpp test server (main.ts) started as a child process for a test: `startLlamaServer()` answers once it
 * listens, with its base URL, every request it has seen (`requests`, as server.ts reports them) and `close()`.
 *
 * Where the engine and model are: TEAMFUSION_LLAMA_ENGINE / TEAMFUSION_LLAMA_MODEL (set by scripts/run-integration.mjs
 * after scripts/llama/lib.mjs installed them), else the test cache's own folders ($TEAMFUSION_CACHE, else
 * ~/.cache/teamfusion-ci, under llama/). When neither is there, or the install failed (TEAMFUSION_LLAMA_ERROR), it throws
 * a sentence saying so and how to install it: the test fails, it is never skipped.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { LlamaRequestLog } from './server';

export type { LlamaRequestLog } from './server';
export { MODEL_ID as LLAMA_MODEL_ID } from './server';

const INSTALL_HINT = 'run `node scripts/llama/ensure.mjs` (node-llama-cpp 3.21.1, a gguf venv and the tiny model, into the test cache)';

/** The engine folder and the model file, or a sentence saying why there are none. */
export function llamaInstall(): { engineDir: string; modelPath: string } {
  const failed = process.env.TEAMFUSION_LLAMA_ERROR;
  if (failed) throw new Error(`The llama.cpp test engine could not be installed: ${failed}`);
  const engineDir = process.env.TEAMFUSION_LLAMA_ENGINE;
  const modelPath = process.env.TEAMFUSION_LLAMA_MODEL;
  if (engineDir && modelPath) return { engineDir, modelPath };
  const root = join(process.env.TEAMFUSION_CACHE || join(homedir(), '.cache', 'teamfusion-ci'), 'llama');
  const engine = join(root, 'engine');
  const models = join(root, 'models');
  const newest = existsSync(models)
    ? readdirSync(models)
        .filter((n) => /^tiny-[0-9a-f]+\.gguf$/.test(n))
        .map((n) => join(models, n))
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]
    : undefined;
  if (!existsSync(join(engine, 'node_modules', 'node-llama-cpp', 'package.json')) || !newest) {
    throw new Error(`The llama.cpp test engine is not installed in ${root}: ${INSTALL_HINT}.`);
  }
  return { engineDir: engine, modelPath: newest };
}

export interface LlamaServer {
  baseURL: string;
  /** How long loading the engine and model took. */
  readyMs: number;
  /** The chat wrapper node-llama-cpp chose from the model's template (ChatML for the tiny model). */
  chatWrapper: string;
  requests: LlamaRequestLog[];
  close(): Promise<void>;
}

/** Starts the server; `maxTokens` caps every request that names no cap of its own (e.g. 8 to get answers cut by length). */
export async function startLlamaServer(o: { maxTokens?: number } = {}): Promise<LlamaServer> {
  const install = llamaInstall();
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, 'main.js')], {
    env: {
      ...process.env,
      ELECTRON_RUN_AS_NODE: '1', // in an Electron extension host, execPath is Electron
      TEAMFUSION_LLAMA_ENGINE: install.engineDir,
      TEAMFUSION_LLAMA_MODEL: install.modelPath,
      ...(o.maxTokens === undefined ? {} : { TEAMFUSION_LLAMA_MAX_TOKENS: String(o.maxTokens) }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const requests: LlamaRequestLog[] = [];
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<{ baseURL: string; readyMs: number; chatWrapper: string }>((resolve, reject) => {
    let facts = { readyMs: 0, chatWrapper: '' };
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('LLAMA_REQUEST ')) requests.push(JSON.parse(line.slice('LLAMA_REQUEST '.length)) as LlamaRequestLog);
      else if (line.startsWith('LLAMA_READY ')) {
        const r = JSON.parse(line.slice('LLAMA_READY '.length)) as { ms: number; chatWrapper: string };
        facts = { readyMs: r.ms, chatWrapper: r.chatWrapper };
      } else if (line.startsWith('OPENAI_BASE_URL=')) resolve({ baseURL: line.slice('OPENAI_BASE_URL='.length), ...facts });
    });
    void exited.then((code) =>
      reject(new Error(`The llama.cpp test server stopped (exit ${code}) before it listened: ${stderr.trim() || 'no message'}`)),
    );
  });
  const up = await ready;
  return {
    ...up,
    requests,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
