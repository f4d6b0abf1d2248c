#!/usr/bin/env node
// Installs the linux-x64 VSIX (vsix/teamfusion-linux-x64-<version>.vsix from `npm run package`; made here with
// `scripts/package.mjs --target linux-x64` when missing) into a fresh code-server with `--install-extension`, and
// checks what got installed and that it works: the right files and nothing else from node_modules, the CLI inside the
// VSIX runs on the sample (proves sharp loads), the command palette lists "TeamFusion: Validate Review" and running it
// answers. It measures the shipped build where users meet it: activation time (VS Code's own measure, from Show
// Running Extensions) and Open Review → rendered panel for the sample and a 50 × 50 review, each against a floor in the
// same run — a minimal extension installed beside it (activate returns at once; one command opens a minimal webview
// panel) — in rounds after a warm-up, and prints the ratios (median and min; goal ≤ 1.5×), the absolute times and where an
// open's time went (the panel's marks and the extension host's steps), written to .test-output/timings.json for
// `npm run bench`. Timings and ratios are reported, never failed (a loaded machine's clock is not a product defect). Also, beside the code-server checks: `npm install -g` of the npm package (packed from the package stage's production build) gives a working `teamfusion`.
// Env: TEAMFUSION_VSIX=<path> tests that VSIX instead.
// Prints one line per check and the closing `N passed, N failed`.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { ensureCodeServer, startCodeServer, chromiumPath, CHROMIUM_ARGS } from './code-server/lib.mjs';
import { vsixName } from './vsix-targets.mjs';
import { reloadUntil } from './lib/reloadRetry.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(repo, 'package.json'));
const pkg = require('./package.json');
const scratch = mkdtempSync(join(tmpdir(), 'teamfusion-vsix-'));
/** The floor TeamFusion is measured against: the least an extension can be (see makeFloorExtension). */
const FLOOR = { displayName: 'Minimal Floor', commandTitle: 'Minimal Floor: Open Minimal Panel', panelTitle: 'Minimal panel' };
const RATIO_GOAL = 1.5;
/** Activation is read at start and after each reload of the window (a new extension host each time). */
const ACTIVATION_ROUNDS = 5;
/** How long a reload's new extension host may take to activate both extensions before the window is reloaded again. */
const RELOAD_WAIT_S = 90;
/** Reloads tried for one round before the check fails. */
const RELOAD_TRIES = 3;
let passed = 0;
let failed = 0;

/** Runs one check; `fn` returns a note, or `{ note, overGoal }` for a timing (reported, never failed: contract §6). */
async function check(name, fn) {
  const t0 = Date.now();
  try {
    const out = await fn();
    const { note, overGoal } = typeof out === 'object' && out !== null ? out : { note: out, overGoal: false };
    passed++;
    console.log(`  ${overGoal ? 'over the goal' : 'ok  '} ${name}${note ? ` — ${note}` : ''} (${Date.now() - t0} ms)`);
    return true;
  } catch (e) {
    failed++;
    console.log(`  FAIL ${name}: ${e instanceof Error ? e.message : String(e)}`);
    return false;
  }
}

/** The npm package check (it runs beside the code-server checks; see below). */
let npmChecked = Promise.resolve();
async function finish() {
  // The npm package check runs beside the others: its line is in before the count.
  await npmChecked;
  rmSync(scratch, { recursive: true, force: true });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

function walk(dir, base = dir, out = []) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, base, out);
    else
      out.push(
        full
          .slice(base.length + 1)
          .split('\\')
          .join('/'),
      );
  }
  return out;
}

let vsix = process.env.TEAMFUSION_VSIX;
const packaged = await check('the linux-x64 VSIX is there', () => {
  if (vsix) return `using ${vsix}`;
  vsix = join(repo, 'vsix', vsixName(pkg.version, 'linux-x64'));
  if (!existsSync(vsix)) {
    const r = spawnSync(process.execPath, ['scripts/package.mjs', '--target', 'linux-x64'], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (r.status !== 0) throw new Error(`scripts/package.mjs failed: ${(r.stdout + r.stderr).trim().split('\n').slice(-6).join(' | ')}`);
  }
  return `${vsix.slice(repo.length + 1)}, ${(statSync(vsix).size / 1e6).toFixed(1)} MB`;
});
if (!packaged) await finish();

/** Runs a command without blocking this script (the npm package check runs beside the code-server checks). */
function spawnAsync(cmd, argv, options) {
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 120_000);
    child.on('error', (e) => (stderr += String(e)));
    child.on('close', (status) => {
      clearTimeout(timer);
      resolvePromise({ status, stdout, stderr });
    });
  });
}

