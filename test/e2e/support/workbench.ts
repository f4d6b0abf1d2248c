/**
 * A real VS Code (code-server) in Chromium for the panel's end-to-end tests, built on the shared harness
 * (test/harness/codeServer.ts). The extension is loaded from a folder as an extension under development (the smoke-test
 * driver's payload), so no VSIX is needed. Collects console errors of every frame and saves screenshots.
 */
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Browser, BrowserContext, ConsoleMessage, Frame, Locator, Page } from 'playwright-core';
import { launchChromium, repoRoot, runCommand, startCodeServer, userSettings, type CodeServer } from '../../harness/codeServer';
import { timed } from './timing';

export const DARK = 'Dark Modern';
export const LIGHT = 'Light Modern';

export interface Workbench {
  server: CodeServer;
  browser: Browser;
  page: Page;
  /** Console errors (and page errors) seen in any frame, with the frame's URL. */
  consoleErrors: string[];
  /** The server's extension host log folders from before this workbench (a shared server's earlier windows). */
  earlierLogs?: ReadonlySet<string>;
  /**
   * Rewrites the user settings file. VS Code reads it when the window opens; a change written while the window runs was
   * seen not to be applied once the extension host had started (so the tests switch the theme through its picker).
   */
  setSettings(patch: Record<string, unknown>): Promise<void>;
  /** Opens (or reloads) the workbench on the workspace, with the extension loaded. */
  open(): Promise<void>;
  stop(): Promise<void>;
}

export interface WorkbenchOptions {
  workspace: string;
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  /** Folder holding the built extension (package.json + dist/ + media/); default the repository root. */
  extensionPath?: string;
  /** Workspace trust on, the workspace untrusted (Restricted Mode); see the harness's StartOptions. Default off. */
  workspaceTrust?: boolean;
  /** More extension folders loaded beside TeamFusion as installed extensions (e.g. test/lmProvider). */
  extraExtensions?: string[];
}

/**
 * Servers shared by the suites of one mocha process: one per kind (the extension host's environment, workspace trust,
 * the extra extensions), started the first time a suite asks for that kind and stopped when mocha is done. A server
 * serves one window at a time; each suite gets a fresh browser context (its own storage, so nothing of an earlier suite's
 * window state, secrets or globalState carries over) and its user settings are rewritten before its window opens.
 * TEAMFUSION_E2E_SHARED=0 gives every workbench its own server and Chromium, as before.
 */
interface PooledServer {
  server: CodeServer;
  busy: boolean;
}
const servers = new Map<string, Promise<PooledServer>>();
let sharedContext: Promise<BrowserContext> | undefined;
/** How long the extension host of a closed window lives on (code-server's default is 3 hours). */
const GRACE_SECONDS = 5;

function sharing(): boolean {
  return process.env.TEAMFUSION_E2E_SHARED !== '0';
}

