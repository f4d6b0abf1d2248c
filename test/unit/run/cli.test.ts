import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import { RunRecordSchema } from '../../../src/core/record/record';
import { readRunRecord } from '../../../src/core/record/store';
import { parseRunArgs } from '../../../src/cli/commands/run/run';
import { makeReview, makeTempDir } from './fixtures';
import { TEST_KEY, turnRequests, runJson } from './helpers';
import { waitFor } from '../../support/waitFor';
import { builtCli } from '../../support/builtCli';

/** The built CLI (test/support/builtCli.ts). */
function cliArgs(args: string[]): string[] {
  return [builtCli(), ...args];
}

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function start(args: string[], env: Record<string, string | undefined>): { child: ChildProcess; done: Promise<Result> } {
  const child = spawn(process.execPath, cliArgs(args), { env: { ...cleanEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Result>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(OPENAI_|TEAMFUSION_)/.test(k)) env[k] = v;
  return env;
}

describe('teamfusion run (command line)', function () {
  this.timeout(90_000);
  let mock: MockOpenAI;
  let cache: string;
  let env: Record<string, string>;
  before(async () => {
    mock = await MockOpenAI.start();
    cache = await makeTempDir('tf-xdg-');
    env = { OPENAI_API_KEY: TEST_KEY, OPENAI_BASE_URL: mock.baseURL, XDG_CACHE_HOME: cache, TEAMFUSION_MAX_RETRIES: '0' };
  });
  after(async () => mock.close());
  beforeEach(() => {
    mock.reset();
    mock.latencyMs = 0;
  });

  it('parses its arguments and rejects bad ones', () => {
    assert.deepEqual(parseRunArgs(['r', '--iterations', '2', '--turns=1', '--json', '--feedback', 'warmer']), {
      review: 'r',
      iterations: 2,
      turns: 1,
      json: true,
      feedback: 'warmer',
    });
    assert.throws(() => parseRunArgs(['r', '--turns', 'two']), /whole number/);
    assert.throws(() => parseRunArgs(['r', '--iterations', '0']), /iterations/);
    assert.throws(() => parseRunArgs([]), /review folder/);
    assert.throws(() => parseRunArgs(['r', '--nope']), /unknown option/);
    assert.deepEqual(parseRunArgs(['r', '--mode', 'together', '--order=shuffle', '--seed', '42', '--designers', 'ana, ben,ana']), {
      review: 'r',
      json: false,
      mode: 'together',
      order: 'shuffle',
      seed: 42,
      designers: ['ana', 'ben'],
    });
    assert.throws(
      () => parseRunArgs(['r', '--mode', 'debate']),
      /--mode: must be separate-then-together, together or separate, not "debate"/,
    );
    assert.throws(() => parseRunArgs(['r', '--order', 'random']), /--order: must be rotate, shuffle or fixed/);
    assert.throws(() => parseRunArgs(['r', '--seed', '-1']), /whole number/);
    assert.throws(() => parseRunArgs(['r', '--designers', 'ana']), /at least two designers/);
  });

  it('usage errors exit 2 before anything is sent: unknown mode, unknown designer, fewer than two', async () => {
    const root = await makeReview({ options: 3, designers: 3 });
    for (const args of [
      ['--mode', 'debate'],
      ['--designers', 'd1,zoe'],
      ['--designers', 'd2'],
      ['--designers', 'd2,D2'],
    ]) {
      const r = await start(['run', root, ...args], env).done;
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /--(mode|designers)/);
    }
    assert.equal(mock.requests.length, 0);
    assert.equal(existsSync(path.join(root, 'runs')), false);
  });

  it('--designers and --seed are recorded; only the chosen designers speak', async () => {
    const root = await makeReview({ options: 3, designers: 3 });
    const r = await start(['run', root, '--turns', '1', '--iterations', '1', '--designers', 'd3,d1', '--seed', '7', '--json'], env).done;
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as { runDir: string };
    const rec = RunRecordSchema.parse(JSON.parse(await fs.readFile(path.join(summary.runDir, 'run.json'), 'utf8')));
    assert.deepEqual(rec.settings.designers, ['d1', 'd3']);
    assert.equal(rec.settings.orderSeed, 7);
    assert.deepEqual(rec.iterations[0]!.messages.map((m) => m.speaker).sort(), ['d1', 'd3']);
  });

  it('without a key: one sentence on stderr, exit 1, nothing written', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const r = await start(['run', root], { XDG_CACHE_HOME: cache }).done;
    assert.equal(r.code, 1);
    assert.match(r.stderr.trim(), /^No API key: set OPENAI_API_KEY[^\n]*$/);
    assert.equal(r.stdout, '');
    assert.equal(existsSync(path.join(root, 'runs')), false);
    assert.equal(mock.requests.length, 0);
  });

  it('a usual-way review (condition: usual) has no run: one sentence, exit 1, no request, nothing written', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    await fs.writeFile(path.join(root, 'review.yaml'), 'condition: usual\n');
    const r = await start(['run', root], env).done;
    assert.equal(r.code, 1);
    assert.match(r.stderr, /decided the usual way \(condition: usual in review\.yaml\), so it has no run/);
    assert.equal(mock.requests.length, 0);
    assert.equal(existsSync(path.join(root, 'runs')), false);
  });

  it('an invalid review: diagnostics on stderr, exit 1, no request', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    await fs.writeFile(path.join(root, 'rankings', 'd1.yaml'), 'designer: Ana\nranking: [\n');
    const r = await start(['run', root], env).done;
    assert.equal(r.code, 1);
    assert.match(r.stderr, /rankings\/d1\.yaml:\d+:\d+: error: /);
    assert.equal(mock.requests.length, 0);
  });

  it('streams the turns to stdout and says where the run folder is; --json prints only the summary', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const r = await start(['run', root, '--turns', '1', '--iterations', '2', '--mode', 'together'], env).done;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Ana \(turn 1\): \S.*$/m);
    assert.match(r.stdout, /^Ben \(turn 1\): \S.*$/m);
    // Independent first assessments run concurrently: each is printed whole, marked with its phase.
    const sep = await start(['run', root, '--turns', '1', '--iterations', '1'], env).done;
    assert.equal(sep.code, 0, sep.stderr);
    assert.match(sep.stdout, /^Ana \(turn 1, independent\): \S.*$/m);
    assert.match(sep.stdout, /^Ben \(turn 1, independent\): \S.*$/m);
    assert.match(r.stdout, /Run completed: .*runs[\\/]\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-\w+/);

    const j = await start(['run', root, '--turns', '1', '--iterations', '1', '--json'], env).done;
    assert.equal(j.code, 0, j.stderr);
    const summary = JSON.parse(j.stdout) as { status: string; id: string; finalPick: string; runDir: string };
    assert.equal(summary.status, 'completed');
    assert.ok(['1', '2', '3'].includes(summary.finalPick));
    assert.ok(existsSync(path.join(summary.runDir, 'run.json')));
  });

  it('Ctrl+C (SIGINT) cancels: exit 130, status cancelled', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    // The second turn waits on the model until the signal has done its work: the run cannot finish first.
    const release = mock.hold(() => turnRequests(mock).length > 1);
    const p = start(['run', root], env);
    await waitFor('the run to ask its second turn', () => turnRequests(mock).length >= 2);
    p.child.kill('SIGINT');
    const r = await p.done;
    release();
    assert.equal(r.code, 130, r.stderr);
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    const rec = await runJson(root, id);
    assert.equal(rec.status, 'cancelled');
    assert.match(r.stderr, new RegExp(`--resume ${id}`));
  });

  it('resume after a hard kill (kill -9) does not re-request recorded turns', async () => {
    const root = await makeReview({ options: 4, designers: 3 });
    // Four turns answered; the fifth is asked and never answered before the kill.
    const release = mock.hold(() => turnRequests(mock).length > 4);
    const p = start(['run', root, '--turns', '2', '--iterations', '2', '--mode', 'together'], env);
    await waitFor('the run to ask its fifth turn', () => turnRequests(mock).length >= 5);
    p.child.kill('SIGKILL');
    const killed = await p.done;
    assert.equal(killed.signal, 'SIGKILL');
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    // What a resume starts from: run.json (rewritten at each round's end) with the journal's later turns over it.
    const before = await readRunRecord(root, id);
    assert.equal(before.status, 'running', 'a killed run stays "running" on disk');
    const recorded = before.iterations[0]!.messages.length;
    assert.equal(recorded, 4, 'the four answered turns are on disk');
    const requestsAtKill = turnRequests(mock).length;

    release();
    const r = await start(['run', root, '--resume', id], env).done;
    assert.equal(r.code, 0, r.stderr);
    const after = await runJson(root, id);
    assert.equal(after.status, 'completed');
    // 2 iterations × 3 designers × 2 turns = 12 turns; only the unrecorded ones were asked after the kill
    assert.equal(turnRequests(mock).length - requestsAtKill, 12 - recorded);
    assert.deepEqual(after.iterations[0]!.messages.slice(0, recorded), before.iterations[0]!.messages);
    assert.deepEqual(mock.specErrors(), []);
  });
});
