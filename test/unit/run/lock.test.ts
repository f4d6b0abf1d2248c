import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { once } from 'node:events';
import * as os from 'node:os';
import * as path from 'node:path';
import { MockOpenAI } from '../../support/openaiMock';
import {
  LOCK_FILE,
  RunDrivenError,
  STALE_MS,
  acquireRunLock,
  interruptedRuns,
  isRunDriven,
  runDriver,
} from '../../../src/core/record/lock';
import { readRunRecord } from '../../../src/core/record/store';
import { createRunId } from '../../../src/core/record/paths';
import { startRun } from '../../../src/core/run/session';
import { noteCommitted } from '../../../src/core/evaluation/compare/decisionTimes';
import { makeReview, makeTempDir } from './fixtures';
import { TEST_KEY, clientFor, turnRequests, runJson } from './helpers';
import { waitFor } from '../../support/waitFor';
import { builtCli, CLI_PATH } from '../../support/builtCli';

/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('one driver per run: the lock', () => {
  let root: string;
  let id: string;
  let lockFile: string;
  beforeEach(async () => {
    root = await makeTempDir('tf-lock-');
    id = createRunId();
    await fs.mkdir(path.join(root, 'runs', id), { recursive: true });
    lockFile = path.join(root, 'runs', id, LOCK_FILE);
  });

  it('is held by one driver at a time, says who holds it, and is gone after release', async () => {
    const lock = await acquireRunLock(root, id);
    const onDisk = JSON.parse(await fs.readFile(lockFile, 'utf8')) as { pid: number; hostname: string };
    assert.equal(onDisk.pid, process.pid);
    assert.equal(onDisk.hostname, os.hostname());
    assert.equal(await isRunDriven(root, id), true);
    assert.equal((await runDriver(root, id))?.pid, process.pid);
    await assert.rejects(
      acquireRunLock(root, id),
      (e: unknown) => e instanceof RunDrivenError && /is being driven by another process \(pid \d+ on /.test(e.message),
    );
    await lock.release();
    assert.equal(existsSync(lockFile), false);
    assert.equal(await isRunDriven(root, id), false);
    await lock.release(); // idempotent
    const again = await acquireRunLock(root, id);
    await again.release();
    assert.deepEqual(await fs.readdir(path.join(root, 'runs', id)), [], 'no temporary files are left');
  });

  it('a lock left by a dead process on this host is taken over', async () => {
    const pid = deadPid();
    await fs.writeFile(lockFile, JSON.stringify({ pid, hostname: os.hostname(), startedAt: '2026-01-01T00:00:00Z', nonce: 'old' }));
    assert.equal(await isRunDriven(root, id), false);
    assert.deepEqual(
      [
        ...(await interruptedRuns(root, [
          { id, status: 'running' },
          { id, status: 'completed' },
        ])),
      ],
      [id],
    );
    const lock = await acquireRunLock(root, id);
    assert.equal(JSON.parse(await fs.readFile(lockFile, 'utf8')).pid, process.pid);
    await lock.release();
  });

  it('a stale lock is said in words when taken over: a pid no longer running, or a running pid that is not the driver that wrote it', async () => {
    const notes: string[] = [];
    await fs.writeFile(
      lockFile,
      JSON.stringify({ pid: deadPid(), hostname: os.hostname(), startedAt: '2026-01-01T00:00:00Z', nonce: 'old' }),
    );
    await (await acquireRunLock(root, id, (l) => notes.push(l))).release();
    assert.match(
      notes.join('\n'),
      new RegExp(`runs/${id}/\\.driver\\.lock was left by pid \\d+ on this host, which is no longer running; it was treated as stale\\.`),
    );

    // A live process that started after the lock's time (a reused pid, or a lock committed long ago): not the driver.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await once(other, 'spawn');
      await fs.writeFile(
        lockFile,
        JSON.stringify({ pid: other.pid, hostname: os.hostname(), startedAt: '2020-01-01T00:00:00Z', nonce: 'reused' }),
      );
      assert.equal(await isRunDriven(root, id), false);
      notes.length = 0;
      const lock = await acquireRunLock(root, id, (l) => notes.push(l));
      assert.match(
        notes.join('\n'),
        new RegExp(
          `names pid ${other.pid} on this host, but that process started after the lock was written, so it is not the run's driver`,
        ),
      );
      await lock.release();
      // The same live process named by a lock written after it started is a driver: waited for, in words.
      const started = new Date(Date.now() - 100).toISOString();
      await fs.writeFile(lockFile, JSON.stringify({ pid: other.pid, hostname: os.hostname(), startedAt: started, nonce: 'live' }));
      await assert.rejects(acquireRunLock(root, id), RunDrivenError);
    } finally {
      other.kill();
    }
  });

  it('a lock of another host is live while it is refreshed, stale after STALE_MS', async () => {
    await fs.writeFile(lockFile, JSON.stringify({ pid: 1, hostname: 'elsewhere.example', startedAt: '2026-01-01T00:00:00Z', nonce: 'x' }));
    await assert.rejects(acquireRunLock(root, id), /pid 1 on elsewhere\.example/);
    const old = new Date(Date.now() - STALE_MS - 5000);
    await fs.utimes(lockFile, old, old);
    assert.equal(await isRunDriven(root, id), false);
    const notes: string[] = [];
    const lock = await acquireRunLock(root, id, (l) => notes.push(l));
    assert.match(
      notes.join('\n'),
      /was written on elsewhere\.example and not refreshed for over 2 minutes, so no driver holds it; it was treated as stale\./,
    );
    await lock.release();
  });

  it('a FIFO in place of the lock never hangs: stale at once (in words), moved aside untouched, the lock taken', async () => {
    spawnSync('mkfifo', [lockFile]);
    assert.equal(await isRunDriven(root, id), false);
    const notes: string[] = [];
    const lock = await acquireRunLock(root, id, (l) => notes.push(l));
    assert.equal((await fs.lstat(lockFile)).isFile(), true);
    assert.match(notes.join('\n'), /\.driver\.lock is not a regular file; it was treated as stale/);
    const aside = (await fs.readdir(path.dirname(lockFile))).filter((n) => n.includes('stale'));
    assert.equal(aside.length, 1);
    assert.ok((await fs.lstat(path.join(path.dirname(lockFile), aside[0]!))).isFIFO());
    await lock.release();
  });

  it('a lock that is a symlink (out, to a file inside, dangling) is stale in words: never followed, the link itself replaced', async () => {
    const outside = path.join(await makeTempDir('tf-outside-'), 'victim');
    await fs.writeFile(outside, 'untouched');
    for (const target of [outside, '../../brief.md', path.join(path.dirname(outside), 'nothing')]) {
      await fs.symlink(target, lockFile);
      assert.equal(await isRunDriven(root, id), false, 'a link is no live driver (say must not hand its message to nobody)');
      const notes: string[] = [];
      const lock = await acquireRunLock(root, id, (l) => notes.push(l));
      assert.match(
        notes.join('\n'),
        /\.driver\.lock is a symbolic link, not a lock this tool writes; it was treated as stale and never followed/,
      );
      assert.equal((await fs.lstat(lockFile)).isFile(), true);
      await lock.release();
      assert.equal(existsSync(lockFile), false);
    }
    assert.equal(await fs.readFile(outside, 'utf8'), 'untouched');
    assert.deepEqual(
      (await fs.readdir(path.dirname(lockFile))).filter((n) => n.includes('lock')),
      [],
    );
  });

  it('a folder or a huge file as the lock is stale in words: the folder moved aside untouched, the huge file never read', async () => {
    await fs.mkdir(lockFile);
    await fs.writeFile(path.join(lockFile, 'keep.txt'), 'keep');
    const notes: string[] = [];
    let lock = await acquireRunLock(root, id, (l) => notes.push(l));
    assert.match(notes.join('\n'), /\.driver\.lock is a folder, not a lock this tool writes; it was treated as stale/);
    const aside = (await fs.readdir(path.dirname(lockFile))).filter((n) => n.includes('stale'));
    assert.equal(await fs.readFile(path.join(path.dirname(lockFile), aside[0]!, 'keep.txt'), 'utf8'), 'keep');
    await lock.release();
    await fs.rm(path.join(path.dirname(lockFile), aside[0]!), { recursive: true });
    const fh = await fs.open(lockFile, 'w');
    await fh.truncate(2 * 1024 * 1024 * 1024); // sparse: 2 GB, never read
    await fh.close();
    notes.length = 0;
    lock = await acquireRunLock(root, id, (l) => notes.push(l));
    assert.match(notes.join('\n'), /\.driver\.lock is too large for a lock \(2048 MB\); it was treated as stale and not read/);
    await lock.release();
  });
});

