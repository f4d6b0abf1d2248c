/**
 * The set-up every e2e suite shares: a throw-away workspace with reviews in it, the scripted OpenAI mock server, and a
 * real VS Code (code-server + Chromium) with TeamFusion loaded, torn down after the suite. Every wait here is on a
 * condition, under a ceiling that only stops a run that is stuck (never a clock tuned to a quiet machine).
 *
 *   describe('…', function () {
 *     this.timeout(600_000);
 *     const s = e2eSuite('panel');                      // registers after(): workbench, mock and workspace go
 *     before(async () => {
 *       requireBuilt();
 *       const review = await copySample(await s.makeWorkspace(), 'lumen-perfume', { iterations: 2 });
 *       streamProxyTurns(await s.startMock(), 30);
 *       await s.startWorkbench({ hideSideBar: true });  // dark theme, the mock as the model, the placeholder key
 *     });
 *     it('…', async () => { const panel = await openReview(s.page, 'lumen-perfume', 'Lumen'); … });
 *   });
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { repoRoot } from '../../harness/codeServer';
import { MockOpenAI, designerReply } from '../../support/openaiMock';
import { takeTimings, timed, timingOn } from './timing';
import { DARK, command, screenshot, startWorkbench, type Workbench, type WorkbenchOptions } from './workbench';

export const REPO = repoRoot();
/** The built command-line tool (`npm run build`). */
export const CLI = path.join(REPO, 'dist', 'cli.js');
/** The sample review every suite starts from. */
export const SAMPLE = path.join(REPO, 'samples', 'lumen-perfume');
/** The API key the extension host and the CLI are given: the mock accepts any. */
export const PLACEHOLDER_KEY = 'sk-e2e-placeholder';

// ---------------------------------------------------------------------------------------------------------------------
// Reviews on disk

/**
 * Copies the sample review to `parent/name` without its runs; `settings` (if any) are merged over its review.yaml.
 * Returns the review's folder.
 */
export async function copySample(parent: string, name: string, settings?: Record<string, unknown>): Promise<string> {
  const dir = path.join(parent, name);
  await fs.cp(SAMPLE, dir, { recursive: true });
  await fs.rm(path.join(dir, 'runs'), { recursive: true, force: true });
  if (settings) await patchReviewYaml(dir, settings);
  return dir;
}

/** Merges `patch` over the review's review.yaml (top-level keys). */
export async function patchReviewYaml(dir: string, patch: Record<string, unknown>): Promise<void> {
  const file = path.join(dir, 'review.yaml');
  const config = (parseYaml(await fs.readFile(file, 'utf8')) ?? {}) as Record<string, unknown>;
  await fs.writeFile(file, stringifyYaml({ ...config, ...patch }));
}

/**
 * A review titled "Large review" with `n` options (coloured PNGs made with sharp, numbered) and `m` designers whose
 * rankings are seeded shuffles (the same review every time).
 */