/** What makes two servers different: everything a server is started with apart from its user settings. */
function serverKind(o: WorkbenchOptions): string {
  const env = Object.entries(o.env ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify({ env, trust: !!o.workspaceTrust, extensions: o.extraExtensions ?? [] });
}

function startServer(o: WorkbenchOptions): Promise<CodeServer> {
  return timed('start code-server', () =>
    startCodeServer({
      workspace: o.workspace,
      smokeDriver: true,
      settings: o.settings ?? {},
      reconnectionGraceTime: GRACE_SECONDS,
      ...(o.env ? { env: o.env } : {}),
      ...(o.workspaceTrust ? { workspaceTrust: true } : {}),
      ...(o.extraExtensions ? { extensionFolders: o.extraExtensions } : {}),
    }),
  );
}

/** A server of the kind `o` asks for, and how to give it back: the shared one if it is free, else one of its own. */
async function leaseServer(o: WorkbenchOptions): Promise<{ server: CodeServer; release(): Promise<void> }> {
  if (sharing()) {
    const kind = serverKind(o);
    let entry = servers.get(kind);
    if (!entry) {
      entry = startServer(o).then((server) => ({ server, busy: false }));
      servers.set(kind, entry);
      entry.catch(() => servers.delete(kind));
    }
    const pooled = await entry;
    if (!pooled.busy) {
      pooled.busy = true;
      return {
        server: pooled.server,
        release: async () => {
          pooled.busy = false;
        },
      };
    }
  }
  const server = await startServer(o);
  return { server, release: () => server.stop() };
}

/**
 * A page for a new window. Shared: one Chromium and one browser context for every suite, so the workbench's scripts come
 * from the context's warm cache (a fresh context loads and compiles them again: about 10 s more on a loaded machine);
 * the origin's storage is cleared first, so the window starts from the state a fresh profile has. Else its own Chromium.
 */
async function pageFor(origin: string): Promise<{ page: Page; release(): Promise<void> }> {
  if (!sharing()) {
    const browser = await timed('launch Chromium', () => launchChromium());
    const context = await browser.newContext(VIEWPORT);
    return { page: await context.newPage(), release: () => browser.close().catch(() => undefined) };
  }
  sharedContext ??= timed('launch Chromium', async () => (await launchChromium()).newContext(VIEWPORT));
  sharedContext.catch(() => (sharedContext = undefined));
  const context = await sharedContext;
  const page = await context.newPage();
  // What an earlier suite's window kept for this server (layout, profile and extension state, secrets): gone. The HTTP
  // cache, the service worker and its caches stay (nothing of a suite's own lives there).
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'cookies,file_systems,indexeddb,local_storage,websql' });
  await cdp.detach();
  return { page, release: () => page.close().catch(() => undefined) };
}

const VIEWPORT = { viewport: { width: 1440, height: 960 }, deviceScaleFactor: 1 };

/** Stops the shared servers and Chromium (after the last suite). */
export async function stopSharedWorkbenches(): Promise<void> {
  const all = [...servers.values()];
  servers.clear();
  const context = sharedContext;
  sharedContext = undefined;
  await context?.then((c) => c.browser()?.close()).catch(() => undefined);
  for (const entry of all) await entry.then((p) => p.server.stop()).catch(() => undefined);
}

// Root-level hook (outside any describe): runs once, after every suite of the mocha run.
if (typeof after === 'function') after(() => stopSharedWorkbenches());

/** The extension host log folders of a server (`<session>/<exthostN>`), to tell a window's own logs from earlier ones. */
async function extensionHostLogDirs(userDataDir: string): Promise<string[]> {
  const logs = path.join(userDataDir, 'logs');
  const dirs: string[] = [];
  for (const session of await fs.readdir(logs).catch(() => [] as string[])) {
    for (const host of await fs.readdir(path.join(logs, session)).catch(() => [] as string[])) {
      if (host.startsWith('exthost')) dirs.push(path.join(session, host));
    }
  }
  return dirs;
}

