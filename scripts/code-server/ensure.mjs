#!/usr/bin/env node
// Installs (or reuses) node 24 + npm 10 + code-server into the cache folder. Prints the time it took.
import { ensureCodeServer, cacheRoot } from './lib.mjs';

const t0 = Date.now();
try {
  const r = await ensureCodeServer();
  const s = ((Date.now() - t0) / 1000).toFixed(1);
  console.log(`code-server ${r.installed ? 'installed' : 'reused'} in ${s} s (cache ${cacheRoot()})`);
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}