/**
 * The npm package as `npm pack` makes it, from a staging folder holding what the repository would give it (its
 * .npmignore applies) with dist/ the production build the package stage made (.package/dist; built here when missing):
 * `prepack` would rebuild that same build into the repository's own dist/, which the other stages run.
 */
async function stageNpmPackage(dir) {
  const skip = new Set(['.git', 'node_modules', 'dist', 'out', '.package', 'vsix', '.test-output', '.vscode-test', 'coverage']);
  const ignored = readFileSync(join(repo, '.npmignore'), 'utf8')
    .split('\n')
    .map((l) => /^([^#*!/][^*/]*)\/$/.exec(l.trim())?.[1])
    .filter(Boolean);
  for (const name of ignored) skip.add(name);
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(repo)) if (!skip.has(name)) cpSync(join(repo, name), join(dir, name), { recursive: true });
  const built = join(repo, '.package', 'dist');
  if (existsSync(join(built, 'cli.js'))) {
    cpSync(built, join(dir, 'dist'), { recursive: true });
    return "the package stage's production build";
  }
  const b = await spawnAsync(process.execPath, ['esbuild.mjs', '--production', '--outdir', join(dir, 'dist')], {
    cwd: repo,
    timeout: 300_000,
  });
  if (b.status !== 0) throw new Error(`production build failed: ${(b.stderr || b.stdout).trim().slice(-300)}`);
  return 'a production build made here';
}

// Beside the code-server checks below, until the timings: npm packs and installs while code-server starts.
npmChecked = check('`npm install -g` of the npm package gives a working `teamfusion` command', async () => {
  const packDir = join(scratch, 'npm');
  const from = await stageNpmPackage(join(scratch, 'npm-stage'));
  mkdirSync(packDir, { recursive: true });
  const pack = await spawnAsync('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir], {
    cwd: join(scratch, 'npm-stage'),
    timeout: 120_000,
  });
  if (pack.status !== 0) throw new Error(`npm pack failed: ${pack.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const tgz = join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz')) ?? '');
  const prefix = join(scratch, 'global');
  const install = await spawnAsync('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tgz], {
    cwd: scratch,
    timeout: 240_000,
  });
  if (install.status !== 0) throw new Error(`npm install -g failed: ${install.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const bin = join(prefix, process.platform === 'win32' ? 'teamfusion.cmd' : 'bin/teamfusion');
  const r = await spawnAsync(bin, ['validate', join(repo, 'samples/lumen-perfume')], { timeout: 60_000, cwd: scratch });
  if (r.status !== 0) throw new Error(`teamfusion validate: exit ${r.status}: ${(r.stderr || r.stdout).trim().slice(0, 300)}`);
  return `${r.stdout.trim().split('\n')[0]} (dist: ${from})`;
});

await ensureCodeServer();
const workspace = join(scratch, 'workspace');
const sample = join(repo, 'samples/lumen-perfume');
if (existsSync(sample))
  cpSync(sample, join(workspace, 'lumen-perfume'), {
    recursive: true,
    filter: (src) => !/[\\/]runs([\\/]|$)/.test(src.slice(sample.length)),
  });
else cpSync(join(repo, 'package.json'), join(workspace, 'package.json'));
let floorVsix;
// vsce packs the floor while sharp draws the large review's images.
const floorPackaged = check('the floor extension (activate returns at once, a minimal webview panel) is packaged', async () => {
  floorVsix = await makeFloorExtension(join(scratch, 'floor'));
  return floorVsix.split(/[\\/]/).pop();
});
await makeLargeReview(join(workspace, 'large-review'), 50, 50);
await floorPackaged;

let server;
try {
  server = await startCodeServer({ workspace, extensions: [vsix, ...(floorVsix ? [floorVsix] : [])] });
} catch (e) {
  await check('code-server --install-extension accepts the VSIX', () => {
    throw e;
  });
  await finish();
}
// A platform VSIX installs as publisher.name-version-target.
const installedName = readdirSync(server.extensionsDir).find((d) => d.startsWith(`${pkg.publisher}.${pkg.name}-${pkg.version}`));
const installedDir = join(server.extensionsDir, installedName ?? `${pkg.publisher}.${pkg.name}-${pkg.version}`);
let files = [];
await check('code-server --install-extension installs it', () => {
  if (!existsSync(installedDir)) throw new Error(`${installedDir} does not exist; got ${readdirSync(server.extensionsDir).join(', ')}`);
  files = walk(installedDir);
  return `${files.length} files`;
});

await check('the VSIX carries dist, media, schemas, samples, manifest, licence and sharp', () => {
  const required = [
    'package.json',
    'dist/extension.js',
    'dist/extension-core.js',
    'dist/shared-core.js',
    'dist/cli.js',
    'dist/openai.js',
    'dist/webview/panel.js',
    'media/teamfusion.svg',
    'media/icon.png',
    'CHANGELOG.md',
    'schemas/ranking.schema.json',
    'samples/lumen-perfume/brief.md',
    'node_modules/sharp/package.json',
    'node_modules/@img/colour/package.json',
    'node_modules/detect-libc/package.json',
    'node_modules/semver/package.json',
  ];
  const lower = new Set(files.map((f) => f.toLowerCase()));
  // vsce stores README.md and CHANGELOG.md in lower case.
  const missing = required.filter((f) => !files.includes(f) && !lower.has(f.toLowerCase()));
  if (!files.some((f) => /^node_modules\/@img\/sharp-linux-x64\/.*\.node$/.test(f)))
    missing.push('node_modules/@img/sharp-linux-x64/**/*.node');
  if (!files.some((f) => /^readme\.md$/i.test(f))) missing.push('README.md');
  if (!files.some((f) => /^licen[cs]e(\.\w+)?$/i.test(f))) missing.push('LICENSE');
  if (missing.length) throw new Error(`missing: ${missing.join(', ')}`);
});

await check('nothing else ships: no sources, tests, maps or other node_modules', () => {
  const allowed = /^node_modules\/(sharp|detect-libc|semver|@img\/[^/]+)\//;
  const extra = files.filter(
    (f) =>
      (f.startsWith('node_modules/') && !allowed.test(f)) ||
      /^(src|test|out|scripts|bench|webview|\.ci)\//.test(f) ||
      /\.map$/.test(f) ||
      /^(dist|src)\/.*\.ts$/.test(f),
  );
  if (extra.length) throw new Error(`${extra.length} unexpected files, e.g. ${extra.slice(0, 5).join(', ')}`);
});

await check('the CLI inside the VSIX validates the sample (sharp loads from the VSIX)', () => {
  if (!existsSync(sample)) throw new Error('samples/lumen-perfume is missing');
  const r = spawnSync(process.execPath, [join(installedDir, 'dist/cli.js'), 'validate', join(workspace, 'lumen-perfume')], {
    encoding: 'utf8',
    timeout: 60_000,
    cwd: scratch,
    env: { ...process.env, NODE_PATH: '' },
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
      // Two reviews in the workspace: VS Code asks which one, once the command's code has loaded (on a loaded machine that
      // can take a while): wait for that question or the answer, whichever shows first.
      const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'lumen-perfume' }).first();
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: /Review|review/ }).first();
      await pick.or(toast).first().waitFor({ state: 'visible', timeout: 120_000 });
      if (await pick.isVisible()) await pick.click();
      await toast.waitFor({ state: 'visible', timeout: 60_000 });
      return (await toast.innerText()).split('\n')[0].slice(0, 100);
    });
  }
  // The timings are taken on a machine doing nothing else of this script's.
  await npmChecked;
  await measureTimings(page);
  if (failed) await page.screenshot({ path: join(repo, '.test-output', 'vsix-last.png') }).catch(() => undefined);
} catch (e) {
  await check('the workbench opens with the VSIX installed', () => {
    throw e;
  });
} finally {
  await browser?.close().catch(() => undefined);
  await server.stop();
}
await finish();

