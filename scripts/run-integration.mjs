#!/usr/bin/env node
// Runs the integration suite (out/test/integration/**/*.test.js, entry out/test/integration/index.js) INSIDE the real
// extension host of code-server: code-server starts with the smoke-test driver, Chromium opens the workbench with a
// payload naming extensionDevelopmentPath (this repo) and extensionTestsPath; the exit code of the suite arrives through
// window.codeAutomationExit. Needs `npm run build` and `npm run compile-tests` first.
//
// Env: TEAMFUSION_IT_TIMEOUT (seconds, default 600), TEAMFUSION_TEST_GREP (mocha grep), TEAMFUSION_IT_VERBOSE=1 (relay
// every browser console line), TEAMFUSION_IT_KEEP=1 (keep the workspace and code-server profile).
// Prints the closing `N passed, N failed`; exit 0 only when the suite ran and nothing failed.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { ensureCodeServer, startCodeServer, chromiumPath, CHROMIUM_ARGS } from './code-server/lib.mjs';
import { prepareTestWorkspace } from './code-server/workspace.mjs';
import { ensureLlama } from './llama/lib.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(repo, 'package.json'));
const timeoutS = Number(process.env.TEAMFUSION_IT_TIMEOUT ?? 600);
const verbose = process.env.TEAMFUSION_IT_VERBOSE === '1';
const keep = process.env.TEAMFUSION_IT_KEEP === '1';

function fail(message) {
  console.error(message);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

if (!existsSync(join(repo, 'out/test/integration/index.js'))) {
  fail('out/test/integration/index.js is missing: run `npm run compile-tests` first.');
}
if (!existsSync(join(repo, 'dist/extension.js'))) {
  console.error('warning: dist/extension.js is missing (run `npm run build`): the extension cannot activate.');
}

const t0 = Date.now();
await ensureCodeServer();
// The llama.cpp engine and its tiny model (test/integration/llama.test.ts): installed or reused here; when that fails,
// the reason goes to the suite, whose llama.cpp test fails with it.
const llamaEnv = {};
try {
  const llama = await ensureLlama();
  llamaEnv.TEAMFUSION_LLAMA_ENGINE = llama.engineDir;
  llamaEnv.TEAMFUSION_LLAMA_MODEL = llama.modelPath;
  const s = llama.seconds;
  console.log(
    `llama.cpp test engine: install ${s.engine.toFixed(1)} s, venv ${s.python.toFixed(1)} s, model ${s.model.toFixed(1)} s (0: reused)`,
  );
} catch (e) {
  llamaEnv.TEAMFUSION_LLAMA_ERROR = e instanceof Error ? e.message : String(e);
  console.error(`llama.cpp test engine not installed: ${llamaEnv.TEAMFUSION_LLAMA_ERROR}`);
}
const scratch = mkdtempSync(join(tmpdir(), 'teamfusion-it-'));
const workspace = join(scratch, 'workspace');
mkdirSync(workspace);
const resultsFile = join(scratch, 'results.json');
prepareTestWorkspace(repo, workspace);

const server = await startCodeServer({
  workspace,
  smokeDriver: true,
  keepScratch: keep,
  // Beside TeamFusion: a test extension that registers scripted language models (vscode.lm), for chatProvider "vscode".
  extensionFolders: [join(repo, 'test', 'lmProvider')],
  env: {
    TEAMFUSION_TEST_RESULTS: resultsFile,
    TEAMFUSION_IT_WORKSPACE: workspace,
    TEAMFUSION_REPO: repo,
    ...llamaEnv,
    ...(process.env.TEAMFUSION_TEST_GREP ? { TEAMFUSION_TEST_GREP: process.env.TEAMFUSION_TEST_GREP } : {}),
  },
});
let browser;
let exitCode = 1;
let timedOut = false;
try {
  const { chromium } = require('playwright-core');
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true, timeout: 60_000 });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  let resolveExit;
  const exited = new Promise((r) => {
    resolveExit = r;
  });
  // The smoke-test driver forwards the extension host's console here (type 'info' for console.log).
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = Array.isArray(args) ? args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ') : String(args ?? '');
    // The editor's own noise, not ours: marketplace lookups fail offline; the built-in git and authentication providers
    // reject unhandled when the machine has no git on the host's PATH or no signed-in account (shown with TEAMFUSION_IT_VERBOSE).
    const offlineNoise = /ENOTFOUND|open-vsx|marketplace|spawn git ENOENT|Timed out waiting for authentication provider/i.test(text);
    if (verbose || (!offlineNoise && (type === 'info' || type === 'log' || type === 'warn' || type === 'error'))) {
      console.log(`  ${type === 'info' || type === 'log' ? '' : `[${type}] `}${text}`);
    }
  });
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
  if (verbose) page.on('console', (msg) => console.log(`[browser ${msg.type()}] ${msg.text()}`));
  page.on('pageerror', (e) => {
    if (verbose) console.log(`[page error] ${e.message}`);
  });
  const authority = `127.0.0.1:${server.port}`;
  const payload = [
    ['extensionDevelopmentPath', `vscode-remote://${authority}${repo}`],
    ['extensionTestsPath', `vscode-remote://${authority}${join(repo, 'out/test/integration/index.js')}`],
    ['skipWelcome', 'true'],
  ];
  const url = `${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  let timer;
  const timeout = new Promise((r) => {
    timer = setTimeout(() => {
      timedOut = true;
      r(124);
    }, timeoutS * 1000);
  });
  exitCode = await Promise.race([exited, timeout]);
  clearTimeout(timer);
  if (timedOut || exitCode !== 0) {
    const shot = join(repo, '.test-output', 'integration-last.png');
    mkdirSync(dirname(shot), { recursive: true });
    await page.screenshot({ path: shot }).catch(() => undefined);
    console.log(`screenshot of the workbench: ${shot}`);
  }
} catch (e) {
  console.error(`integration runner: ${e instanceof Error ? e.message : String(e)}`);
  exitCode = 1;
} finally {
  await browser?.close().catch(() => undefined);
  await server.stop();
}

let passed = 0;
let failed = 0;
if (existsSync(resultsFile)) {
  const r = JSON.parse(readFileSync(resultsFile, 'utf8'));
  passed = r.passed;
  failed = r.failed;
  for (const t of r.tests.filter((x) => x.state === 'failed')) console.log(`failed: ${t.title}`);
} else {
  console.error(timedOut ? `the suite did not finish within ${timeoutS} s` : 'the suite ended without writing results (it did not run?)');
}
if (exitCode !== 0 && failed === 0) failed = 1; // the run itself broke
if (!keep) rmSync(scratch, { recursive: true, force: true });
else console.log(`kept: ${scratch} and ${server.scratch}`);
console.log(`integration suite in the real extension host (code-server): ${((Date.now() - t0) / 1000).toFixed(1)} s, exit ${exitCode}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(exitCode === 0 && failed === 0 ? 0 : 1);
