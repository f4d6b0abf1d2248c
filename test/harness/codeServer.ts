/**
 * Harness for tests that drive a real VS Code (code-server) in Debian Chromium with playwright-core.
 * The install/start plumbing lives in scripts/code-server/lib.mjs (plain JS, also used by the scripts before anything
 * is compiled); this file gives it types and adds the browser side.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export interface CodeServer {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  pid: number;
  /** Throw-away folder holding the profile, extensions and log of this server. */
  scratch: string;
  userDataDir: string;
  extensionsDir: string;
  /** code-server's own stdout/stderr. */
  logFile: string;
  /** Kills the server's process group and removes the scratch folder. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Folder the tests open (also the server's default). */
  workspace: string;
  /** Written to the user settings.json before start, over quiet defaults (no startup editor, no trust prompt…). */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server and its extension host. */
  env?: Record<string, string>;
  /** Adds `--vscode-option enable-smoke-test-driver` (needed for the extensionTestsPath payload). */
  smokeDriver?: boolean;
  /** VSIX files installed into this server's extensions dir before it starts. */
  extensions?: string[];
  /** Unpacked extension folders loaded as installed extensions (linked into the extensions dir), e.g. test/lmProvider. */
  extensionFolders?: string[];
  /**
   * Start with workspace trust ON (no `--disable-workspace-trust`). The fresh profile trusts no folder and the trust
   * settings skip the startup prompt, so the workspace opens untrusted, in Restricted Mode. Default false: trust is
   * disabled and every workspace counts as trusted.
   */
  workspaceTrust?: boolean;
  /** Keep the scratch folder after stop() (to read logs). */
  keepScratch?: boolean;
  /**
   * Seconds a window's extension host outlives its closed connection (code-server's default: 3 hours). A server that
   * serves one window after another sets it short, so the hosts of closed windows do not pile up.
   */
  reconnectionGraceTime?: number;
}

interface Lib {
  ensureCodeServer(): Promise<{ node24: string; codeServerBin: string; installed: boolean; seconds: number }>;
  startCodeServer(o: StartOptions & { quiet?: boolean }): Promise<CodeServer>;
  cacheRoot(): string;
  userSettings(o: Pick<StartOptions, 'settings' | 'workspaceTrust'>): Record<string, unknown>;
  chromiumPath(): string;
  CHROMIUM_ARGS: string[];
}

/** The repository root: the nearest folder above this file whose package.json is TeamFusion's. */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'teamfusion') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('Cannot find the TeamFusion repository root above ' + __dirname);
    dir = up;
  }
}

let libPromise: Promise<Lib> | undefined;
function lib(): Promise<Lib> {
  libPromise ??= import(pathToFileURL(resolve(repoRoot(), 'scripts/code-server/lib.mjs')).href) as Promise<Lib>;
  return libPromise;
}

/** Installs (or reuses from the cache) node 24 and code-server. */
export async function ensureCodeServer(): Promise<{ node24: string; codeServerBin: string }> {
  const r = await (await lib()).ensureCodeServer();
  return { node24: r.node24, codeServerBin: r.codeServerBin };
}

/** Starts code-server on a free port with a fresh profile; resolves once /healthz answers. */
export async function startCodeServer(o: StartOptions): Promise<CodeServer> {
  const l = await lib();
  await l.ensureCodeServer();
  return l.startCodeServer(o);
}

/** The user settings.json a server starts with (quiet defaults, the trust settings, then `o.settings`). */
export async function userSettings(o: Pick<StartOptions, 'settings' | 'workspaceTrust'>): Promise<Record<string, unknown>> {
  return (await lib()).userSettings(o);
}

/** Debian Chromium ($TEAMFUSION_CHROMIUM or /usr/bin/chromium), headless, with flags that keep it offline and quiet. */
export async function launchChromium(): Promise<Browser> {
  const l = await lib();
  return chromium.launch({ executablePath: l.chromiumPath(), args: l.CHROMIUM_ARGS, headless: true, timeout: 60_000 });
}

/** Opens the workbench on `folder` and waits until it is rendered. */
export async function openWorkbench(page: Page, server: Pick<CodeServer, 'url'>, folder: string): Promise<void> {
  await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`, { waitUntil: 'domcontentloaded', timeout: 60_000 });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
  // The status bar appears once the workbench has restored its parts; extensions start right after.
  await page.locator('.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
}

/** Opens the command palette (F1) filtered on `title` and returns the labels it lists. */
export async function commandPaletteEntries(page: Page, title: string): Promise<string[]> {
  const input = page.locator('.quick-input-widget input');
  if (!(await input.isVisible())) await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(`>${title}`);
  const rows = page.locator('.quick-input-list .monaco-list-row');
  // The list fills asynchronously; an empty answer after 5 s means nothing matches.
  await rows
    .first()
    .waitFor({ state: 'visible', timeout: 5_000 })
    .catch(() => undefined);
  await page.waitForTimeout(200);
  const labels = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent ?? ''));
  return labels;
}

/** Whether the keyboard focus is in a text editor (where Escape would clear the selection). */
async function focusInTextEditor(page: Page): Promise<boolean> {
  return page.evaluate(() => !!document.activeElement?.closest('.monaco-editor:not(.quick-input-widget *)')).catch(() => true);
}

/**
 * Runs a command the way a user does: F1, type the title (e.g. "TeamFusion: Validate Review"), pick it.
 * The palette lists only commands known when it opened, and right after the workbench renders the extensions may not be
 * registered yet, so it re-opens the palette until the command shows up. Fails after `timeoutMs` (default 120 s: a ceiling for a
 * loaded machine, not a clock).
 */
export async function runCommand(page: Page, title: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    try {
      // During start-up the workbench may close the palette again (focus moves to a restored editor): every step is
      // bounded and the whole attempt is retried.
      if (!(await input.isVisible())) await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout: 5_000 });
      await input.fill(`>${title}`, { timeout: 3_000 });
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
      await row.waitFor({ state: 'visible', timeout: 3_000 });
      await row.click({ timeout: 3_000 });
      return;
    } catch (e) {
      if (Date.now() > deadline) {
        const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
        throw new Error(`The command palette did not run "${title}" after ${attempt} attempts: ${why}`);
      }
      // Close what is in the way, to open the palette afresh: Escape to the quick input itself while it shows; else
      // Escape to the page (a modal editor such as Running Extensions, a menu or a hover keeps F1 from the palette) — but
      // never into a text editor, where it clears the selection and the command about to run would act on the cursor's
      // line alone (a palette slow to open under load did exactly that).
      if (await input.isVisible().catch(() => false)) await input.press('Escape', { timeout: 3_000 }).catch(() => undefined);
      else if (!(await focusInTextEditor(page))) await page.keyboard.press('Escape').catch(() => undefined);
      await page.waitForTimeout(700);
    }
  }
}
