/**
 * Builds the real CLI (src/cli/main.ts) with esbuild for the CLI tests, like `npm run build` does for dist/cli.js.
 * Modules of the CLI that another helper has not written yet are replaced by a stub that fails with a sentence, so
 * these tests do not depend on the whole build being green. The bundle goes under out/ (so `sharp` resolves from
 * node_modules) and is removed by the caller.
 */
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { build } from 'esbuild';
import type { Plugin } from 'esbuild';
import type { MockOpenAI } from '../../support/openaiMock';
import { WAIT_CEILING_MS } from '../../support/waitFor';
import { cleanCliEnv, mockSuite } from '../run/helpers';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..');

const stubMissing: Plugin = {
  name: 'stub-missing',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const base = path.resolve(args.resolveDir, args.path);
      const found = ['', '.ts', '.js', '/index.ts'].some((ext) => existsSync(base + ext));
      return found ? undefined : { path: base, namespace: 'stub' };
    });
    b.onLoad({ filter: /.*/, namespace: 'stub' }, (args) => ({
      loader: 'js',
      contents: `module.exports = new Proxy({}, { get: (_, name) => async () => { throw new Error(${JSON.stringify(
        `not built yet: ${path.basename(args.path)}`,
      )} + ' ' + String(name)); } });`,
    }));
  },
};

export async function buildCli(): Promise<{ cli: string; dispose(): Promise<void> }> {
  const dir = path.join(REPO_ROOT, 'out', `formats-cli-${process.pid}`);
  const cli = path.join(dir, 'cli.js');
  await build({
    entryPoints: [path.join(REPO_ROOT, 'src', 'cli', 'main.ts')],
    outfile: cli,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['sharp', 'vscode'],
    logLevel: 'silent',
    define: { __TEAMFUSION_VERSION__: '"test"' },
    plugins: [stubMissing],
  });
  return { cli, dispose: () => fs.rm(dir, { recursive: true, force: true }) };
}

/** What a spawned CLI process did. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bundled CLI at `cli` in a fresh node process with `args`; resolves when it exits (30 s at most). */
export function runCli(cli: string, ...args: string[]): Promise<CliRun> {
  return startCli(cli, args).done;
}

/** A CLI process that is running: what it printed so far, and its end. */
export interface RunningCli {
  done: Promise<CliRun>;
  stdout(): string;
  stderr(): string;
}

/** Starts the bundled CLI at `cli` with `args` (environment: this process's unless `env`; killed after `timeoutMs`). */
export function startCli(cli: string, args: string[], o: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): RunningCli {
  const child = spawn(process.execPath, [cli, ...args], { ...(o.env ? { env: o.env } : {}), stdio: ['ignore', 'pipe', 'pipe'], timeout: o.timeoutMs ?? WAIT_CEILING_MS });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { done, stdout: () => stdout, stderr: () => stderr };
}

/** The CLI of one suite: built in `before`, removed in `after`. */
export interface BuiltCli {
  /** The bundle's path (once `before` has run). */
  readonly cli: string;
  /** Runs it with `args` (30 s at most). */
  run(...args: string[]): Promise<CliRun>;
}

/** Builds the CLI for the suite it is called in (registers its `before` and `after`). */
export function useBuiltCli(): BuiltCli {
  let built: { cli: string; dispose(): Promise<void> } | undefined;
  before(async () => {
    built = await buildCli();
  });
  after(async () => {
    await built?.dispose();
  });
  const cliPath = (): string => {
    if (!built) throw new Error('useBuiltCli: the CLI is built in before()');
    return built.cli;
  };
  return {
    get cli() {
      return cliPath();
    },
    run: (...args) => runCli(cliPath(), ...args),
  };
}

/** The CLI of one suite, run against the scripted mock server in an environment of its own. */
export interface CliAgainstMock {
  readonly cli: string;
  readonly mock: MockOpenAI;
  /** This process's environment without OPENAI_* / AZURE_OPENAI_* / TEAMFUSION_* (nor `drop`), plus mockSuite's (the test key, the mock's URL, the suite's image cache, no retries). */
  readonly env: NodeJS.ProcessEnv;
  /** Starts the CLI with `args` (in `env` unless another is given; killed after the suite's `timeoutMs`). */
  start(args: string[], env?: NodeJS.ProcessEnv): RunningCli;
  /** Runs the CLI with `args` to its end. */
  run(args: string[], env?: NodeJS.ProcessEnv): Promise<CliRun>;
}

/**
 * The suite's mock (mockSuite: started in `before`, reset before each test, closed in `after`; with `checkSpec`, every
 * request of a test must be valid against OpenAI's spec) and its own build of the CLI (useBuiltCli), run as separate
 * processes. `drop` removes more variables of this process's environment (e.g. GIT_*); `timeoutMs` (default: the suites'
 * wait ceiling) ends a CLI process that hangs.
 */
export function useCliAgainstMock(o: { drop?: RegExp; timeoutMs?: number; checkSpec?: boolean } = {}): CliAgainstMock {
  const suite = mockSuite({ checkSpec: o.checkSpec ?? false });
  const built = useBuiltCli();
  let env: NodeJS.ProcessEnv | undefined;
  const rig: CliAgainstMock = {
    get cli() {
      return built.cli;
    },
    get mock() {
      return suite.mock;
    },
    get env() {
      env ??= { ...Object.fromEntries(Object.entries(cleanCliEnv()).filter(([k]) => !o.drop?.test(k))), ...suite.env };
      return env;
    },
    start: (args, e) => startCli(rig.cli, args, { env: e ?? rig.env, timeoutMs: o.timeoutMs ?? WAIT_CEILING_MS }),
    run: (args, e) => rig.start(args, e).done,
  };
  return rig;
}
