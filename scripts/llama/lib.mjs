// A real inference engine for the tests: llama.cpp on the CPU through node-llama-cpp, and a tiny stand-in model made
// here (no weights are downloaded). Plain JS so it runs on the system node before anything is compiled.
//
// Everything lives in the cache folder the code-server install uses ($TEAMFUSION_CACHE, else ~/.cache/teamfusion-ci),
// under llama/, reused when a stamp says the step completed:
//   llama/engine/   node-llama-cpp@LLAMA_VERSION in a folder of its own (never a dependency of the extension)
//   llama/py/       a Python venv with gguf@GGUF_VERSION (+ numpy), from the pip index the machine is configured with
//   llama/models/   tiny-<hash>.gguf, written by scripts/llama/make-model.py; <hash> is that script's content, so a
//                   changed script makes a new model and an unchanged one is made once
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot } from '../code-server/lib.mjs';
import { withInstallLock } from '../lib/installLock.mjs';

export const LLAMA_VERSION = '3.21.1';
export const GGUF_VERSION = '0.19.0';
const MAKE_MODEL = join(dirname(fileURLToPath(import.meta.url)), 'make-model.py');

export function llamaPaths() {
  const root = join(cacheRoot(), 'llama');
  return {
    root,
    engineDir: join(root, 'engine'),
    enginePkg: join(root, 'engine', 'node_modules', 'node-llama-cpp', 'package.json'),
    engineStamp: join(root, 'engine', `.installed-${LLAMA_VERSION}`),
    pyDir: join(root, 'py'),
    python: join(root, 'py', 'bin', 'python'),
    pyStamp: join(root, 'py', `.installed-gguf-${GGUF_VERSION}`),
    modelsDir: join(root, 'models'),
  };
}

function log(msg) {
  process.stderr.write(`[llama] ${msg}\n`);
}

/** Runs a command, its output to a log file; throws a sentence with the log's tail on failure. Returns seconds. */
function runLogged(cmd, args, opts, logFile) {
  const t0 = Date.now();
  const res = spawnSync(cmd, args, { ...opts, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 20 * 60_000 });
  const text = `$ ${cmd} ${args.join(' ')}\n${res.stdout ?? ''}\n${res.stderr ?? ''}\nexit ${res.status} signal ${res.signal}${res.error ? ` (${res.error.message})` : ''}\n`;
  writeFileSync(logFile, text, { flag: 'a' });
  if (res.status !== 0) {
    const tail = text.split('\n').slice(-25).join('\n');
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${res.status}). Log: ${logFile}\n${tail}`);
  }
  return (Date.now() - t0) / 1000;
}

function installedEngineVersion(p) {
  try {
    return JSON.parse(readFileSync(p.enginePkg, 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** node-llama-cpp@LLAMA_VERSION in llama/engine (its own package.json; `npm i -E`). Returns seconds spent (0: reused). */
export function ensureEngine() {
  const p = llamaPaths();
  if (existsSync(p.engineStamp) && installedEngineVersion(p) === LLAMA_VERSION) return 0;
  log(`installing node-llama-cpp@${LLAMA_VERSION} into ${p.engineDir} (about 700 MB: npm brings every prebuilt binary)`);
  mkdirSync(p.engineDir, { recursive: true });
  if (!existsSync(join(p.engineDir, 'package.json'))) writeFileSync(join(p.engineDir, 'package.json'), '{ "private": true }\n');
  const seconds = runLogged(
    'npm',
    ['i', '-E', `node-llama-cpp@${LLAMA_VERSION}`, '--no-audit', '--no-fund'],
    { cwd: p.engineDir, env: { ...process.env, npm_config_update_notifier: 'false' } },
    join(p.engineDir, 'install.log'),
  );
  const v = installedEngineVersion(p);
  if (v !== LLAMA_VERSION) throw new Error(`node-llama-cpp did not install: ${p.enginePkg} says ${v ?? 'nothing'}`);
  writeFileSync(p.engineStamp, `${new Date().toISOString()} ${seconds.toFixed(0)}s\n`);
  return seconds;
}

/** A venv in llama/py with gguf@GGUF_VERSION (pip reads the machine's own configuration: index, mirror, constraints). */
export function ensurePython() {
  const p = llamaPaths();
  if (existsSync(p.pyStamp) && existsSync(p.python)) return 0;
  log(`making a Python venv with gguf==${GGUF_VERSION} in ${p.pyDir}`);
  rmSync(p.pyDir, { recursive: true, force: true });
  mkdirSync(p.root, { recursive: true });
  const logFile = join(p.root, 'python-install.log');
  let seconds = runLogged('python3', ['-m', 'venv', p.pyDir], {}, logFile);
  // An index that cannot be reached is tried once, not five times.
  seconds += runLogged(
    p.python,
    ['-m', 'pip', 'install', '--retries', '0', '--timeout', '20', '--disable-pip-version-check', `gguf==${GGUF_VERSION}`, 'numpy'],
    {},
    logFile,
  );
  writeFileSync(p.pyStamp, `${new Date().toISOString()} ${seconds.toFixed(0)}s\n`);
  return seconds;
}

/** The tiny model for the current make-model.py; made once per content of that script. */
export function ensureModel() {
  const p = llamaPaths();
  const hash = createHash('sha256').update(readFileSync(MAKE_MODEL)).update(GGUF_VERSION).digest('hex').slice(0, 16);
  const modelPath = join(p.modelsDir, `tiny-${hash}.gguf`);
  if (existsSync(modelPath)) return { modelPath, seconds: 0 };
  mkdirSync(p.modelsDir, { recursive: true });
  const partial = `${modelPath}.${process.pid}.partial`;
  const seconds = runLogged(p.python, [MAKE_MODEL, partial], {}, join(p.modelsDir, 'make-model.log'));
  renameSync(partial, modelPath);
  return { modelPath, seconds };
}

/**
 * The engine, the Python tools and the tiny model, installed or reused. Returns { engineDir, modelPath, seconds:
 * { engine, python, model } } (0 where reused). Throws a sentence naming the step and its log when a step fails.
 */
export async function ensureLlama() {
  const lock = { lock: join(llamaPaths().root, '.install.lock'), minutes: 20, what: 'the engine', holder: 'install', log };
  return withInstallLock(lock, () => {
    const p = llamaPaths();
    const engine = ensureEngine();
    const python = ensurePython();
    const { modelPath, seconds: model } = ensureModel();
    return { engineDir: p.engineDir, modelPath, seconds: { engine, python, model } };
  });
}