export async function startWorkbench(o: WorkbenchOptions): Promise<Workbench> {
  const extensionPath = o.extensionPath ?? process.env.TEAMFUSION_E2E_EXTENSION ?? repoRoot();
  const lease = await leaseServer(o);
  const server = lease.server;
  let window: { page: Page; release(): Promise<void> } | undefined;
  try {
    const settingsFile = path.join(server.userDataDir, 'User', 'settings.json');
    // A shared server: this suite's settings over the defaults (the file an earlier suite left, e.g. its theme, goes).
    await fs.writeFile(
      settingsFile,
      JSON.stringify(await userSettings({ settings: o.settings ?? {}, ...(o.workspaceTrust ? { workspaceTrust: true } : {}) }), null, 2),
    );
    const earlierLogs = new Set(await extensionHostLogDirs(server.userDataDir));
    window = await pageFor(server.url);
    const page = window.page;
    const consoleErrors: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error') consoleErrors.push(`${m.location().url || '?'}: ${m.text()}`);
    });
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    const payload = [
      ['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${server.port}${extensionPath}`],
      ['skipWelcome', 'true'],
    ];
    const url = `${server.url}/?folder=${encodeURIComponent(o.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    const w = window;
    const setSettings = async (patch: Record<string, unknown>): Promise<void> => {
      const current = JSON.parse(await fs.readFile(settingsFile, 'utf8')) as Record<string, unknown>;
      await fs.writeFile(settingsFile, JSON.stringify({ ...current, ...patch }, null, 2));
    };
    return {
      server,
      browser: page.context().browser()!,
      page,
      consoleErrors,
      earlierLogs,
      setSettings,
      async open() {
        await timed('load the workbench', async () => {
          await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
          await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
          await page.locator('.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
        });
      },
      async stop() {
        await timed('close the workbench', async () => {
          await w.release();
          await lease.release();
        });
      },
    };
  } catch (e) {
    await window?.release();
    await lease.release();
    throw e;
  }
}

/** A message a panel's webview sent to the workbench: its channel and its data as JSON. */
export interface WebviewPost {
  /** `onmessage`: a message to the extension host (postMessage); `do-update-state`: the state kept with setState. */
  channel: string;
  data: string;
}

/**
 * What the panel's webview has sent to the workbench since the first call for this panel (that call starts listening:
 * call it before the step whose messages it should see). VS Code's webview host frame (the panel frame's parent) passes
 * every postMessage and setState of the panel on over a MessagePort; its postMessage is wrapped there to keep a copy. The
 * panel's call reaches the host frame synchronously, so what a click posted is here as soon as the click has been
 * dispatched: no wait for it to arrive.
 */
export async function webviewPosts(panel: Frame): Promise<WebviewPost[]> {
  const host = panel.parentFrame();
  if (!host) throw new Error('the panel frame has no webview host frame above it');
  return host.evaluate(() => {
    const w = window as Window & { __tfPosts?: { channel: string; data: string }[] };
    if (!w.__tfPosts) {
      const posts: { channel: string; data: string }[] = [];
      w.__tfPosts = posts;
      const original = MessagePort.prototype.postMessage;
      MessagePort.prototype.postMessage = function (this: MessagePort, ...args: Parameters<MessagePort['postMessage']>) {
        const m = args[0] as { channel?: unknown; data?: unknown } | null;
        if (m && (m.channel === 'onmessage' || m.channel === 'do-update-state'))
          posts.push({ channel: m.channel, data: typeof m.data === 'string' ? m.data : (JSON.stringify(m.data) ?? '') });
        return original.apply(this, args);
      } as MessagePort['postMessage'];
    }
    return [...w.__tfPosts];
  });
}

/**
 * Waits until the panel's webview has kept, with setState, a state for which `test` holds (the state as JSON text). The
 * state reaches the workbench with that call; what comes after (hiding the panel, a reload) finds it there.
 */
export async function untilStateKept(panel: Frame, what: string, test: (stateJson: string) => boolean, ceilingMs = 30_000): Promise<void> {
  const deadline = Date.now() + ceilingMs;
  for (;;) {
    const posts = await webviewPosts(panel);
    if (posts.some((p) => p.channel === 'do-update-state' && test(p.data))) return;
    if (Date.now() > deadline) throw new Error(`The panel did not keep ${what} within ${ceilingMs} ms`);
    await panel.page().waitForTimeout(50);
  }
}

/**
 * Waits until the page's CSS transitions and animations have run (none running, or only endless ones), then until it has
 * painted: the event a screenshot of something that slides or fades in needs, instead of a fixed pause.
 */
export async function settled(page: Page, ceilingMs = 10_000): Promise<void> {
  await page
    .waitForFunction(
      () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { timeout: ceilingMs, polling: 50 },
    )
    .catch(() => undefined);
  await painted(page);
}

/** Every frame whose document has the review panel app, found by content (webviews live in nested iframes). */
export async function panelFrames(page: Page): Promise<Frame[]> {
  const found: Frame[] = [];
  for (const f of page.frames()) {
    const ok = await f.evaluate(() => document.body?.dataset.ready === 'true' && !!document.getElementById('tf-title')).catch(() => false);
    if (ok) found.push(f);
  }
  return found;
}

/** Waits for the panel frame whose title contains `title`. */
export async function waitForPanel(page: Page, title: string, timeoutMs = 180_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const f = await panelTitled(page, title);
    if (f) return f;
    if (Date.now() > deadline) throw new Error(`No review panel titled "${title}" within ${timeoutMs} ms`);
    await page.waitForTimeout(250);
  }
}

/**
 * Marks the panel's input #id as the one a person is typing in; returns whether it has the focus. `typedInto` then tells
 * whether a later look still finds that same element (not one made anew), with the focus and the text.
 */
export function markTyping(frame: Frame, id: string): Promise<boolean> {
  return frame.evaluate((inputId) => {
    const input = document.getElementById(inputId) as (HTMLElement & { tfTyping?: boolean }) | null;
    if (input) input.tfTyping = true;
    return !!input && document.activeElement === input;
  }, id);
}

/** The panel's input #id as `markTyping` left it: the same element, focused, and its text. */
export function typedInto(frame: Frame, id: string): Promise<{ same: boolean; focused: boolean; text: string }> {
  return frame.evaluate((inputId) => {
    const input = document.getElementById(inputId) as (HTMLElement & { tfTyping?: boolean; value?: string }) | null;
    return { same: input?.tfTyping === true, focused: !!input && document.activeElement === input, text: input?.value ?? '' };
  }, id);
}

/** Polls `fn` in the frame until it returns a truthy value. */
export async function waitInFrame<T>(frame: Frame, fn: () => T, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await frame.evaluate(fn).catch(() => undefined);
    if (v) return v as T;
    if (Date.now() > deadline) {
      const shown = await frameSays(frame);
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${shown ? `; the panel said: ${shown}` : ''}`);
    }
    await frame.page().waitForTimeout(200);
  }
}

