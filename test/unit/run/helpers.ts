/** Shared helpers for engine tests: a mock server, a client pointed at it, and a collecting listener. */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import OpenAI from 'openai';
import { MockOpenAI, type MockFallback } from '../../support/openaiMock';
import { WAIT_CEILING_MS } from '../../support/waitFor';
import { makeBriefRunReview, makeTempDir } from './fixtures';
import type { RunEvent } from '../../../src/core/step/events';
import { createModelClient } from '../../../src/core/llm/client';
import { LOCK_FILE } from '../../../src/core/record/lock';
import { RunRecordSchema, type RunRecord } from '../../../src/core/record/record';
import { builtCli } from '../../support/builtCli';

export const TEST_KEY = 'sk-test-SECRET-do-not-write-0123456789';

/**
 * A run without a pool or the brief's checklist (issue 41 made both on by default): for the tests about something else that
 * count or script a run's requests one by one. As settings (`settings: { ...UNPOOLED, … }`) or as review.yaml lines.
 */
export const UNPOOLED = { pool: 1, checklist: 'off' } as const;
export const UNPOOLED_YAML = 'pool: 1\nchecklist: off\n';
export const UNPOOLED_FLAGS = ['--pool', '1', '--checklist', 'off'] as const;

export function clientFor(mock: MockOpenAI, o: { timeoutMs?: number; maxRetries?: number } = {}): OpenAI {
  return createModelClient({
    apiKey: TEST_KEY,
    baseURL: mock.baseURL,
    timeoutMs: o.timeoutMs ?? WAIT_CEILING_MS,
    maxRetries: o.maxRetries ?? 2,
  });
}

export function collect(): { events: RunEvent[]; onEvent: (e: RunEvent) => void } {
  const events: RunEvent[] = [];
  return { events, onEvent: (e) => events.push(e) };
}

export function chatRequests(mock: MockOpenAI) {
  return mock.requests.filter((r) => r.route === 'chat');
}

/** Proxy-turn requests are the streamed chat calls. */
export function turnRequests(mock: MockOpenAI) {
  return chatRequests(mock).filter((r) => (r.body as { stream?: boolean }).stream === true);
}

/**
 * The engine suites' one set-up: a spec-checking mock server and an image cache per suite, the mock reset (no latency)
 * before each test, and after each test every request it saw must have been valid against OpenAI's official spec.
 * `bind` receives both once they exist (call it from the suite to keep plain `mock` / `cacheDir` variables).
 */
export function useEngineMock(bind: (mock: MockOpenAI, cacheDir: string) => void, o: { checkSpec?: boolean } = {}): void {
  let mock: MockOpenAI | undefined;
  before(async () => {
    mock = await MockOpenAI.start();
    bind(mock, await makeTempDir('tf-cache-'));
  });
  after(async () => mock?.close());
  beforeEach(() => {
    mock!.reset();
    mock!.latencyMs = 0;
  });
  if (o.checkSpec !== false) {
    afterEach(() => assert.deepEqual(mock!.specErrors(), [], 'every request is valid against the official spec'));
  }
}

/** run.json of run `runId` in `root` as written (read by the record's schema; no journal merged in). */
export async function runJson(root: string, runId: string): Promise<RunRecord> {
  return RunRecordSchema.parse(JSON.parse(await fs.readFile(path.join(root, 'runs', runId, 'run.json'), 'utf8')));
}

/**
 * Run `runId` of `root` as a process killed now leaves it: its folder is copied now (the lock aside, it dies with the
 * process), `stop` ends the live run, and the copy takes the folder's place.
 */
export async function asKilledNow(root: string, runId: string, stop: () => Promise<unknown>): Promise<void> {
  const dir = path.join(root, 'runs', runId);
  const copy = path.join(root, 'crash-copy');
  await fs.cp(dir, copy, { recursive: true, filter: (src) => !path.basename(src).startsWith(LOCK_FILE) });
  await stop();
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rename(copy, dir);
}

