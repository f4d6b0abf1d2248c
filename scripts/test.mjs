#!/usr/bin/env node
// `npm test`: every stage of the project's tests, each printing its counts, then ONE closing line
// `N passed, N failed` summed over the stages. Exit 1 when anything failed.
//   build        npm run build (esbuild bundles)                  counts as 1 check
//   compile      scripts/compile-tests.mjs: src/, webview/, test/, bench/ transpiled into out/ by esbuild (no type check)   1 check
//   typecheck    tsc -p tsconfig.json --noEmit: every project file's types (src/, webview/, test/, bench/, scripts/)    1 check
//   lint         npm run lint (scripts/lint.mjs: ESLint with type information and Prettier's check at once)   1 check
//   unit         mocha --config .mocharc.json (node 20): test files in parallel, two at a time, each in a worker process
//                of its own; the CLI they run is the build stage's dist/cli.js (test/support/builtCli.ts)
//   integration  scripts/run-integration.mjs: mocha INSIDE the real extension host of code-server
//   e2e          mocha on out/test/e2e/**/*.e2e.js (playwright + code-server, via test/harness), as two processes at once
//                (TEAMFUSION_E2E_SHARDS; see runE2e)
//   package      scripts/package.mjs: the production build and one VSIX per platform, each checked for its @img packages
//   vsix         scripts/test-vsix.mjs: install the linux-x64 VSIX into code-server, palette check, timings
// typecheck and lint run beside the main lane from the start at the lowest priority; package and e2e once unit has
// ended, beside integration and vsix (see LANES).
// Skip a stage with TEAMFUSION_SKIP_<STAGE>=1 (e.g. TEAMFUSION_SKIP_E2E=1) for local speed; CI runs all.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { e2eShards } from './lib/e2eShards.mjs';
import { lowerPriority, restorePriority } from './lib/priority.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(repo, 'node_modules', '.bin', name);
const COUNT = /^\s*(\d+) passed, (\d+) failed\s*$/;

/**
 * Runs a command, streaming its output, and returns { code, text }. `side` (a stage outside the main lane): its output is
 * only kept, and with `side.nice` (a number) it runs at that lower priority, inherited by what it starts, so it takes the
 * cores the other stages leave idle rather than slowing their tests; `side.lowered` (a Set) holds its pid while it runs,
 * for restorePriority. `sink(stream, chunk)`, if given, takes the output
 * instead.
 */
function run(cmd, args, timeoutS, env = {}, side = undefined, sink = undefined) {
  const quiet = !!side;
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, args, { cwd: repo, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (side?.nice && child.pid) {
      lowerPriority(child.pid, side.nice);
      side.lowered?.add(child.pid);
      child.on('close', () => side.lowered?.delete(child.pid));
    }
    let text = '';
    const onData = (stream) => (chunk) => {
      text += chunk;
      if (sink) sink(stream, chunk);
      else if (!quiet) stream.write(chunk);
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    const timer = setTimeout(() => {
      text += `\n(stopped after ${timeoutS} s)\n`;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, 5000).unref();
    }, timeoutS * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? (signal ? 128 : 1), text });
    });
  });
}

/** Counts from mocha's spec reporter ("12 passing", "2 failing") or our own closing line. */
function counts(text) {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = COUNT.exec(lines[i]);
    if (m) return { passed: Number(m[1]), failed: Number(m[2]) };
  }
  const passing = /(\d+) passing/.exec(text);
  const failing = /(\d+) failing/.exec(text);
  if (passing || failing) return { passed: Number(passing?.[1] ?? 0), failed: Number(failing?.[1] ?? 0) };
  return undefined;
}

function findFiles(dir, suffix) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...findFiles(full, suffix));
    else if (name.endsWith(suffix)) out.push(full);
  }
  return out.sort();
}

/**
 * The e2e files as `n` mocha processes at once (TEAMFUSION_E2E_SHARDS, default 2; 1: one process), each with its own
 * code-server and Chromium (a process shares them only among its own suites: test/e2e/support/workbench.ts). The stage
 * waits on VS Code, Chromium and the mock more than it computes, so two processes fill the two cores that one leaves half
 * idle. Output (kept, not streamed: the stage runs in a lane of its own beside the main lane): every shard's as one
 * block, in order, then a closing line with the shards' counts summed. Returns the exit code (the worst) and that text.
 */