/**
 * Activation (VS Code's own measure) and Open Review → rendered panel, on the installed VSIX, each beside the floor's
 * (FLOOR below, installed in the same code-server): the ratios are printed with the absolute times and written to
 * .test-output/timings.json. Reported, never failed.
 */
async function measureTimings(page) {
  const timings = {};
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const closePalette = () =>
    page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden', timeout: 10_000 })
      .catch(() => undefined);
  const ratio = (ours, floor) => (floor > 0 ? ours / floor : ours > 0 ? Infinity : 1);
  const ratioNote = (r) => `${Number.isFinite(r) ? r.toFixed(2) : '∞'}× the floor (goal ≤ ${RATIO_GOAL}×)`;
  /** How often the extension host has started activating `id` (its log: ExtensionService#_doActivateExtension). */
  const activationsOf = (id) => {
    const logs = join(server.userDataDir, 'logs');
    const line = new RegExp(`_doActivateExtension ${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},`, 'gi');
    return walk(logs)
      .filter((f) => /exthost[^/]*\.log$|exthost\/.*\.log$/i.test(f))
      .reduce((n, f) => n + (readFileSync(join(logs, f), 'utf8').match(line)?.length ?? 0), 0);
  };
  const ourId = `${pkg.publisher}.${pkg.name}`;
  const floorId = 'teamfusion-test.minimal-floor';
  /** Both activation times as Running Extensions shows them. */
  const readActivations = async () => {
    await palette(page, 'Developer: Show Running Extensions');
    // The list holds every running extension (the built-in ones too) and renders only the rows in view: a quick
    // activation sorts low, so scroll until the row shows, under a ceiling for a loaded machine.
    const list = page.locator('.runtime-extensions-editor .monaco-list').first();
    await list.waitFor({ state: 'visible', timeout: 120_000 });
    const activationOf = async (name) => {
      const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: name }).first();
      const box = await list.boundingBox();
      if (box) await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200));
      for (let scrolled = 0, deadline = Date.now() + 120_000; !(await row.isVisible().catch(() => false));) {
        if (Date.now() > deadline) throw new Error(`no row for ${name} in Running Extensions`);
        // Down to the end, then back to the top, and again.
        await page.mouse.wheel(0, scrolled++ % 40 < 20 ? 300 : -300);
        await page.waitForTimeout(100);
      }
      let text = '';
      // While it is still activating the row says so; the editor updates when it is done.
      for (const until = Date.now() + 120_000; Date.now() < until; await page.waitForTimeout(250)) {
        text = (await row.innerText()).replace(/\s+/g, ' ');
        if (/\d+\s*ms/.test(text)) break;
      }
      const m = /(\d+)\s*ms/.exec(text);
      if (!m) throw new Error(`no time in "${text}"`);
      return Number(m[1]);
    };
    const ours = await activationOf('TeamFusion');
    const floor = await activationOf(FLOOR.displayName);
    await palette(page, 'View: Close Editor');
    return { ours, floor };
  };
  /** The newest extension host log (remoteexthost.log) of the server: its name and text. */
  const newestHostLog = () => {
    const logs = join(server.userDataDir, 'logs');
    const name = walk(logs)
      .filter((f) => /remoteexthost\.log$/i.test(f))
      .sort()
      .at(-1);
    return name ? { name, text: readFileSync(join(logs, name), 'utf8') } : undefined;
  };
  /** Reloads the window until a new extension host has activated both extensions (its log says so); see reloadUntil. */
  const reloadUntilActivated = async () => {
    const before = [activationsOf(ourId), activationsOf(floorId)];
    return reloadUntil({
      reload: async () => {
        await page.reload({ waitUntil: 'domcontentloaded', timeout: 120_000 });
        await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 120_000 });
        await page.locator('.statusbar').waitFor({ state: 'visible', timeout: 120_000 });
      },
      activated: () => activationsOf(ourId) > before[0] && activationsOf(floorId) > before[1],
      hostLog: () => newestHostLog()?.text,
      sleep: (ms) => page.waitForTimeout(ms),
      waitMs: RELOAD_WAIT_S * 1000,
      tries: RELOAD_TRIES,
      detail: () => {
        const log = newestHostLog();
        const tail = log ? log.text.trim().split('\n').slice(-8).join(' | ') : '';
        return (
          `: activations of ${ourId} ${before[0]} → ${activationsOf(ourId)}, of ${floorId} ${before[1]} → ${activationsOf(floorId)}` +
          (log ? `; the last lines of ${log.name}: ${tail}` : '; no extension host log')
        );
      },
    });
  };
  await check(
    `activation time, as VS Code measures it (Show Running Extensions), beside the floor extension: at start and after ${ACTIVATION_ROUNDS - 1} reloads of the window`,
    async () => {
      await page.keyboard.press('Escape');
      await closePalette();
      const rounds = [await readActivations()];
      const repeated = [];
      for (let r = 1; r < ACTIVATION_ROUNDS; r++) {
        const missed = await reloadUntilActivated();
        if (missed.length) repeated.push(`reload ${r}: ${missed.length + 1} tries (${missed.join('; ')})`);
        rounds.push(await readActivations());
      }
      timings.activationRuns = rounds.map((r) => r.ours);
      timings.floorActivationRuns = rounds.map((r) => r.floor);
      timings.activationMs = median(timings.activationRuns);
      timings.floorActivationMs = median(timings.floorActivationRuns);
      const ratios = rounds.map((r) => ratio(r.ours, r.floor));
      timings.activationRatio = median(ratios);
      return {
        note:
          `TeamFusion median ${timings.activationMs} ms (${timings.activationRuns.join(', ')}), floor median ${timings.floorActivationMs} ms ` +
          `(${timings.floorActivationRuns.join(', ')}): ${ratioNote(timings.activationRatio)} (median of the rounds' ratios; VS Code counts whole ms); goal ≤ 50 ms` +
          (repeated.length ? `; reloaded again when a new extension host had not activated both: ${repeated.join(', ')}` : ''),
        overGoal: timings.activationMs > 50 || timings.activationRatio > RATIO_GOAL,
      };
    },
  );
  /**
   * Resolves, inside a webview's outer frame (VS Code's pre/index.html), with the wall-clock time at which its document
   * is rendered and shown: the active frame is visible (VS Code keeps a webview's document hidden until it has loaded,
   * its images too, or for 200 ms after writing it) and has drawn what shows — TeamFusion's panel its header and the tab
   * in view (body data-drawn; the other tabs follow, then data-ready), the floor all of it (data-ready) — with #tf-title
   * holding `title` (and #tf-w when `agreement`) — and painted: checked each frame, timed right after the frame that
   * first shows it. Watched in the page, so the time is the page's own, not a round trip of this script's. 0 if not
   * within 180 s.
   */
  const watchShown = ({ title, agreement }) =>
    new Promise((resolve) => {
      const until = Date.now() + 180_000;
      // Checked at the start of every frame (requestAnimationFrame): the first frame that finds it shown and drawn is the
      // one that paints it, and the time is taken in the task right after that paint — its layout included, for the floor
      // and TeamFusion alike.
      const frame = () => {
        const f = document.getElementById('active-frame');
        const d = f?.contentDocument;
        const ok =
          !!f &&
          f.style.visibility !== 'hidden' &&
          (d?.body?.dataset.drawn === 'true' || d?.body?.dataset.ready === 'true') &&
          (d.getElementById('tf-title')?.textContent ?? '').includes(title) &&
          (!agreement || !!d.getElementById('tf-w'));
        if (ok) {
          setTimeout(() => {
            // VS Code's own marks in this outer frame (its start, the content message, the inner frame loaded and written).
            const outer = { 'vscode:frame': Math.round(performance.timeOrigin) };
            for (const m of performance.getEntriesByType('mark'))
              outer[`vscode:${m.name.replace(/^.*\//, '')}`] ??= Math.round(performance.timeOrigin + m.startTime);
            resolve({
              at: Date.now(),
              marks: d.body.dataset.marks ?? null,
              origin: Math.round(f.contentWindow.performance.timeOrigin),
              outer,
            });
          }, 0);
        } else if (Date.now() > until) resolve(undefined);
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
  /** The first webview outer frame (new since `known`) whose document `watchShown` sees rendered: `{ frame, at, … }`. */
  const firstShown = async (want, known, t0) => {
    const watching = new Set();
    let winner;
    while (!winner) {
      for (const f of page.frames()) {
        if (known.has(f) || watching.has(f) || !/webview\/browser\/pre\/index\.html/.test(f.url())) continue;
        watching.add(f);
        f.evaluate(watchShown, want).then(
          (r) => {
            if (r && !winner) winner = { frame: f, ...r };
          },
          () => undefined,
        );
      }
      if (Date.now() - t0 > 180_000) throw new Error(`no rendered panel${want.agreement ? ' with its agreement' : ''} within 180 s`);
      if (!winner) await page.waitForTimeout(10);
    }
    return winner;
  };
  /** Milliseconds from `start()` until a new webview panel is rendered and shown (body data-ready, #tf-title holding `title`). */
  const untilRendered = async (title, start, o = {}) => {
    const known = new Set(page.frames().filter((f) => /webview\/browser\/pre\/index\.html/.test(f.url())));
    const t0 = Date.now();
    await start();
    const first = await firstShown({ title, agreement: false }, known, t0);
    const ms = first.at - t0;
    // Where the time went: the webview's own marks (body data-marks, wall-clock ms; the floor has only its origin).
    let marks = { origin: first.origin };
    try {
      marks = JSON.parse(first.marks ?? 'null') ?? marks;
    } catch {
      /* the origin only */
    }
    const steps = Object.fromEntries(Object.entries({ ...first.outer, ...marks }).map(([k, v]) => [k, v - t0]));
    if (!o.agreement) return { ms, steps };
    // A large review's agreement (Kendall's W and its permutation test) follows the rendered rankings.
    const withAgreement = await first.frame.evaluate(watchShown, { title, agreement: true });
    if (!withAgreement) throw new Error('no agreement in the panel within 180 s');
    // Marks set after the first paint (painted, loaded, analysis) are there by now.
    try {
      for (const [k, v] of Object.entries(JSON.parse(withAgreement.marks ?? '{}'))) steps[k] ??= v - t0;
    } catch {
      /* the first marks only */
    }
    return { ms, steps, agreementMs: withAgreement.at - t0 };
  };
  /**
   * The extension host's side of an open, from the line the panel logs once its page says ready ("Review panel <name>
   * opened at <epoch ms>: created +0 ms, loaded +40 ms, …" in the TeamFusion output's log file): host:<step> in ms after t0.
   */
  const hostSteps = async (name, t0) => {
    const line = new RegExp(`Review panel ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} opened at (\\d+): (.*)$`);
    for (const until = Date.now() + 10_000; Date.now() < until; await page.waitForTimeout(200)) {
      const logs = walk(join(server.userDataDir, 'logs')).filter((f) => /TeamFusion\.log$/.test(f));
      const lines = logs.flatMap((f) => readFileSync(join(server.userDataDir, 'logs', f), 'utf8').split('\n'));
      const m = lines
        .map((l) => line.exec(l))
        .filter(Boolean)
        .pop();
      if (!m || Number(m[1]) < t0 - 50) continue;
      const at = Number(m[1]);
      return Object.fromEntries([...m[2].matchAll(/(\w+) \+(\d+) ms/g)].map(([, k, v]) => [`host:${k}`, at + Number(v) - t0]));
    }
    return {};
  };
  /** "webview document +120, script +180, …": each mark in ms after the command's Enter. */
  const stepsNote = (steps) =>
    Object.entries(steps)
      .sort((a, b) => a[1] - b[1])
      .map(([k, v]) => `${k} +${v}`)
      .join(', ');
  /** The floor: its command (from the palette) → its minimal panel rendered. */
  const openFloor = async () => {
    await closePalette();
    let out;
    await palette(page, FLOOR.commandTitle, async () => {
      out = await untilRendered(FLOOR.panelTitle, () => page.keyboard.press('Enter'));
    });
    await palette(page, 'View: Close Editor');
    return out;
  };
  /** Open Review of `name` → its panel rendered and shown (and, for the record, its agreement shown). */
  const openReview = async (name, title) => {
    await closePalette();
    await palette(page, 'TeamFusion: Open Review');
    // VS Code asks which review (the workspace holds several): wait for that picker, however long activation takes.
    const input = page.locator('.quick-input-widget input[placeholder="Which review?"]');
    await input.waitFor({ state: 'visible', timeout: 180_000 });
    await input.fill(name);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ state: 'visible', timeout: 10_000 });
    let t0 = 0;
    const out = await untilRendered(
      title,
      () => {
        t0 = Date.now();
        return page.keyboard.press('Enter');
      },
      { agreement: true },
    );
    Object.assign(out.steps, await hostSteps(name, t0));
    await palette(page, 'View: Close Editor');
    return out;
  };
  // Each is opened once unmeasured (a webview, a panel's code and files warm up once), then measured ROUNDS times, each
  // round the floor then both reviews, so a moment of load weighs on all three alike; per review, the ratio of each round
  // to that round's floor, reported as min and median (the median judged against the goal).
  const ROUNDS = 5;
  const reviews = [
    ['openSampleMs', 'lumen-perfume', 'Lumen', 1000],
    ['open50x50Ms', 'large-review', 'Large review', 2000],
  ];
  const runs = { floor: [], openSampleMs: [], open50x50Ms: [] };
  await check(`warming up: the floor's panel and each review's opened once, unmeasured`, async () => {
    await openFloor();
    for (const [, name, title] of reviews) await openReview(name, title);
  });
  await check(
    `${ROUNDS} rounds of the floor's minimal panel and Open Review of the sample and a 50 × 50 review, command → rendered and shown`,
    async () => {
      for (let round = 0; round < ROUNDS; round++) {
        runs.floor.push(await openFloor());
        for (const [key, name, title] of reviews) runs[key].push(await openReview(name, title));
      }
      return `floor ${runs.floor.map((r) => r.ms).join(', ')} ms`;
    },
  );
  const floorMs = runs.floor.map((r) => r.ms);
  timings.floorOpenMs = median(floorMs);
  timings.floorOpenRuns = floorMs;
  timings.floorSteps = runs.floor[runs.floor.length - 1]?.steps;
  timings.floorRoundSteps = runs.floor.map((r) => r.steps);
  for (const [key, name, , goal] of reviews) {
    await check(`Open Review → rendered panel: ${name}, beside the floor's minimal panel`, () => {
      const measured = runs[key];
      if (measured.length === 0) throw new Error('not measured');
      const ms = measured.map((r) => r.ms);
      const ratios = measured.map((r, i) => ratio(r.ms, runs.floor[i].ms));
      const typical = measured.find((r) => r.ms === median(ms)) ?? measured[measured.length - 1];
      timings[key] = median(ms);
      timings[key.replace(/Ms$/, 'Runs')] = ms;
      timings[key.replace(/Ms$/, 'Steps')] = typical.steps;
      timings[key.replace(/Ms$/, 'RoundSteps')] = measured.map((r) => r.steps);
      timings[key.replace(/Ms$/, 'AgreementMs')] = median(measured.map((r) => r.agreementMs));
      timings[key.replace(/Ms$/, 'Ratio')] = median(ratios);
      timings[key.replace(/Ms$/, 'RatioMin')] = Math.min(...ratios);
      const r = median(ratios);
      return {
        note:
          `median ${timings[key]} ms (${ms.join(', ')}), floor median ${timings.floorOpenMs} ms (${floorMs.join(', ')}): ` +
          `${ratioNote(r)}, min ${Math.min(...ratios).toFixed(2)}×; goal ≤ ${goal} ms; agreement shown at ${timings[key.replace(/Ms$/, 'AgreementMs')]} ms; ` +
          `marks of the median open: ${stepsNote(typical.steps)}`,
        overGoal: timings[key] > goal || r > RATIO_GOAL,
      };
    });
  }
  mkdirSync(join(repo, '.test-output'), { recursive: true });
  writeFileSync(
    join(repo, '.test-output', 'timings.json'),
    JSON.stringify({ ...timings, vsix: vsix.split(/[\\/]/).pop(), measuredAt: new Date().toISOString() }, null, 2),
  );
}