/** What the panel says in its alerts and status lines (notices, progress, the answer to a click), for a failure's message. */
async function frameSays(frame: Frame): Promise<string> {
  const lines = await frame
    .evaluate(() =>
      [...document.querySelectorAll('[role="alert"], [role="status"], .tf-notice')]
        .map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim())
        .filter(Boolean),
    )
    .catch(() => [] as string[]);
  return [...new Set(lines)].slice(-8).join(' | ');
}

export const SCREENSHOTS = path.join(repoRoot(), '.test-output', 'screenshots');

/**
 * Saves a screenshot of the page. A page that shootBothThemes left in the light theme is put back in the dark one first
 * (the theme the suites run in), unless `asShown` (e.g. the picture of a failure: what the screen showed).
 */
export async function screenshot(page: Page, name: string, o: { asShown?: boolean } = {}): Promise<string> {
  if (!o.asShown) await restoreTheme(page);
  await fs.mkdir(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** True if any frame of the page (or the page itself) shows a sign that hostile code ran. */
export async function pwnedFrames(page: Page): Promise<string[]> {
  const hits: string[] = [];
  for (const f of page.frames()) {
    const v = await f
      .evaluate(() => {
        const w = window as Window & { __pwned?: unknown };
        return w.__pwned !== undefined || document.title.includes('PWNED')
          ? `${location.href}: ${String(w.__pwned)} ${document.title}`
          : '';
      })
      .catch(() => '');
    if (v) hits.push(v);
  }
  return hits;
}

/**
 * Runs a palette command and waits until the palette has gone (so the next F1 opens it again): the quick input closed,
 * or it shows the command's own question instead (Go to File, Go to Line, a TeamFusion picker), whose text is no longer
 * the palette's `>…`. Waiting for the quick input to close in that case only ran into the 10 s ceiling.
 */
export async function command(page: Page, title: string): Promise<void> {
  return timed('palette command', async () => {
    await runCommand(page, title);
    const widget = page.locator('.quick-input-widget');
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (!(await widget.isVisible().catch(() => false))) break;
      const text = await widget
        .locator('input')
        .first()
        .inputValue({ timeout: 1_000 })
        .catch(() => '>');
      if (!text.startsWith('>')) break;
      await page.waitForTimeout(50);
    }
    await page.waitForTimeout(300);
  });
}

/** The classes VS Code gives the workbench and every webview's body for a built-in theme of that name. */
function themeClasses(theme: string): { workbench: string; webview: string } {
  if (/high contrast/i.test(theme))
    return /light/i.test(theme)
      ? { workbench: 'hc-light', webview: 'vscode-high-contrast-light' }
      : { workbench: 'hc-black', webview: 'vscode-high-contrast' };
  return /light/i.test(theme) ? { workbench: 'vs', webview: 'vscode-light' } : { workbench: 'vs-dark', webview: 'vscode-dark' };
}

/** The id VS Code's user setting `workbench.colorTheme` takes for a built-in theme shown under `label` in the picker. */
export function themeSettingsId(label: string): string {
  const ids: Record<string, string> = {
    'Dark High Contrast': 'Default High Contrast',
    'Light High Contrast': 'Default High Contrast Light',
  };
  return ids[label] ?? label;
}

/** The placeholder of VS Code's colour theme picker ("Preferences: Color Theme"). */
const THEME_PICKER = '.quick-input-widget:has(input[placeholder^="Select Color Theme"])';

/**
 * Switches the colour theme with the picker's own keys (Ctrl+K Ctrl+T, the theme's name, Enter), then waits until the
 * workbench and every open webview wear it (a condition under a ceiling for a loaded machine, not a fixed pause). The
 * keys skip the command palette's search for the command, which costs seconds on a loaded machine;
 * `setColorThemeByPalette` is the way most users do it, and one test pins that it works. If the keys do not bring the
 * picker up (the focus was somewhere that keeps them), the palette does it. Nothing to do when the page wears the theme.
 *
 * (Rewriting `workbench.colorTheme` in the user settings file is not used: once the extension host has started, code-server
 * was seen not to apply a settings file written from outside, within 30 s or at all.)
 */
export async function setColorTheme(page: Page, theme: string, ceilingMs = 120_000): Promise<void> {
  themeToRestore.delete(page);
  if (await themeShows(page, theme)) return;
  const done = await timed('switch the colour theme (keys)', async () => {
    const quickInput = page.locator('.quick-input-widget');
    await quickInput.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+T');
    const picker = page.locator(THEME_PICKER);
    if (
      !(await picker.waitFor({ state: 'visible', timeout: 5_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      if (await quickInput.isVisible().catch(() => false)) await page.keyboard.press('Escape');
      return false;
    }
    // The picker can close under the keys' feet (a view taking the focus as it opens): then the palette's way, once.
    return pickTheme(page, theme, ceilingMs, 5_000).then(
      () => true,
      async () => {
        if (await quickInput.isVisible().catch(() => false)) await page.keyboard.press('Escape');
        return themeShows(page, theme);
      },
    );
  });
  if (!done) await setColorThemeByPalette(page, theme, ceilingMs);
}

/**
 * In the open theme picker: types the theme's name (`fillMs`: how long the input may take to be editable), takes its row
 * (Enter), and waits until the theme shows.
 */
async function pickTheme(page: Page, theme: string, ceilingMs: number, fillMs?: number): Promise<void> {
  await page.locator('.quick-input-widget input').fill(theme, fillMs === undefined ? {} : { timeout: fillMs });
  await page.locator('.quick-input-list .monaco-list-row', { hasText: theme }).first().waitFor({ state: 'visible', timeout: ceilingMs });
  await page.keyboard.press('Enter');
  await page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
  await untilThemeShows(page, theme, ceilingMs);
}

/**
 * Switches the colour theme the way a user does ("Preferences: Color Theme", type the name, Enter), then waits until the
 * workbench and every open webview wear it.
 */
export async function setColorThemeByPalette(page: Page, theme: string, ceilingMs = 120_000): Promise<void> {
  themeToRestore.delete(page);
  return timed('switch the colour theme (palette)', async () => {
    await page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden', timeout: 10_000 })
      .catch(() => undefined);
    await runCommand(page, 'Preferences: Color Theme');
    await page.locator('.quick-input-widget input').waitFor({ state: 'visible', timeout: ceilingMs });
    await pickTheme(page, theme, ceilingMs);
  });
}

/** Whether the workbench and every webview body wear the classes of `theme` now. */
export async function themeShows(page: Page, theme: string): Promise<boolean> {
  const want = themeClasses(theme);
  const workbench = await page
    .locator('.monaco-workbench')
    .first()
    .evaluate((e, c) => e.classList.contains(c), want.workbench)
    .catch(() => false);
  if (!workbench) return false;
  for (const f of page.frames()) {
    // A webview's document: its body wears one of vscode-light / vscode-dark / vscode-high-contrast(-light).
    const ok = await f
      .evaluate((c) => {
        const b = document.body;
        if (!b || ![...b.classList].some((x) => /^vscode-(light|dark|high-contrast)/.test(x))) return true;
        return b.classList.contains(c) && (c !== 'vscode-high-contrast' || !b.classList.contains('vscode-high-contrast-light'));
      }, want.webview)
      .catch(() => true);
    if (!ok) return false;
  }
  return true;
}

/** Waits until the workbench and every open webview wear `theme`, then until each has painted a frame with it. */
async function untilThemeShows(page: Page, theme: string, ceilingMs: number): Promise<void> {
  const deadline = Date.now() + ceilingMs;
  while (!(await themeShows(page, theme))) {
    if (Date.now() > deadline) throw new Error(`The colour theme "${theme}" was not applied within ${ceilingMs} ms`);
    await page.waitForTimeout(100);
  }
  await painted(page);
}

/**
 * Waits until the page and its frames have drawn two more animation frames (what was just changed in them is on the
 * screen): the event a screenshot needs, instead of a fixed pause. A frame Chromium does not render (hidden, off screen)
 * runs no animation frames; it is given up on after 150 ms of its own clock, and one that cannot run scripts is skipped.
 */
export async function painted(page: Page): Promise<void> {
  await Promise.all(
    page
      .frames()
      .map((f) =>
        f
          .evaluate(
            () =>
              new Promise<boolean>((resolve) => {
                setTimeout(() => resolve(false), 150);
                requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)));
              }),
          )
          .catch(() => false),
      )
      .map((p) => Promise.race([p, new Promise<boolean>((r) => setTimeout(() => r(false), 5_000))])),
  );
}

/** The quick pick TeamFusion's commands show when the workspace holds several reviews (reviewIndex.ts: "Which review?"). */
const REVIEW_PICKER = '.quick-input-widget:has(input[placeholder="Which review?"])';

/** The panel frame titled `title`, if one is there now. */
async function panelTitled(page: Page, title: string): Promise<Frame | undefined> {
  for (const f of await panelFrames(page)) {
    const t = await f.evaluate(() => document.getElementById('tf-title')?.textContent ?? '').catch(() => '');
    if (t.includes(title)) return f;
  }
  return undefined;
}

/** Picks `name` in the review picker once it shows; false if it is not showing (yet). */
async function pickIfAsked(page: Page, name: string): Promise<boolean> {
  const picker = page.locator(REVIEW_PICKER);
  if (!(await picker.isVisible().catch(() => false))) return false;
  const input = picker.locator('input');
  await input.fill(name);
  const row = picker.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await row.click();
  return true;
}

/**
 * Waits until VS Code asks which review (then picks `name`) — for a command that always asks in this workspace.
 * Waits on the picker itself, not on a clock: on a busy machine activation and the workspace search can take long.
 */
export async function pickReview(page: Page, name: string, ceilingMs = 180_000): Promise<void> {
  const deadline = Date.now() + ceilingMs;
  while (!(await pickIfAsked(page, name))) {
    if (Date.now() > deadline) throw new Error(`VS Code did not ask which review within ${ceilingMs} ms`);
    await page.waitForTimeout(200);
  }
}

/**
 * "TeamFusion: Open Review", then pick `name` if VS Code asks which review, and wait for the panel titled `title`.
 * Whichever comes first is observed (the picker or the panel): nothing here assumes how long activation, the workspace
 * search or the first render take (a picker that shows after a fixed wait used to be missed on a loaded machine).
 * A quick pick closes when focus moves away, and then nothing opens: when neither the picker nor the panel nor any
 * quick input has shown for a while, the command is run again (a second picker replaces a first one still coming, so
 * a command that was only slow is not hurt). A picker still up once the panel shows is closed.
 */
export async function openReview(page: Page, name: string, title: string, ceilingMs = 180_000): Promise<Frame> {
  return timed('open a review', async () => {
    const quickInput = page.locator('.quick-input-widget');
    await quickInput.waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
    await runCommand(page, 'TeamFusion: Open Review');
    const deadline = Date.now() + ceilingMs;
    let picked = false;
    let runs = 1;
    let quietSince = Date.now();
    for (;;) {
      if (!picked) picked = await pickIfAsked(page, name).catch(() => false);
      const f = await panelTitled(page, title);
      if (f) {
        const picker = page.locator(REVIEW_PICKER);
        if (await picker.isVisible().catch(() => false))
          await picker
            .locator('input')
            .press('Escape')
            .catch(() => undefined);
        return f;
      }
      if (picked || (await quickInput.isVisible().catch(() => false))) quietSince = Date.now();
      else if (Date.now() - quietSince > RERUN_AFTER_MS) {
        await runCommand(page, 'TeamFusion: Open Review');
        runs++;
        quietSince = Date.now();
      }
      if (Date.now() > deadline)
        throw new Error(
          `No review panel titled "${title}" within ${ceilingMs} ms${picked ? '' : ` (VS Code never asked which review; the command was run ${runs} times)`}`,
        );
      await page.waitForTimeout(200);
    }
  });
}

/** How long Open Review may show nothing at all (no picker, no panel, no quick input) before it is run again. */
const RERUN_AFTER_MS = 30_000;

/**
 * "TeamFusion: Open Review" in a workspace with several reviews, timed: milliseconds from choosing `name` in the picker
 * (Enter) until its panel titled `title` has rendered. Waits for the picker however long activation and the search take.
 */
export async function openReviewTimed(page: Page, name: string, title: string, ceilingMs = 180_000): Promise<{ frame: Frame; ms: number }> {
  await page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => undefined);
  await runCommand(page, 'TeamFusion: Open Review');
  const picker = page.locator(REVIEW_PICKER);
  await picker.waitFor({ state: 'visible', timeout: ceilingMs });
  await picker.locator('input').fill(name);
  await picker.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ state: 'visible', timeout: 30_000 });
  const t0 = Date.now();
  await page.keyboard.press('Enter');
  const deadline = t0 + ceilingMs;
  for (;;) {
    const f = await panelTitled(page, title);
    if (f) return { frame: f, ms: Date.now() - t0 };
    if (Date.now() > deadline) throw new Error(`No review panel titled "${title}" within ${ceilingMs} ms`);
    await page.waitForTimeout(30);
  }
}

