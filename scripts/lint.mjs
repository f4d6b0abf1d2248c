#!/usr/bin/env node
// `npm run lint`: ESLint (eslint.config.mjs, with type information) and Prettier's check (`npm run format:check`) at the
// same time, each one thread; ESLint's output, then Prettier's, each printed whole when both have ended. Exit 1 when
// either failed.
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ESLINT = ['src', 'webview', 'test', 'scripts', 'bench', 'esbuild.mjs', 'eslint.config.mjs'];

function run(cmd, args) {
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (c) => (text += c));
    child.stderr.on('data', (c) => (text += c));
    child.on('error', (e) => (text += `${String(e)}\n`));
    child.on('close', (code) => resolvePromise({ code: code ?? 1, text }));
  });
}

const t0 = Date.now();
const [eslint, prettier] = await Promise.all([
  run(join(repo, 'node_modules', '.bin', 'eslint'), ESLINT),
  run('npm', ['run', '--silent', 'format:check']),
]);
for (const [name, r] of [
  ['ESLint', eslint],
  ['Prettier', prettier],
]) {
  process.stdout.write(
    `${name}: ${r.code === 0 ? 'ok' : `failed (exit ${r.code})`}\n${r.text}${r.text.endsWith('\n') || !r.text ? '' : '\n'}`,
  );
}
console.log(`lint in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(eslint.code === 0 && prettier.code === 0 ? 0 : 1);
