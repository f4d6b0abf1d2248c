/**
 * Entry of the integration suite that runs INSIDE a real VS Code extension host (code-server via the smoke-test
 * payload, see scripts/run-integration.mjs; or @vscode/test-electron, see scripts/run-test-electron.mjs).
 * VS Code calls `run()`; it mocha-runs every out/test/integration/**\/*.test.js and rejects when a test failed.
 * Progress goes to console.log; a closing `N passed, N failed` line is printed for CI, and when
 * TEAMFUSION_TEST_RESULTS names a file the counts and failures are written there as JSON.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

interface Outcome {
  title: string;
  state: 'passed' | 'failed' | 'pending';
  error?: string;
  ms?: number;
}

export interface SuiteResults {
  passed: number;
  failed: number;
  pending: number;
  tests: Outcome[];
  seconds: number;
  host: string;
}

/** Prints one line per test and the closing count; remembers outcomes for the JSON results file. */
class CountingReporter extends Mocha.reporters.Base {
  static last: Outcome[] = [];

  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const outcomes: Outcome[] = [];
    CountingReporter.last = outcomes;
    const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;
    runner.on(EVENT_TEST_PASS, (t: Mocha.Test) => {
      outcomes.push({ title: t.fullTitle(), state: 'passed', ms: t.duration });
      console.log(`  ok   ${t.fullTitle()} (${t.duration ?? 0} ms)`);
    });
    runner.on(EVENT_TEST_FAIL, (t: Mocha.Test, err: Error) => {
      const error = err?.stack ?? String(err);
      outcomes.push({ title: t.fullTitle(), state: 'failed', error });
      console.log(`  FAIL ${t.fullTitle()}\n${indent(error)}`);
    });
    runner.on(EVENT_TEST_PENDING, (t: Mocha.Test) => {
      outcomes.push({ title: t.fullTitle(), state: 'pending' });
      console.log(`  skip ${t.fullTitle()}`);
    });
    runner.once(EVENT_RUN_END, () => {
      const passed = outcomes.filter((o) => o.state === 'passed').length;
      const failed = outcomes.filter((o) => o.state === 'failed').length;
      console.log(`${passed} passed, ${failed} failed`);
    });
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `       ${l}`)
    .join('\n');
}

function findTests(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) found.push(...findTests(full));
    else if (name.endsWith('.test.js')) found.push(full);
  }
  return found;
}

export async function run(): Promise<void> {
  const t0 = Date.now();
  const mocha = new Mocha({ ui: 'bdd', timeout: 300_000, color: false, reporter: CountingReporter });
  const grep = process.env.TEAMFUSION_TEST_GREP;
  if (grep) mocha.grep(grep);
  const files = findTests(__dirname);
  console.log(
    `TeamFusion integration suite: ${files.length} file(s) in the extension host of ${process.execPath} (node ${process.version})`,
  );
  for (const f of files) mocha.addFile(f);
  const failures = await new Promise<number>((resolve, reject) => {
    try {
      mocha.run((n) => resolve(n));
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
  const tests = CountingReporter.last;
  const results: SuiteResults = {
    passed: tests.filter((o) => o.state === 'passed').length,
    failed: tests.filter((o) => o.state === 'failed').length,
    pending: tests.filter((o) => o.state === 'pending').length,
    tests,
    seconds: (Date.now() - t0) / 1000,
    host: `node ${process.version}`,
  };
  const out = process.env.TEAMFUSION_TEST_RESULTS;
  if (out) writeFileSync(out, JSON.stringify(results, null, 2));
  if (failures > 0) throw new Error(`${failures} integration test(s) failed`);
}