async function runE2e(files, n, lane) {
  const mochaArgs = ['--no-config', '--timeout', '300000', '--reporter', 'spec'];
  const shards = e2eShards(files, n);
  if (shards.length === 1) return run(bin('mocha'), [...mochaArgs, ...files], 1800, {}, lane);
  const name = (f) => basename(f, '.e2e.js');
  const t0 = Date.now();
  const results = await Promise.all(
    shards.map(async (shard, i) => {
      const r = await run(bin('mocha'), [...mochaArgs, ...shard.files], 1800, {}, lane);
      const seconds = (Date.now() - t0) / 1000;
      const head = `\n--- e2e shard ${i + 1} of ${shards.length} (${shard.files.map(name).join(', ')}; about ${shard.seconds} s alone)\n`;
      const tail = `--- e2e shard ${i + 1} of ${shards.length} ended (exit ${r.code}) after ${seconds.toFixed(1)} s\n`;
      return { ...r, seconds, block: `${head}${r.text}${r.text.endsWith('\n') ? '' : '\n'}${tail}` };
    }),
  );
  const sum = { passed: 0, failed: 0 };
  for (const r of results) {
    const c = counts(r.text);
    sum.passed += c?.passed ?? 0;
    // A shard that ended badly without a failing test (a crash, the timeout) counts as one failure.
    sum.failed += c?.failed || (r.code === 0 ? 0 : 1);
  }
  const code = results.reduce((a, r) => Math.max(a, r.code), 0);
  const times = results.map((r) => `${r.seconds.toFixed(0)} s`).join(', ');
  const line = `e2e: ${shards.length} processes (${times}), summed:\n${sum.passed} passed, ${sum.failed} failed\n`;
  return { code, text: `${results.map((r) => r.block).join('')}${line}` };
}

// The stages, each in a lane (see LANES): the main lane's output streams, the others' is kept and printed whole, between
// two main-lane stages, when a stage ends. A stage starts once the stages it `waits` for have ended (vsix installs the
// VSIX package made); each keeps its own row and time in the closing table.
const stages = [
  { name: 'build', lane: 'main', timeout: 300, run: () => run('npm', ['run', 'build'], 300), single: true },
  { name: 'compile', lane: 'main', timeout: 300, run: () => run(process.execPath, ['scripts/compile-tests.mjs'], 300), single: true },
  { name: 'package', lane: 'package', timeout: 900, run: (side) => run(process.execPath, ['scripts/package.mjs'], 900, {}, side) },
  {
    name: 'typecheck',
    lane: 'check',
    timeout: 900,
    run: (side) => run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], 900, {}, side),
    single: true,
  },
  { name: 'lint', lane: 'check', timeout: 900, run: (side) => run('npm', ['run', 'lint'], 900, {}, side), single: true },
  { name: 'unit', lane: 'main', timeout: 3000, needs: 'dist/cli.js', run: () => run(bin('mocha'), ['--config', '.mocharc.json'], 3000) },
  {
    name: 'integration',
    lane: 'main',
    realHost: true,
    timeout: 900,
    needs: 'dist/extension.js',
    run: () => run(process.execPath, ['scripts/run-integration.mjs'], 900),
  },
  {
    name: 'vsix',
    lane: 'main',
    waits: ['package'],
    timeout: 1200,
    needs: 'dist/extension.js',
    run: () => run(process.execPath, ['scripts/test-vsix.mjs'], 1200),
  },
  {
    name: 'e2e',
    lane: 'e2e',
    timeout: 1800,
    needs: 'dist/extension.js',
    run: (lane) => {
      const files = findFiles(join(repo, 'out/test/e2e'), '.e2e.js');
      if (files.length === 0) return Promise.resolve({ code: 1, text: 'no compiled e2e tests under out/test/e2e\n' });
      return runE2e(files, Number(process.env.TEAMFUSION_E2E_SHARDS ?? 2), lane);
    },
  },
];

/** Runs one stage (`side`: a side-lane stage, see `run`); its result for the closing table. */
async function runStage(stage, side = undefined) {
  const s0 = Date.now();
  let passed = 0;
  let failed = 0;
  let note = '';
  let text = '';
  if (stage.needs && !existsSync(join(repo, stage.needs))) {
    failed = 1;
    note = `${stage.needs} is missing`;
  } else {
    const r = await stage.run(side);
    text = r.text;
    if (stage.single) {
      passed = r.code === 0 ? 1 : 0;
      failed = r.code === 0 ? 0 : 1;
    } else {
      const c = counts(r.text);
      passed = c?.passed ?? 0;
      failed = c?.failed ?? 0;
      if (r.code !== 0 && failed === 0) {
        failed = 1;
        note = `exit ${r.code} without a failing test`;
      } else if (passed + failed === 0) {
        failed = 1;
        note = 'no test ran';
      }
    }
  }
  const seconds = (Date.now() - s0) / 1000;
  return { name: stage.name, passed, failed, seconds, realHost: stage.realHost, note, text };
}

const ended = (r) => `=== ${r.name}: ${r.passed} passed, ${r.failed} failed in ${r.seconds.toFixed(1)} s${r.note ? ` (${r.note})` : ''}`;

const skipVar = (s) => `TEAMFUSION_SKIP_${s.name.toUpperCase()}`;
const skipped = (s) => process.env[skipVar(s)] === '1';
/** Each stage's result by name, once it has ended (or was skipped). */
const done = new Map();
const t0 = Date.now();
/** The other lanes' output waiting for the main lane to stop streaming. */
const held = [];
let mainStreaming = false;
const printHeld = () => {
  for (let block = held.shift(); block !== undefined; block = held.shift()) process.stdout.write(block);
};
const waitFor = (names) => Promise.all(names.map((n) => done.get(n)?.promise ?? Promise.resolve()));
for (const stage of stages) {
  let resolveDone;
  const promise = new Promise((r) => (resolveDone = r));
  done.set(stage.name, { promise, resolve: resolveDone });
}