/**
 * Packages the floor extension into `dir`/floor.vsix: activated by the same events as TeamFusion, its activate returns at
 * once after registering one command, which opens a webview panel with one inline script that marks it rendered the way
 * TeamFusion's panel does (body data-ready, #tf-title).
 */
async function makeFloorExtension(dir) {
  mkdirSync(dir, { recursive: true });
  const manifest = {
    name: 'minimal-floor',
    displayName: FLOOR.displayName,
    publisher: 'teamfusion-test',
    version: '0.0.1',
    license: 'MIT',
    description: "The floor TeamFusion's timings are measured against.",
    engines: { vscode: pkg.engines.vscode },
    main: './extension.js',
    activationEvents: pkg.activationEvents.filter((e) => e.startsWith('workspaceContains:')),
    contributes: { commands: [{ command: 'minimalFloor.open', title: 'Open Minimal Panel', category: 'Minimal Floor' }] },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'README.md'), '# Minimal floor\n\nA test fixture: the least an extension can be.\n');
  writeFileSync(
    join(dir, 'extension.js'),
    `const vscode = require('vscode');
exports.activate = (context) => {
  context.subscriptions.push(vscode.commands.registerCommand('minimalFloor.open', () => {
    const panel = vscode.window.createWebviewPanel('minimalFloor.panel', ${JSON.stringify(FLOOR.panelTitle)}, vscode.ViewColumn.Active, { enableScripts: true });
    const nonce = String(Date.now());
    panel.webview.html = '<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src \\'none\\'; script-src \\'nonce-' + nonce + '\\'"></head>' +
      '<body><h1 id="tf-title"></h1><script nonce="' + nonce + '">document.getElementById("tf-title").textContent = ${JSON.stringify(FLOOR.panelTitle)}; document.body.dataset.ready = "true";</script></body></html>';
  }));
};
exports.deactivate = () => undefined;
`,
  );
  const out = join(dir, 'floor.vsix');
  const r = await spawnAsync(
    join(repo, 'node_modules', '.bin', 'vsce'),
    ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', out],
    { cwd: dir, timeout: 120_000 },
  );
  if (r.status !== 0) throw new Error(`vsce failed: ${(r.stdout + r.stderr).trim().split('\n').slice(-4).join(' | ')}`);
  return out;
}

