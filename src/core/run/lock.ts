/**
 * One driver per run. While a process drives a run (start, resume, refine) it holds `runs/<id>/.driver.lock`, a small
 * JSON file { pid, hostname, startedAt, nonce } created atomically with its content (written beside it, then hard-linked
 * to the lock name, which fails when a lock is there: O_EXCL semantics, and never through a symlink). Another process
 * that wants to drive the same run is refused in words and changes nothing.
 *
 * A lock whose holder is gone is taken over by the next driver:
 *   - same host: the holder's pid no longer exists (`process.kill(pid, 0)` → ESRCH);
 *   - another host (a shared or cloned folder): the holder refreshes the lock's mtime every HEARTBEAT_MS while it drives;
 *     a lock not refreshed for STALE_MS is stale.
 * `isRunDriven` tells others (the panel: "interrupted" rather than "running"; `say`/`pin` from another process, which
 * hand their message to the driver) whether a live driver holds a run.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as z from 'zod';
import { ReviewFileError, mkdirInReview, printable, readReviewText, statInReview } from '../files/reviewFiles';

export const LOCK_FILE = '.driver.lock';
/** How often a driver refreshes its lock's mtime. */
export const HEARTBEAT_MS = 15_000;
/** A lock of another host not refreshed for this long is stale. */
export const STALE_MS = 120_000;
const LOCK_MAX_BYTES = 4096;

export const DriverInfoSchema = z.object({
  pid: z.number().int().positive(),
  hostname: z.string().max(255),
  startedAt: z.string().max(64),
  /** Random, so a takeover can tell the lock it judged stale from a fresh one put there meanwhile. */
  nonce: z.string().max(64),
});
export type DriverInfo = z.infer<typeof DriverInfoSchema>;

/** Another process drives the run. The message says who, since when, and what to do. */
export class RunDrivenError extends Error {
  constructor(
    readonly runId: string,
    readonly driver: DriverInfo | undefined,
  ) {
    super(
      driver
        ? `Run ${runId} is being driven by another process (pid ${driver.pid} on ${printable(driver.hostname)}, since ${printable(driver.startedAt)}); ` +
            'it is not resumed twice. Wait for it to finish, or cancel it there.'
        : `Run ${runId} is being driven by another process; it is not resumed twice.`,
    );
    this.name = 'RunDrivenError';
  }
}

/** A held lock: refreshed while held, removed by release() (idempotent). */
export interface RunLock {
  readonly info: DriverInfo;
  release(): Promise<void>;
}

const lockRel = (runId: string): string => `runs/${runId}/${LOCK_FILE}`;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/** The holder written in the lock, or undefined when there is no lock (an unreadable lock reads as `{ unreadable }`). */
async function readLock(root: string, runId: string): Promise<{ info?: DriverInfo; mtimeMs: number } | undefined> {
  let st;
  try {
    st = await statInReview(root, lockRel(runId));
  } catch {
    return { mtimeMs: Date.now() }; // a lock that leads outside: never followed, never taken over silently
  }
  if (!st) return undefined;
  try {
    const parsed = DriverInfoSchema.safeParse(JSON.parse(await readReviewText(root, lockRel(runId), LOCK_MAX_BYTES)));
    return { info: parsed.success ? parsed.data : undefined, mtimeMs: st.mtimeMs };
  } catch (err) {
    if (err instanceof ReviewFileError && err.reason === 'missing') return undefined;
    return { mtimeMs: st.mtimeMs };
  }
}

/** True when the lock's holder is certainly gone. */
function isStale(lock: { info?: DriverInfo; mtimeMs: number }, now = Date.now()): boolean {
  if (lock.info && lock.info.hostname === os.hostname()) return lock.info.pid !== process.pid && !pidAlive(lock.info.pid);
  return now - lock.mtimeMs > STALE_MS;
}

/** Whether a live process drives the run now (a stale lock, or none, says no). */
export async function isRunDriven(root: string, runId: string): Promise<boolean> {
  const lock = await readLock(root, runId);
  return lock !== undefined && !isStale(lock);
}

/** The live driver of a run, if any. */
export async function runDriver(root: string, runId: string): Promise<DriverInfo | undefined> {
  const lock = await readLock(root, runId);
  return lock && !isStale(lock) ? lock.info : undefined;
}

/**
 * Takes the run's lock, or throws RunDrivenError when a live driver holds it. A stale lock is taken over. The run folder
 * must exist (it is created, contained, when missing).
 */
export async function acquireRunLock(root: string, runId: string): Promise<RunLock> {
  const dir = await mkdirInReview(root, `runs/${runId}`);
  const target = path.join(dir, LOCK_FILE);
  const info: DriverInfo = { pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString(), nonce: randomBytes(8).toString('hex') };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await tryCreate(dir, target, info)) return held(target, info);
    const lock = await readLock(root, runId);
    if (!lock) continue; // released meanwhile: try again
    if (!isStale(lock)) throw new RunDrivenError(runId, lock.info);
    await takeOver(dir, target, lock.info);
  }
  throw new RunDrivenError(runId, (await readLock(root, runId))?.info);
}

/** Creates the lock with its content in one step; false when a lock is there. */
async function tryCreate(dir: string, target: string, info: DriverInfo): Promise<boolean> {
  const tmp = path.join(dir, `${LOCK_FILE}.${info.nonce}.tmp`);
  const handle = await fs.open(tmp, 'wx');
  try {
    await handle.writeFile(`${JSON.stringify(info)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.link(tmp, target);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    await fs.rm(tmp, { force: true });
  }
}

/** Moves a stale lock aside; if what was moved is not the lock judged stale (a new driver came first), it is put back. */
async function takeOver(dir: string, target: string, stale: DriverInfo | undefined): Promise<void> {
  const aside = path.join(dir, `${LOCK_FILE}.stale-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await fs.rename(target, aside);
  } catch {
    return; // gone already
  }
  let moved: DriverInfo | undefined;
  try {
    if (!(await fs.lstat(aside)).isFile()) throw new Error('not a file');
    moved = DriverInfoSchema.safeParse(JSON.parse(await fs.readFile(aside, 'utf8'))).data;
  } catch {
    moved = undefined;
  }
  if (stale && moved?.nonce !== stale.nonce) await fs.link(aside, target).catch(() => undefined);
  await fs.rm(aside, { force: true });
}

function held(target: string, info: DriverInfo): RunLock {
  const timer = setInterval(() => {
    const now = new Date();
    void fs.lutimes(target, now, now).catch(() => undefined);
  }, HEARTBEAT_MS);
  timer.unref();
  let released = false;
  return {
    info,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      // Remove it only while it is still ours.
      try {
        if (!(await fs.lstat(target)).isFile()) return;
        const current = DriverInfoSchema.safeParse(JSON.parse(await fs.readFile(target, 'utf8'))).data;
        if (current?.nonce === info.nonce) await fs.rm(target, { force: true });
      } catch {
        // already gone
      }
    },
  };
}

/** Runs `fn` while holding the run's lock (released afterwards, whatever happens). */
export async function withRunLock<T>(root: string, runId: string, fn: () => Promise<T>): Promise<T> {
  const lock = await acquireRunLock(root, runId);
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}

/** Of these runs, the ids of those "running" on disk that no live process drives (killed): interrupted, resumable. */
export async function interruptedRuns(root: string, runs: readonly { id: string; status: string }[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const r of runs) if (r.status === 'running' && !(await isRunDriven(root, r.id))) out.add(r.id);
  return out;
}