async function runLane(lane) {
  for (const stage of stages.filter((s) => s.lane === lane)) {
    const entry = done.get(stage.name);
    if (skipped(stage)) {
      entry.result = { name: stage.name, skipped: true, passed: 0, failed: 0, seconds: 0 };
      const line = `\n=== ${stage.name}: skipped (${skipVar(stage)}=1)\n`;
      if (lane !== 'main' && mainStreaming) held.push(line);
      else process.stdout.write(line);
      entry.resolve();
      continue;
    }
    await waitFor(stage.waits ?? []);
    if (lane === 'main') {
      printHeld();
      mainStreaming = true;
      const side = [...running];
      console.log(`\n=== ${stage.name}${side.length ? ` (${side.join(', ')} running beside it)` : ''}`);
      begin(stage.name);
      entry.result = await runStage(stage);
      running.delete(stage.name);
      console.log(ended(entry.result));
      mainStreaming = false;
      printHeld();
    } else {
      begin(stage.name);
      const { low } = LANES[lane];
      const r = await runStage(stage, low && !done.get(low.until).ended ? { nice: low.nice, lowered: low.lowered } : {});
      running.delete(stage.name);
      entry.result = r;
      const with_ = besides.get(stage.name);
      const besideNote = with_.size ? ` (ran beside ${[...with_].join(', ')})` : '';
      const block = `\n=== ${r.name}${besideNote}\n${r.text}${r.text.endsWith('\n') || !r.text ? '' : '\n'}${ended(r)}\n`;
      if (mainStreaming) held.push(block);
      else process.stdout.write(block);
    }
    entry.resolve();
  }
}

/**
 * The lanes: each runs its stages one after another, from the moment the stage named `after` has ended, at the normal
 * priority, or with `low` at nice `low.nice` until the stage `low.until` has ended: then its stage still running is put
 * back at the normal priority, and the next ones start there. Only the main lane's output streams.
 * - main: build, compile, unit, integration, vsix. Unit keeps both cores busy (its two workers used 1.8 cores on average
 *   when measured alone), so it runs with nothing beside it but the check lane.
 * - check: typecheck, then lint, one thread each, at the lowest priority (nice 19) from the start: they mostly take what
 *   the other stages leave idle, and end before unit does (unit took 463 s beside them, 388 s alone; run after unit, they
 *   would take as much from stages that fill the cores). Only while unit runs: after it, the stages beside them fill the
 *   cores, and at nice 19 a check was starved (with two busy processes on the machine, typecheck hit its 900 s limit).
 * - package: once unit has ended (it writes much to the disk, which slowed the unit tests' synced writes), at the normal
 *   priority: vsix waits for it (at nice 10 it took 403 s beside integration and e2e, against 128 s at 0).
 * - e2e: once unit has ended, at the normal priority (its suites wait on VS Code under ceilings). After unit no stage
 *   fills the two cores alone (e2e's two processes used 0.8 cores, integration and vsix wait on VS Code), so they share them.
 */
const LANES = {
  main: {},
  check: { after: 'compile', low: { nice: 19, until: 'unit', lowered: new Set() } },
  package: { after: 'unit' },
  e2e: { after: 'unit' },
};

/** Stages running now, and for each stage the ones that ran beside it at some moment (for the headings). */
const running = new Set();
const besides = new Map(stages.map((s) => [s.name, new Set()]));
function begin(name) {
  for (const other of running) {
    besides.get(other).add(name);
    besides.get(name).add(other);
  }
  running.add(name);
}
for (const { low } of Object.values(LANES)) {
  if (!low) continue;
  const until = done.get(low.until);
  void until.promise.then(() => {
    until.ended = true;
    for (const pid of low.lowered) restorePriority(pid);
  });
}
await Promise.all(
  Object.entries(LANES).map(async ([lane, { after }]) => {
    if (after) await done.get(after).promise;
    await runLane(lane);
  }),
);
printHeld();
const results = stages.map((s) => done.get(s.name).result);

const total = results.reduce((a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed }), { passed: 0, failed: 0 });
const inHost = results.filter((r) => r.realHost).reduce((a, r) => a + r.passed + r.failed, 0);
console.log('\nstage        passed  failed  seconds');
for (const r of results) {
  console.log(
    `${r.name.padEnd(12)} ${r.skipped ? ' skipped' : `${String(r.passed).padStart(6)}  ${String(r.failed).padStart(6)}  ${r.seconds.toFixed(1).padStart(7)}`}`,
  );
}
console.log(`${inHost} of them ran inside the real VS Code extension host (code-server); total ${((Date.now() - t0) / 1000).toFixed(0)} s`);
console.log(`${total.passed} passed, ${total.failed} failed`);
process.exit(total.failed === 0 ? 0 : 1);