/**
 * Runs a palette command by its title (retried: right after a notification or an editor change F1 can go astray). `run`,
 * when given, runs it instead of the click once its row shows (a timed Enter).
 */
async function palette(page, title, run) {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    try {
      if (!(await input.isVisible())) {
        await page
          .locator('.monaco-workbench')
          .click({ position: { x: 5, y: 300 } })
          .catch(() => undefined);
        await page.keyboard.press('F1');
      }
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      await input.fill(`>${title}`);
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
      await row.waitFor({ state: 'visible', timeout: 5_000 });
      if (run) {
        // A failure of `run` itself is the answer, not a palette that went astray: never retried.
        await run().catch((e) => {
          throw Object.assign(e instanceof Error ? e : new Error(String(e)), { noRetry: true });
        });
        return;
      }
      await row.click();
      return;
    } catch (e) {
      if (attempt >= 5 || e?.noRetry) throw e;
      await page.keyboard.press('Escape').catch(() => undefined);
      await page.waitForTimeout(700);
    }
  }
}

/** A review with n options and m designers (seeded shuffles), images made with sharp. */
async function makeLargeReview(dir, n, m) {
  const sharp = require('sharp');
  const { stringify } = require('yaml');
  mkdirSync(join(dir, 'options'), { recursive: true });
  mkdirSync(join(dir, 'rankings'), { recursive: true });
  writeFileSync(join(dir, 'brief.md'), `# Large review\n\n${n} options, ${m} designers.\n`);
  writeFileSync(join(dir, 'review.yaml'), 'title: Large review\n');
  for (let i = 1; i <= n; i++) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="hsl(${Math.round((i * 360) / n)},60%,50%)"/></svg>`;
    await sharp(Buffer.from(svg))
      .png()
      .toFile(join(dir, 'options', `${i}.png`));
  }
  let seed = 11;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let d = 1; d <= m; d++) {
    const ids = Array.from({ length: n }, (_, i) => String(i + 1));
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [ids[i], ids[j]] = [ids[j], ids[i]];
    }
    writeFileSync(
      join(dir, 'rankings', `d${d}.yaml`),
      stringify({
        designer: `Designer ${d}`,
        ranking: ids.map((option, k) => ({ option, rank: k + 1, justification: `Reason ${k + 1}.` })),
      }),
    );
  }
}
