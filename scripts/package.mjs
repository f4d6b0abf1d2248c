#!/usr/bin/env node
// `npm run package`: one VSIX per platform in vsix/, each with exactly its platform's sharp binaries.
//   1. a production build (minified, no source maps) into .package/dist;
//   2. per target, a staging folder .package/<target>/ with the manifest, dist, media, schemas, samples, docs, README,
//      CHANGELOG, LICENSE, and node_modules from `npm install sharp@<pinned> --os --cpu [--libc]` (sharp's documented
//      cross-platform install: npm fetches the @img/* packages of that platform by name);
//   3. `vsce package --target <target>` in each staging folder;
//   4. a check of every VSIX: its platform's @img packages, none of another's, nothing that must not ship.
// Options: --target a,b (default all), --skip-build (reuse .package/dist). Prints one line per check and the closing
// `N passed, N failed`; exit 1 when a check failed.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TARGETS, vsixName, vsixProblems, zipEntries } from './vsix-targets.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const targets = (opt('--target') ?? Object.keys(TARGETS).join(',')).split(',').filter(Boolean);
for (const t of targets) if (!TARGETS[t]) throw new Error(`unknown target ${t}; known: ${Object.keys(TARGETS).join(', ')}`);
const stage = join(repo, '.package');
const outDir = join(repo, 'vsix');
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const sharpVersion = manifest.dependencies.sharp;

let passed = 0;
let failed = 0;
function report(ok, line) {
  if (ok) passed++;
  else failed++;
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${line}`);
}

function run(cmd, argv, cwd, env = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, argv, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (c) => (text += c));
    child.stderr.on('data', (c) => (text += c));
    child.on('close', (code) => resolvePromise({ code: code ?? 1, text }));
  });
}

const SHIP = ['media', 'schemas', 'samples', 'docs', 'README.md', 'LICENSE', 'CHANGELOG.md'];
/** The staging folder's own .vscodeignore: node_modules is collected by vsce from `npm ls` (sharp's tree only). */
const STAGE_IGNORE = ['package-lock.json', 'node_modules/.package-lock.json', 'samples/**/runs/**', '**/*.map', '.vscodeignore'].join('\n');

async function stageTarget(target) {
  const t = TARGETS[target];
  const dir = join(stage, target);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const { devDependencies: _d, scripts: _s, dependencies: _deps, ...rest } = manifest;
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ ...rest, dependencies: { sharp: sharpVersion } }, null, 2)}\n`);
  cpSync(join(stage, 'dist'), join(dir, 'dist'), { recursive: true, filter: (src) => !src.endsWith('.map') && !src.endsWith('meta.json') });
  for (const f of SHIP) {
    if (existsSync(join(repo, f)))
      cpSync(join(repo, f), join(dir, f), { recursive: true, filter: (src) => !/[\\/]runs([\\/]|$)/.test(src.slice(repo.length)) });
  }
  writeFileSync(join(dir, '.vscodeignore'), `${STAGE_IGNORE}\n`);
  const flags = [`--os=${t.os}`, `--cpu=${t.cpu}`, ...(t.libc ? [`--libc=${t.libc}`] : [])];
  const npm = await run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', ...flags], dir);
  if (npm.code !== 0) throw new Error(`npm install ${flags.join(' ')} failed: ${npm.text.trim().split('\n').slice(-4).join(' | ')}`);
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, vsixName(manifest.version, target));
  rmSync(file, { force: true });
  const vsce = join(repo, 'node_modules', '.bin', 'vsce');
  const r = await run(vsce, ['package', '--target', target, '--no-rewrite-relative-links', '--allow-missing-repository', '-o', file], dir);
  if (r.code !== 0) throw new Error(`vsce failed: ${r.text.trim().split('\n').slice(-6).join(' | ')}`);
  return file;
}

const t0 = Date.now();
if (!args.includes('--skip-build')) {
  rmSync(join(stage, 'dist'), { recursive: true, force: true });
  const b = await run(process.execPath, ['esbuild.mjs', '--production', '--outdir', join(stage, 'dist')], repo);
  report(b.code === 0, `production build (minified, no source maps)${b.code === 0 ? '' : `: ${b.text.trim().slice(-400)}`}`);
  if (b.code !== 0) finish();
}

// Two at a time: four took as long on two loaded cores (each target twice as long), so the work is not only waiting.
const WORKERS = 2;
const queue = [...targets];
async function worker() {
  for (let target = queue.shift(); target; target = queue.shift()) {
    const s0 = Date.now();
    try {
      const file = await stageTarget(target);
      const entries = await zipEntries(file);
      const problems = vsixProblems(entries, target);
      const img = [...new Set(entries.map((e) => /^extension\/node_modules\/(@img\/[^/]+)\//.exec(e.name)?.[1]).filter(Boolean))].sort();
      report(
        problems.length === 0,
        `${target}: ${(statSync(file).size / 1e6).toFixed(1)} MB, ${img.join(' ')}${problems.length ? ` — ${problems.join('; ')}` : ''} (${((Date.now() - s0) / 1000).toFixed(0)} s)`,
      );
    } catch (e) {
      report(false, `${target}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
await Promise.all(Array.from({ length: WORKERS }, worker));
console.log(`VSIXs in ${outDir} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
finish();

function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}
