/**
 * The CLI suites' shared set-up: the built CLI (dist/cli.js, test/support/builtCli.ts: the one way tests get the CLI,
 * built once per stage by `npm run build`), run as separate processes, alone or against the scripted mock.
 */
import { spawn } from 'node:child_process';
import type { MockOpenAI } from '../../support/openaiMock';
import { WAIT_CEILING_MS } from '../../support/waitFor';
import { builtCli, REPO_ROOT } from '../../support/builtCli';
import { cleanCliEnv, mockSuite } from '../run/helpers';

export { REPO_ROOT };

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
  const child = spawn(process.execPath, [cli, ...args], {
    ...(o.env ? { env: o.env } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: o.timeoutMs ?? WAIT_CEILING_MS,
  });
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

/** The built CLI, for the suite it is used in. */
export interface BuiltCli {
  /** The bundle's path (once `before` has run). */
  readonly cli: string;
  /** Runs it with `args` (30 s at most). */
  run(...args: string[]): Promise<CliRun>;
}

/** The built CLI for the suite it is called in: its `before` checks dist/cli.js is built from the current src/. */
export function useBuiltCli(): BuiltCli {
  let built: string | undefined;
  before(() => {
    built = builtCli();
  });
  const cliPath = (): string => {
    if (!built) throw new Error('useBuiltCli: the CLI is checked in before()');
    return built;
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
 * request of a test must be valid against OpenAI's spec) and the built CLI (useBuiltCli), run as separate
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