/** A suite's mock server and what goes with it, once `before` has run (read them inside tests and hooks). */
export interface MockSuite {
  readonly mock: MockOpenAI;
  /** The suite's image cache folder (also the CLI's XDG_CACHE_HOME). */
  readonly cacheDir: string;
  /** The built CLI's environment pointed at the mock: a test key, its URL, the suite's cache, no retries. */
  readonly env: Record<string, string>;
  /** What the run engine needs to reach the mock: a fresh client (clientFor) and the suite's image cache. */
  readonly engine: { client: OpenAI; cacheDir: string };
}

/**
 * useEngineMock for suites that read the mock as `suite.mock` (and the CLI's environment as `suite.env`) instead of binding
 * variables; `fallback` (e.g. briefFallback) is made fresh and set again after each reset.
 */
export function mockSuite(o: { fallback?: () => MockFallback; checkSpec?: boolean } = {}): MockSuite {
  let state: { mock: MockOpenAI; cacheDir: string } | undefined;
  const ready = (): { mock: MockOpenAI; cacheDir: string } => {
    if (!state) throw new Error('the mock suite is used before its before() hook ran');
    return state;
  };
  useEngineMock((mock, cacheDir) => (state = { mock, cacheDir }), o.checkSpec === undefined ? {} : { checkSpec: o.checkSpec });
  if (o.fallback) beforeEach(() => ready().mock.setFallback(o.fallback!()));
  return {
    get mock() {
      return ready().mock;
    },
    get cacheDir() {
      return ready().cacheDir;
    },
    get env() {
      const { mock, cacheDir } = ready();
      return { OPENAI_API_KEY: TEST_KEY, OPENAI_BASE_URL: mock.baseURL, XDG_CACHE_HOME: cacheDir, TEAMFUSION_MAX_RETRIES: '0' };
    },
    get engine() {
      const { mock, cacheDir } = ready();
      return { client: clientFor(mock), cacheDir };
    },
  };
}

/** What one run of the built CLI (dist/cli.js) did. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment without any OPENAI_*, AZURE_OPENAI_* or TEAMFUSION_* variable of the machine running the tests. */
export function cleanCliEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(OPENAI_|AZURE_OPENAI_|TEAMFUSION_)/.test(k)) env[k] = v;
  return env;
}

/** Starts the built CLI (dist/cli.js, made by `npm run build`) with `args` in a clean environment plus `env`. */
export function startCli(
  args: string[],
  env: Record<string, string | undefined>,
): { child: import('node:child_process').ChildProcess; done: Promise<CliResult> } {
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  const child = spawn(process.execPath, [builtCli(), ...args], { env: { ...cleanCliEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

/** A brief review of `members` members ("m1"…) with one completed brief run made by the built CLI against the suite's mock. */
export async function completedBriefRun(
  env: Record<string, string>,
  members = 4,
  args: string[] = ['--iterations', '1', '--turns', '1'],
): Promise<{ root: string; id: string; runDir: string }> {
  const root = await makeBriefRunReview(members);
  const run = await startCli(['run', root, '--task', 'brief', ...args], env).done;
  assert.equal(run.code, 0, run.stderr);
  const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
  return { root, id, runDir: path.join(root, 'runs', id) };
}

/** The letter of the blind pair (rerank/key.json) that holds `kind`. */
export async function letterOf(runDir: string, kind: 'teamfusion' | 'direct'): Promise<string> {
  const key = JSON.parse(await fs.readFile(path.join(runDir, 'rerank', 'key.json'), 'utf8')) as Record<string, { kind: string }>;
  return Object.keys(key).find((l) => key[l]!.kind === kind)!;
}

/** Writes preference/<member>.yaml for each member: the letter of the side they chose blind, or tie. */
export async function preferBlind(runDir: string, choices: Record<string, 'teamfusion' | 'direct' | 'tie'>): Promise<void> {
  await fs.mkdir(path.join(runDir, 'preference'), { recursive: true });
  for (const [who, side] of Object.entries(choices)) {
    const prefer = side === 'tie' ? 'tie' : await letterOf(runDir, side);
    await fs.writeFile(path.join(runDir, 'preference', `${who}.yaml`), `designer: ${who}\nprefer: ${prefer}\nwhy: clearer\n`);
  }
}
