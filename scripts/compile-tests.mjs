#!/usr/bin/env node
// Emits out/ for the test runners quickly: every .ts file of src/, webview/, test/ and bench/ transpiled one by one with esbuild
// (CommonJS, linked source maps), the same layout `tsc -p tsconfig.test.json` gives (out/src/…, out/webview/…, out/test/…, out/bench/…).
// It checks no types: `npm test` runs the type check (`tsc --noEmit`) in its side lane beside the tests, so the tests do
// not wait for it; `npm run compile-tests` stays the full tsc emit with its check.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function tsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...tsFiles(full));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

// webview/: the unit tests import the panel's pure view code.
const folders = ['src', 'webview', 'test', 'bench'];
const entryPoints = folders.flatMap((d) => tsFiles(join(repo, d)));
const started = Date.now();
// What an earlier emit left of a source since removed would still run as a test: each folder's output is made afresh.
for (const d of folders) rmSync(join(repo, 'out', d), { recursive: true, force: true });
await esbuild.build({
  entryPoints,
  outdir: join(repo, 'out'),
  outbase: repo,
  bundle: false,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // The same class-field and decorator semantics tsc gives with tsconfig.json.
  tsconfig: join(repo, 'tsconfig.json'),
  logLevel: 'warning',
});
console.log(`${entryPoints.length} files transpiled into ${relative(repo, join(repo, 'out'))}/ in ${Date.now() - started} ms`);
