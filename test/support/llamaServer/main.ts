/**
 * The llama.cpp test server as a process of its own (index.ts starts it): loads the engine and the model named in the
 * environment, listens on 127.0.0.1, prints `OPENAI_BASE_URL=<url>` once ready and one `LLAMA_REQUEST <json>` line per
 * request, and serves until stopped.
 *   TEAMFUSION_LLAMA_ENGINE      a folder with node_modules/node-llama-cpp (scripts/llama/ensure.mjs)
 *   TEAMFUSION_LLAMA_MODEL       the GGUF file
 *   TEAMFUSION_LLAMA_MAX_TOKENS  the token cap of a request that names none (default 2048)
 *   TEAMFUSION_LLAMA_CONTEXT     the context size in tokens (default 16384)
 */
import { LlamaEngine } from './engine';
import { LlamaHttpServer, MODEL_ID } from './server';
import { errorMessage } from '../../../src/core/kernel/errors';

async function main(): Promise<void> {
  const engineDir = process.env.TEAMFUSION_LLAMA_ENGINE;
  const modelPath = process.env.TEAMFUSION_LLAMA_MODEL;
  if (!engineDir || !modelPath)
    throw new Error('TEAMFUSION_LLAMA_ENGINE and TEAMFUSION_LLAMA_MODEL must name the engine folder and the model');
  const t0 = Date.now();
  const engine = await LlamaEngine.load(engineDir, modelPath, Number(process.env.TEAMFUSION_LLAMA_CONTEXT ?? 16384));
  const server = new LlamaHttpServer(engine, {
    modelId: MODEL_ID,
    defaultMaxTokens: Number(process.env.TEAMFUSION_LLAMA_MAX_TOKENS ?? 2048),
    onRequest: (log) => process.stdout.write(`LLAMA_REQUEST ${JSON.stringify(log)}\n`),
  });
  const url = await server.listen();
  process.stdout.write(`LLAMA_READY ${JSON.stringify({ ms: Date.now() - t0, chatWrapper: engine.chatWrapper })}\n`);
  process.stdout.write(`OPENAI_BASE_URL=${url}\n`);
  const stop = (): void => {
    void server
      .close()
      .then(() => engine.close())
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`llama test server: ${errorMessage(e)}\n`);
  process.exit(1);
});