/** Fails early, in words, when the bundles the e2e loads are missing. */
export function requireBuilt(files: string[] = ['dist/extension.js', 'dist/cli.js', 'dist/webview/panel.js']): void {
  if (process.env.TEAMFUSION_E2E_EXTENSION) return;
  for (const f of files) {
    if (!existsSync(path.join(repoRoot(), f))) throw new Error(`${f} is missing: run \`npm run build\` first.`);
  }
}

/**
 * The theme a page goes back to when shootBothThemes has left it in the other one: the switch back is put off until a
 * screenshot (or the next shootBothThemes, which then starts from the light theme) needs it, so two pictures in a row
 * cost one switch each instead of two. Nothing but pictures depends on the theme in between.
 */
const themeToRestore = new WeakMap<Page, string>();

/** Puts the page back in the theme shootBothThemes left it out of (nothing when it did not). */
export async function restoreTheme(page: Page): Promise<void> {
  const theme = themeToRestore.get(page);
  if (theme === undefined) return;
  themeToRestore.delete(page);
  await setColorTheme(page, theme);
}

/**
 * A screenshot in the dark theme and the same in the light theme (`prepare` runs before each); `<name>-dark.png` and
 * `<name>-light.png`. It starts from the theme the page shows (light when an earlier call left it there, then it ends in
 * dark) and does not switch back at the end: the next screenshot or explicit theme switch does, if it comes.
 */