describe('one driver per run: other writers of the record wait for no driver', function () {
  this.timeout(60_000);
  it("Commit Run's committedAt is not written while a process drives the run, and is once it is free", async () => {
    const mock = await MockOpenAI.start();
    try {
      const root = await makeReview({ options: 3, designers: 2 });
      const record = await startRun({
        reviewRoot: root,
        client: clientFor(mock),
        cacheDir: await makeTempDir('tf-cache-'),
        settings: { turnsPerAgent: 1, iterations: 1 },
      });
      assert.equal(record.status, 'completed', record.error);
      const lock = await acquireRunLock(root, record.id);
      await noteCommitted(root, record.id, new Date('2026-11-23T10:00:00Z'));
      assert.equal((await readRunRecord(root, record.id)).committedAt, undefined, 'nothing written under a live driver');
      await lock.release();
      await noteCommitted(root, record.id, new Date('2026-11-23T10:00:00Z'));
      assert.equal((await readRunRecord(root, record.id)).committedAt, '2026-11-23T10:00:00.000Z');
      assert.equal(existsSync(path.join(root, 'runs', record.id, LOCK_FILE)), false);
    } finally {
      await mock.close();
    }
  });
});

describe('one driver per run: two processes', function () {
  this.timeout(120_000);
  let mock: MockOpenAI;
  let env: Record<string, string>;
  before(async function () {
    builtCli();
    mock = await MockOpenAI.start();
    env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !/^(OPENAI_|TEAMFUSION_)/.test(k))),
      OPENAI_API_KEY: TEST_KEY,
      OPENAI_BASE_URL: mock.baseURL,
      XDG_CACHE_HOME: await makeTempDir('tf-xdg-'),
      TEAMFUSION_MAX_RETRIES: '0',
    } as Record<string, string>;
  });
  after(async () => mock?.close());
  beforeEach(() => mock?.reset());

  function run(args: string[]): {
    child: ChildProcess;
    done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  } {
    const child = spawn(process.execPath, [CLI_PATH, 'run', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.resume();
    return { child, done: new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr }))) };
  }

  it('a second "run --resume" while the first drives is refused in words, exit 1, and the first completes whole', async () => {
    const root = await makeReview({ options: 3, designers: 3 });
    // Two turns answered, then the first driver waits on the model while the second tries: however slow this machine.
    const release = mock.hold(() => turnRequests(mock).length > 2);
    const first = run([root, '--turns', '2', '--iterations', '2']);
    await waitFor('the first driver to ask its third turn', () => turnRequests(mock).length >= 3);
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    assert.equal(await isRunDriven(root, id), true);

    const lockBefore = await fs.readFile(path.join(root, 'runs', id, LOCK_FILE), 'utf8');
    const second = await run([root, '--resume', id]).done;
    assert.equal(await fs.readFile(path.join(root, 'runs', id, LOCK_FILE), 'utf8'), lockBefore, 'the first driver still holds its lock');
    assert.equal(second.code, 1, second.stderr);
    assert.match(second.stderr, new RegExp(`Run ${id} is being driven by another process \\(pid ${first.child.pid} on `));
    assert.equal(second.stderr.trim().split('\n').length, 1, 'one line');

    release();
    const r = await first.done;
    assert.equal(r.code, 0, r.stderr);
    const record = await runJson(root, id);
    assert.equal(record.status, 'completed');
    // 2 iterations × 3 designers × 2 turns, each asked exactly once: nobody paid twice.
    assert.equal(turnRequests(mock).length, 12);
    assert.equal(record.iterations.flatMap((it) => it.messages).length, 12);
    assert.equal(existsSync(path.join(root, 'runs', id, LOCK_FILE)), false, 'the lock is released');
    assert.deepEqual(mock.specErrors(), []);
  });

  it('after a hard kill (SIGKILL) the run shows as interrupted, and a resume takes it over and completes', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const release = mock.hold(() => turnRequests(mock).length > 2);
    const first = run([root, '--turns', '2', '--iterations', '2']);
    await waitFor('the driver to ask its third turn', () => turnRequests(mock).length >= 3);
    first.child.kill('SIGKILL');
    assert.equal((await first.done).signal, 'SIGKILL');
    const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
    const lock = JSON.parse(await fs.readFile(path.join(root, 'runs', id, LOCK_FILE), 'utf8')) as { pid: number };
    assert.equal(lock.pid, first.child.pid, 'the killed driver left its lock');
    assert.equal(await isRunDriven(root, id), false);
    assert.deepEqual([...(await interruptedRuns(root, [{ id, status: 'running' }]))], [id]);

    release();
    const resumed = await run([root, '--resume', id]).done;
    assert.equal(resumed.code, 0, resumed.stderr);
    const record = await runJson(root, id);
    assert.equal(record.status, 'completed');
    assert.equal(existsSync(path.join(root, 'runs', id, LOCK_FILE)), false);
  });
});
