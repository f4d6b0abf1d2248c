#!/usr/bin/env node
// `npm run scripted-server` (after `npm ci && npm run build`): TeamFusion's bundled scripted server on 127.0.0.1, alone.
// It prints one line, OPENAI_BASE_URL=http://127.0.0.1:<port>/v1, and serves until stopped (Ctrl-C or SIGTERM). Point the
// CLI at it to try a run, rerank, judge or compare without a key: every answer is scripted and labelled so.
// `-- --port N` picks the port (default: a free one).
import { startScriptedServer } from './scriptedServer.mjs';

const args = process.argv.slice(2);
let started;
try {
  started = await startScriptedServer(args);
} catch (err) {
  process.stderr.write(`The scripted server could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
const { server, baseURL } = started;
process.stdout.write(`OPENAI_BASE_URL=${baseURL}\n`);
const stop = () => server.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', (code, signal) => process.exit(signal ? 0 : (code ?? 0)));
