#!/usr/bin/env node
// Installs (or reuses) node-llama-cpp, the gguf Python package and the tiny stand-in model in the test cache; prints
// what it did and how long each step took. The integration stage calls the same code (scripts/run-integration.mjs).
import { ensureLlama } from './lib.mjs';
import { cacheRoot } from '../code-server/lib.mjs';

const t0 = Date.now();
try {
  const r = await ensureLlama();
  const said = (s) => (s > 0 ? `installed in ${s.toFixed(1)} s` : 'reused');
  console.log(
    `node-llama-cpp ${said(r.seconds.engine)}; gguf venv ${said(r.seconds.python)}; tiny model ${r.seconds.model > 0 ? `made in ${r.seconds.model.toFixed(1)} s` : 'reused'}`,
  );
  console.log(`llama.cpp test engine ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (cache ${cacheRoot()})`);
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}