export async function shootBothThemes(page: Page, name: string, prepare?: () => Promise<void>): Promise<void> {
  return timed('screenshots in both themes', async () => {
    const shoot = async (theme: 'dark' | 'light') => {
      await prepare?.();
      await painted(page);
      await screenshot(page, `${name}-${theme}`, { asShown: true });
    };
    if (themeToRestore.get(page) === DARK) {
      themeToRestore.delete(page);
      await shoot('light');
      await setColorTheme(page, DARK);
      await shoot('dark');
    } else {
      await shoot('dark');
      await setColorTheme(page, LIGHT);
      themeToRestore.set(page, DARK);
      await shoot('light');
    }
  });
}

/** Switches the panel to one of its tabs and waits until that tab's panel shows (a condition, not a pause). */
export async function showTab(frame: Frame, name: 'overview' | 'run' | 'ranking', ceilingMs = 120_000): Promise<void> {
  await frame.locator(`vscode-tab-header[data-tab=${name}]`).click();
  const index = ['overview', 'run', 'ranking'].indexOf(name);
  await frame.waitForFunction(
    (i) => {
      const tabs = document.getElementById('tf-tabs') as (HTMLElement & { selectedIndex?: number }) | null;
      const panel = document.querySelectorAll<HTMLElement>('#tf-tabs > vscode-tab-panel')[i];
      return !!tabs && tabs.selectedIndex === i && !!panel && !panel.hidden && panel.getBoundingClientRect().height > 0;
    },
    index,
    { timeout: ceilingMs, polling: 100 },
  );
}

