#!/usr/bin/env node
// Packages the extension as a VSIX (vsce, with sharp's runtime from node_modules), installs it into a fresh code-server
// with `--install-extension`, and checks what got installed and that it works: the right files and nothing else from
// node_modules, the CLI inside the VSIX runs on the sample (proves sharp loads), the command palette lists
// "TeamFusion: Validate Review" and running it answers. Needs `npm run build` first.
// Env: TEAMFUSION_VSIX=<path> tests that VSIX instead of packaging one.
// Prints one line per check and the closing `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { ensureCodeServer, startCodeServer, chromiumPath, CHROMIUM_ARGS } from './code-server/lib.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(repo, 'package.json'));
const pkg = require('./package.json');
const scratch = mkdtempSync(join(tmpdir(), 'teamfusion-vsix-'));
let passed = 0;
let failed = 0;

async function check(name, fn) {
  const t0 = Date.now();
  try {
    const note = await fn();
    passed++;
    console.log(`  ok   ${name}${note ? ` — ${note}` : ''} (${Date.now() - t0} ms)`);
    return true;
  } catch (e) {
    failed++;
    console.log(`  FAIL ${name}: ${e instanceof Error ? e.message : String(e)}`);
    return false;
  }
}

function finish() {
  rmSync(scratch, { recursive: true, force: true });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

function walk(dir, base = dir, out = []) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, base, out);
    else out.push(full.slice(base.length + 1).split('\\').join('/'));
  }
  return out;
}

// The same vsce flags as `npm run package` (package.json): node_modules are collected (sharp ships) and filtered by
// .vscodeignore; README's relative image links stay relative (no repository URL to rewrite them to).
let vsix = process.env.TEAMFUSION_VSIX;
const packaged = await check('vsce packages the extension', () => {
  if (vsix) return `using ${vsix}`;
  if (!existsSync(join(repo, 'dist/extension.js'))) throw new Error('dist/extension.js is missing: run `npm run build` first');
  vsix = join(scratch, 'teamfusion.vsix');
  const vsce = join(repo, 'node_modules/.bin/vsce');
  const r = spawnSync(vsce, ['package', '--no-rewrite-relative-links', '--allow-missing-repository', '-o', vsix], {
    cwd: repo, encoding: 'utf8', timeout: 180_000, input: 'y\n',
  });
  if (r.status !== 0) throw new Error(`vsce failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-8).join(' | ')}`);
  return `${(statSync(vsix).size / 1e6).toFixed(1)} MB`;
});
if (!packaged) finish();

await ensureCodeServer();
const workspace = join(scratch, 'workspace');
const sample = join(repo, 'samples/lumen-perfume');
if (existsSync(sample)) cpSync(sample, join(workspace, 'lumen-perfume'), { recursive: true });
else cpSync(join(repo, 'package.json'), join(workspace, 'package.json'));

let server;
try {
  server = await startCodeServer({ workspace, extensions: [vsix] });
} catch (e) {
  await check('code-server --install-extension accepts the VSIX', () => { throw e; });
  finish();
}
const installedDir = join(server.extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
let files = [];
await check('code-server --install-extension installs it', () => {
  if (!existsSync(installedDir)) throw new Error(`${installedDir} does not exist; got ${readdirSync(server.extensionsDir).join(', ')}`);
  files = walk(installedDir);
  return `${files.length} files`;
});

await check('the VSIX carries dist, media, schemas, samples, manifest, licence and sharp', () => {
  const required = ['package.json', 'dist/extension.js', 'dist/cli.js', 'dist/webview/panel.js', 'media/teamfusion.svg',
    'schemas/ranking.schema.json', 'samples/lumen-perfume/brief.md', 'node_modules/sharp/package.json',
    'node_modules/@img/colour/package.json', 'node_modules/detect-libc/package.json', 'node_modules/semver/package.json'];
  const missing = required.filter((f) => !files.includes(f));
  if (!files.some((f) => /^node_modules\/@img\/sharp-linux-x64\/.*\.node$/.test(f))) missing.push('node_modules/@img/sharp-linux-x64/**/*.node');
  if (!files.some((f) => /^readme\.md$/i.test(f))) missing.push('README.md');
  if (!files.some((f) => /^licen[cs]e(\.\w+)?$/i.test(f))) missing.push('LICENSE');
  if (missing.length) throw new Error(`missing: ${missing.join(', ')}`);
});

await check('nothing else ships: no sources, tests, maps or other node_modules', () => {
  const allowed = /^node_modules\/(sharp|detect-libc|semver|@img\/[^/]+)\//;
  const extra = files.filter((f) =>
    (f.startsWith('node_modules/') && !allowed.test(f)) ||
    /^(src|test|out|scripts|bench|webview|\.ci)\//.test(f) || /\.map$/.test(f) || /^(dist|src)\/.*\.ts$/.test(f));
  if (extra.length) throw new Error(`${extra.length} unexpected files, e.g. ${extra.slice(0, 5).join(', ')}`);
});

await check('the CLI inside the VSIX validates the sample (sharp loads from the VSIX)', () => {
  if (!existsSync(sample)) throw new Error('samples/lumen-perfume is missing');
  const r = spawnSync(process.execPath, [join(installedDir, 'dist/cli.js'), 'validate', join(workspace, 'lumen-perfume')], {
    encoding: 'utf8', timeout: 60_000, cwd: scratch, env: { ...process.env, NODE_PATH: '' },
  });
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(0, 5).join(' | ')}`);
});

let browser;
try {
  const { chromium } = require('playwright-core');
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true, timeout: 60_000 });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
  const title = 'TeamFusion: Validate Review';
  const listed = await check(`the command palette lists "${title}"`, async () => {
    // The palette lists the commands known when it opens; right after start the extension may not be registered yet.
    const input = page.locator('.quick-input-widget input');
    const deadline = Date.now() + 40_000;
    for (;;) {
      if (!(await input.isVisible())) await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill(`>${title}`);
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
      try {
        await row.waitFor({ state: 'visible', timeout: 3_000 });
        break;
      } catch (e) {
        if (Date.now() > deadline) throw e;
        await page.keyboard.press('Escape');
        await page.waitForTimeout(700);
      }
    }
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    await row.click();
  });
  if (listed) {
    await check('running it from the palette answers with a notification about the review', async () => {
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: /Review|review/ }).first();
      await toast.waitFor({ state: 'visible', timeout: 30_000 });
      return (await toast.innerText()).split('\n')[0].slice(0, 100);
    });
  }
  if (failed) await page.screenshot({ path: join(repo, '.test-output', 'vsix-last.png') }).catch(() => undefined);
} catch (e) {
  await check('the workbench opens with the VSIX installed', () => { throw e; });
} finally {
  await browser?.close().catch(() => undefined);
  await server.stop();
}
finish();