export async function makeLargeReview(dir: string, n: number, m: number): Promise<void> {
  const sharp = (await import('sharp')).default;
  await fs.mkdir(path.join(dir, 'options'), { recursive: true });
  await fs.mkdir(path.join(dir, 'rankings'), { recursive: true });
  await fs.writeFile(path.join(dir, 'brief.md'), `# Large review\n\n${n} options, ${m} designers.\n`);
  await fs.writeFile(path.join(dir, 'review.yaml'), 'title: Large review\n');
  for (let i = 1; i <= n; i++) {
    const hue = Math.round((i * 360) / n);
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="hsl(${hue},60%,50%)"/><text x="60" y="50" font-size="28" text-anchor="middle" fill="white">${i}</text></svg>`;
    await sharp(Buffer.from(svg))
      .png()
      .toFile(path.join(dir, 'options', `${i}.png`));
  }
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let d = 1; d <= m; d++) {
    const ids = Array.from({ length: n }, (_, i) => String(i + 1));
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    const ranking = ids.map((option, k) => ({ option, rank: k + 1, justification: `Designer ${d} puts ${option} at ${k + 1}.` }));
    await fs.writeFile(path.join(dir, 'rankings', `d${d}.yaml`), stringifyYaml({ designer: `Designer ${d}`, ranking }));
  }
}

/** The run folders of a review, sorted ([] when it has no runs/ folder). */
export async function runIds(review: string): Promise<string[]> {
  const runs = path.join(review, 'runs');
  return existsSync(runs) ? (await fs.readdir(runs)).sort() : [];
}

/** A run's run.json, parsed (undefined while it is missing or half written). */
export async function readRunJson<T = { status?: string; task?: string }>(review: string, runId: string): Promise<T | undefined> {
  try {
    return JSON.parse(await fs.readFile(path.join(review, 'runs', runId, 'run.json'), 'utf8')) as T;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// The command-line tool

/** Runs the built CLI and waits for it; the exit code and everything it printed (stdout then stderr). */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 240_000): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, ...env }, timeout: timeoutMs, encoding: 'utf8' },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, out: `${stdout}${stderr}` });
      },
    );
  });
}

/** Runs the built CLI; its stdout (throws if it exits non-zero). */
export function cliOutput(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): string {
  return execFileSync(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: timeoutMs });
}

/** The environment that points the CLI at the mock server. */
export function mockEnv(mock: MockOpenAI): Record<string, string> {
  return { OPENAI_BASE_URL: mock.baseURL, OPENAI_API_KEY: PLACEHOLDER_KEY };
}

// ---------------------------------------------------------------------------------------------------------------------
// The mock model server

/** Proxy turns (streamed chat without a JSON schema) stream in chunks `chunkDelayMs` apart, so they can be seen arriving. */
export function streamProxyTurns(mock: MockOpenAI, chunkDelayMs: number): MockOpenAI {
  mock.setFallback((req) => {
    const body = req.body as { stream?: boolean; response_format?: unknown } | undefined;
    if (req.route === 'chat' && body?.stream === true && !body.response_format) {
      return { kind: 'chat', content: designerReply(req.body), chunkDelayMs };
    }
    return undefined;
  });
  return mock;
}

// ---------------------------------------------------------------------------------------------------------------------
// Waiting

/**
 * Waits until `check` gives a truthy value and returns it, polling every `everyMs` on the page's clock. `ceilingMs` only
 * ends a run that is stuck; the wait itself is on the condition. A check that throws counts as not yet.
 */
export async function until<T>(
  page: Page,
  what: string,
  check: () => Promise<T | undefined | null | false | '' | 0>,
  ceilingMs = 120_000,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + ceilingMs;
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`Timed out after ${ceilingMs} ms waiting for ${what}`);
    await page.waitForTimeout(everyMs);
  }
}

/** Waits until a run of the review has `status` (and, if given, `task`); its id. */
export function untilRun(page: Page, review: string, status: string, o: { task?: string; ceilingMs?: number } = {}): Promise<string> {
  return until(
    page,
    `a ${o.task ? `${o.task} ` : ''}run ${status} in ${path.basename(review)}/runs`,
    async () => {
      for (const id of await runIds(review)) {
        const rec = await readRunJson(review, id);
        if (rec?.status === status && (o.task === undefined || rec.task === o.task)) return id;
      }
      return undefined;
    },
    o.ceilingMs ?? 300_000,
  );
}

// ---------------------------------------------------------------------------------------------------------------------
// The suite

/** Console errors that come from webviews (the workbench's own offline noise is not ours). */
export function webviewErrors(consoleErrors: readonly string[]): string[] {
  return consoleErrors.filter((e) => /webview|vscode-resource|vscode-cdn|panel\.js|Content Security Policy/i.test(e));
}

export interface SuiteWorkbenchOptions {
  /** Over the suite's defaults (dark theme, the secondary side bar hidden, the mock as `teamfusion.baseUrl`). */
  settings?: Record<string, unknown>;
  /** Over the defaults (the placeholder API key when a mock runs). */
  env?: Record<string, string>;
  /** Hide the primary side bar once the workbench is up (more room for the panel). */
  hideSideBar?: boolean;
  /** Workspace trust on, the workspace untrusted (Restricted Mode). */
  workspaceTrust?: boolean;
  extensionPath?: string;
  /** The folder VS Code opens, inside the workspace (e.g. one person's clone of a git team); default the workspace. */
  folder?: string;
  /** More extension folders loaded beside TeamFusion as installed extensions (e.g. test/lmProvider). */
  extraExtensions?: string[];
}

export interface E2eSuite {
  /** The workspace folder (after makeWorkspace). */
  readonly ws: string;
  /** The mock server (after startMock). */
  readonly mock: MockOpenAI;
  /** The workbench (after startWorkbench). */
  readonly w: Workbench;
  /** The workbench's page. */
  readonly page: Page;
  /** Whether a workbench is running now. */
  readonly running: boolean;
  /** Makes the throw-away workspace folder; its path. */
  makeWorkspace(): Promise<string>;
  /** Starts the scripted OpenAI mock server. */
  startMock(): Promise<MockOpenAI>;
  /** Starts code-server + Chromium on the workspace with TeamFusion loaded, and opens the workbench. */
  startWorkbench(o?: SuiteWorkbenchOptions): Promise<Workbench>;
  /** Stops the workbench (e.g. to start another on the same workspace with other options). */
  stopWorkbench(): Promise<void>;
}

export interface SuiteOptions {
  /** After each test, no console errors from a webview. Default true. */
  checkWebviewErrors?: boolean;
}

/**
 * The shared set-up of one e2e suite; call it inside `describe`. It registers an `after` hook that stops the workbench
 * and the mock and removes the workspace, and (unless turned off) an `afterEach` that checks the webviews logged no
 * console error. `name` names the workspace folder (tf-e2e-<name>-…).
 */
export function e2eSuite(name: string, o: SuiteOptions = {}): E2eSuite {
  let ws = '';
  let mock: MockOpenAI | undefined;
  let w: Workbench | undefined;
  const need = <T>(v: T | undefined, what: string): T => {
    if (v === undefined || v === '') throw new Error(`e2eSuite(${name}): ${what} first`);
    return v;
  };
  const suite: E2eSuite = {
    get ws() {
      return need(ws, 'makeWorkspace()');
    },
    get mock() {
      return need(mock, 'startMock()');
    },
    get w() {
      return need(w, 'startWorkbench()');
    },
    get page() {
      return need(w, 'startWorkbench()').page;
    },
    get running() {
      return w !== undefined;
    },
    async makeWorkspace() {
      ws = await fs.mkdtemp(path.join(os.tmpdir(), `tf-e2e-${name}-`));
      return ws;
    },
    async startMock() {
      mock = await MockOpenAI.start();
      return mock;
    },
    async startWorkbench(so = {}) {
      const options: WorkbenchOptions = {
        workspace: so.folder ?? need(ws, 'makeWorkspace()'),
        settings: {
          'workbench.colorTheme': DARK,
          'workbench.secondarySideBar.defaultVisibility': 'hidden',
          ...(mock ? { 'teamfusion.baseUrl': mock.baseURL } : {}),
          ...so.settings,
        },
        ...(mock || so.env ? { env: { ...(mock ? { OPENAI_API_KEY: PLACEHOLDER_KEY } : {}), ...so.env } } : {}),
        ...(so.workspaceTrust ? { workspaceTrust: true } : {}),
        ...(so.extensionPath ? { extensionPath: so.extensionPath } : {}),
        ...(so.extraExtensions ? { extraExtensions: so.extraExtensions } : {}),
      };
      w = await startWorkbench(options);
      await w.open();
      if (so.hideSideBar) await hidePrimarySideBar(w.page);
      return w;
    },
    async stopWorkbench() {
      const running = w;
      w = undefined;
      await running?.stop();
    },
  };
  // What the screen showed when a test failed: .test-output/screenshots/FAILED-<suite>-<test>.png.
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !w) return;
    const shot = `FAILED-${name}-${this.currentTest.title}`.replace(/[^\w.-]+/g, '-').slice(0, 120);
    await screenshot(w.page, shot, { asShown: true }).then(
      (file) => console.log(`      (screenshot of the failure: ${path.relative(repoRoot(), file)})`),
      () => undefined,
    );
  });
  let t0 = Date.now();
  before(() => {
    t0 = Date.now();
  });
  after(async () => {
    await suite.stopWorkbench();
    await mock?.close();
    if (ws) await fs.rm(ws, { recursive: true, force: true });
    if (timingOn()) {
      console.log(`      [timing ${name}] ${((Date.now() - t0) / 1000).toFixed(1)} s in all`);
      for (const line of takeTimings()) console.log(`      [timing ${name}]   ${line}`);
    }
  });
  if (o.checkWebviewErrors !== false) {
    afterEach(() => {
      if (w) assertNoWebviewErrors(w);
    });
  }
  return suite;
}

/**
 * Hides the primary side bar (more room for the panel) with its key (Ctrl+B: no palette round, which costs seconds on a
 * loaded machine) and waits until it is gone; the palette's "View: Toggle Primary Side Bar Visibility" if the key did
 * not do it (e.g. the focus was somewhere that keeps the key).
 */
export async function hidePrimarySideBar(page: Page): Promise<void> {
  await timed('hide the side bar', async () => {
    const sideBar = page.locator('[id="workbench.parts.sidebar"]');
    // A fresh window shows it (the Explorer); one that never does has nothing to hide.
    if (
      !(await sideBar.waitFor({ state: 'visible', timeout: 10_000 }).then(
        () => true,
        () => false,
      ))
    )
      return;
    await page.keyboard.press('Control+B');
    const hidden = await sideBar.waitFor({ state: 'hidden', timeout: 10_000 }).then(
      () => true,
      () => false,
    );
    if (!hidden) await command(page, 'View: Toggle Primary Side Bar Visibility');
    await sideBar.waitFor({ state: 'hidden', timeout: 60_000 });
  });
}

/** Fails with the errors if a webview logged any console error. */
export function assertNoWebviewErrors(w: Pick<Workbench, 'consoleErrors'>): void {
  const errors = webviewErrors(w.consoleErrors);
  if (errors.length > 0) throw new Error(`console errors in the webview:\n${errors.join('\n')}`);
}