/**
 * What an extension wrote to its log (its Output channel, e.g. `teamfusion.teamfusion`, or the built-in Git's `vscode.git`)
 * in this workbench so far: every `<logs>/<session>/exthost*\/<extensionId>/*.log` of the server's profile that this
 * workbench's windows wrote (not an earlier suite's on a shared server), joined.
 */
export async function extensionLog(w: Pick<Workbench, 'server' | 'earlierLogs'>, extensionId: string): Promise<string> {
  const texts: string[] = [];
  const logs = path.join(w.server.userDataDir, 'logs');
  for (const host of (await extensionHostLogDirs(w.server.userDataDir)).sort()) {
    if (w.earlierLogs?.has(host)) continue;
    const dir = path.join(logs, host, extensionId);
    for (const f of (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.log')).sort()) {
      texts.push(await fs.readFile(path.join(dir, f), 'utf8').catch(() => ''));
    }
  }
  return texts.join('\n');
}

/** A notification whose message contains `text`: its toast, or its row in the notification centre. */
export function notificationItem(page: Page, text: string): Locator {
  return page.locator('.notification-list-item', { hasText: text }).first();
}

/**
 * Whether the notification shows now, found as a user finds it: its toast, else — VS Code often puts a notification in the
 * notification centre without a toast here, and the status bar's bell gets a dot — the centre, opened with a click on the
 * bell (not while a quick pick is open: the click would close it).
 */
export async function notificationShows(page: Page, item: Locator): Promise<boolean> {
  if (await item.isVisible().catch(() => false)) return true;
  const quickPick = await page
    .locator('.quick-input-widget')
    .isVisible()
    .catch(() => false);
  const centre = await page
    .locator('.notifications-center.visible')
    .isVisible()
    .catch(() => false);
  const dot = page.locator('.statusbar-item .codicon-bell-dot').first();
  if (!quickPick && !centre && (await dot.isVisible().catch(() => false))) await dot.click({ timeout: 5_000 }).catch(() => undefined);
  return item.isVisible().catch(() => false);
}
