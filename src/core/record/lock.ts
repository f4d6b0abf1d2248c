/**
 * One driver per run. While a process drives a run (start, resume, refine) it holds `runs/<id>/.driver.lock`, a small
 * JSON file { pid, hostname, startedAt, nonce } created atomically with its content (the file room's exclusive write:
 * made under a random name beside it, then hard-linked to the lock name, which fails when anything is there; never
 * through a link). Another process
 * that wants to drive the same run is refused in words and changes nothing.
 *
 * A lock whose holder is gone is taken over by the next driver:
 *   - same host: the holder's pid no longer exists (`process.kill(pid, 0)` → ESRCH);
 *   - another host (a shared or cloned folder): the holder refreshes the lock's mtime every HEARTBEAT_MS while it drives;
 *     a lock not refreshed for STALE_MS is stale.
 *   - something no driver writes (a link, dangling or not; a folder; a special or oversized file): stale at once, in
 *     words; never followed and never read whole.
 * `isRunDriven` tells others (the panel: "interrupted" rather than "running"; `say`/`pin` from another process, which
 * hand their message to the driver) whether a live driver holds a run.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as z from 'zod';
import { ReviewFileError, formatBytes } from '../files/reviewFiles';
import {
  mkdirInReview,
  moveAside,
  readOwnText,
  removeReviewFile,
  restoreAside,
  reviewFolder,
  touchReviewFile,
  writeReviewFile,
} from '../files/reviewWrites';
import { printable } from '../kernel/text';
import { checkKindText } from '../files/fileKinds';
import { errorMessage } from '../kernel/errors';

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

const lockRel = (runId: string, name = LOCK_FILE): string => `runs/${runId}/${name}`;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/** What sits at the lock's name: nothing, a lock (its holder when readable), or something no driver writes (`bogus`, in words). */
type LockState = { info?: DriverInfo; mtimeMs: number; bogus?: string };

/**
 * The lock as it is on disk, looked at without following a link at any level and read at most LOCK_MAX_BYTES (with
 * O_NOFOLLOW): a link (dangling or not), a folder, a special file or an oversized file is `bogus`, which is stale.
 */
async function readLock(root: string, runId: string, name = LOCK_FILE): Promise<LockState | undefined> {
  let dir: string;
  try {
    dir = await reviewFolder(root, `runs/${runId}`);
  } catch (err) {
    if (err instanceof ReviewFileError && err.reason === 'missing') return undefined;
    return { mtimeMs: 0, bogus: errorMessage(err) };
  }
  let st;
  try {
    st = await fs.lstat(path.join(dir, name));
  } catch {
    return undefined;
  }
  const file = lockRel(runId, name);
  if (st.isSymbolicLink())
    return { mtimeMs: 0, bogus: `${file} is a symbolic link, not a lock this tool writes; it was treated as stale and never followed.` };
  if (st.isDirectory()) return { mtimeMs: 0, bogus: `${file} is a folder, not a lock this tool writes; it was treated as stale.` };
  if (!st.isFile()) return { mtimeMs: 0, bogus: `${file} is not a regular file; it was treated as stale.` };
  if (st.size > LOCK_MAX_BYTES)
    return { mtimeMs: 0, bogus: `${file} is too large for a lock (${formatBytes(st.size)}); it was treated as stale and not read.` };
  let text: string;
  try {
    text = await readOwnText(root, file, LOCK_MAX_BYTES);
    checkKindText(file, text, 'driverLock');
  } catch (err) {
    if (err instanceof ReviewFileError && err.reason === 'missing') return undefined;
    if (err instanceof ReviewFileError) return { mtimeMs: 0, bogus: `${err.message} The lock was treated as stale.` };
    throw err;
  }
  // A driver writes its lock whole in one step (tryCreate: made beside it, then linked), so a lock never holds half of
  // its content: anything that is not a driver's pid, host, time and nonce was not written by a driver, and is stale.
  let parsed;
  try {
    parsed = DriverInfoSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success)
    return {
      mtimeMs: 0,
      bogus: `${file} does not hold a driver's pid, host and start time, so no driver wrote it; it was treated as stale.`,
    };
  return { info: parsed.data, mtimeMs: st.mtimeMs };
}

/**
 * When the process with this pid started (ms since the epoch), where the system says (Linux /proc); undefined elsewhere.
 * A pid that started after the lock was written is not the driver that wrote it (the pid was reused).
 */
function processStartMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]); // field 22 of stat: start time in clock ticks after boot
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    if (!Number.isFinite(ticks) || !btime) return undefined;
    return Number(btime) * 1000 + (ticks / 100) * 1000;
  } catch {
    return undefined;
  }
}

/**
 * Why the lock's holder is certainly gone (the lock is stale), in words; undefined while a driver may hold it.
 * Same host: the pid is gone, or is a process that started after the lock was written (not the driver that wrote it).
 * Another host: not refreshed for STALE_MS.
 */
function staleReason(runId: string, lock: LockState, now = Date.now(), name = LOCK_FILE): string | undefined {
  if (lock.bogus) return lock.bogus;
  const file = lockRel(runId, name);
  const info = lock.info;
  if (info && info.hostname === os.hostname()) {
    if (info.pid === process.pid) return undefined;
    const who = `pid ${info.pid} on this host`;
    if (!pidAlive(info.pid)) return `${file} was left by ${who}, which is no longer running; it was treated as stale.`;
    const started = processStartMs(info.pid);
    const written = Date.parse(info.startedAt);
    // Ticks are coarse and the clock may have been set: only a start well after the lock's time counts.
    if (started !== undefined && Number.isFinite(written) && started > written + 5000) {
      return `${file} names ${who}, but that process started after the lock was written, so it is not the run's driver; the lock was treated as stale.`;
    }
    return undefined;
  }
  if (now - lock.mtimeMs > STALE_MS) {
    const host = info ? printable(info.hostname) : 'another host';
    return `${file} was written on ${host} and not refreshed for over ${Math.round(STALE_MS / 60_000)} minutes, so no driver holds it; it was treated as stale.`;
  }
  return undefined;
}

/** True when the lock's holder is certainly gone (or the lock is something no driver writes). */
function isStale(lock: LockState, runId: string, now = Date.now()): boolean {
  return staleReason(runId, lock, now) !== undefined;
}

/**
 * Whether a live process drives the run now (a stale lock, or none, says no). Only looks: `onNote` hears, in words, when
 * what stands at the lock's name is not a lock at all (the next driver moves it aside).
 */
export async function isRunDriven(root: string, runId: string, onNote?: (line: string) => void): Promise<boolean> {
  const lock = await readLock(root, runId);
  if (lock?.bogus) onNote?.(lock.bogus);
  return lock !== undefined && !isStale(lock, runId);
}

/** The live driver of a run, if any. */
export async function runDriver(root: string, runId: string): Promise<DriverInfo | undefined> {
  const lock = await readLock(root, runId);
  return lock && !isStale(lock, runId) ? lock.info : undefined;
}

/**
 * Takes the run's lock, or throws RunDrivenError when a live driver holds it. A stale lock is taken over (`onNote`
 * hears, in words, when what stood there was not a lock at all). The run folder must exist (it is created, contained,
 * when missing).
 */
export async function acquireRunLock(root: string, runId: string, onNote?: (line: string) => void): Promise<RunLock> {
  return acquireNamedLock(root, runId, LOCK_FILE, onNote);
}

/**
 * The same lock under another name in the run's folder (`.forecast.lock`: one forecast step at a time, beside a driver),
 * with the same takeover of a stale one; RunDrivenError names the holder when a live process has it.
 */
export async function acquireNamedLock(root: string, runId: string, name: string, onNote?: (line: string) => void): Promise<RunLock> {
  await mkdirInReview(root, `runs/${runId}`);
  const info: DriverInfo = {
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
    nonce: randomBytes(8).toString('hex'),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await tryCreate(root, runId, info, name)) return held(root, runId, info, name);
    const lock = await readLock(root, runId, name);
    if (!lock) continue; // released meanwhile: try again
    const stale = staleReason(runId, lock, Date.now(), name);
    if (!stale) throw new RunDrivenError(runId, lock.info);
    onNote?.(stale);
    await takeOver(root, runId, lock, name);
  }
  throw new RunDrivenError(runId, (await readLock(root, runId, name))?.info);
}

/** Creates the lock with its content in one step (exclusive: never over anything, never through a link); false when something is there. */
async function tryCreate(root: string, runId: string, info: DriverInfo, name: string): Promise<boolean> {
  try {
    await writeReviewFile(root, lockRel(runId, name), `${JSON.stringify(info)}\n`, { exclusive: true, sync: true });
    return true;
  } catch (err) {
    if (err instanceof ReviewFileError && (err.reason === 'invalid-path' || err.reason === 'outside' || err.reason === 'not-regular')) {
      const dir = await reviewFolder(root, `runs/${runId}`);
      if (
        await fs.lstat(path.join(dir, name)).then(
          () => true,
          () => false,
        )
      )
        return false;
    }
    throw err;
  }
}

/**
 * Moves a stale lock aside (the name itself: a link is never followed); if what was moved is not the lock judged stale
 * (a new driver came first), it is put back. A link or a file moved aside is then removed; a folder or a special file
 * stays aside, untouched (nothing of the review is deleted).
 */
async function takeOver(root: string, runId: string, stale: LockState, name: string): Promise<void> {
  const aside = await moveAside(root, lockRel(runId, name), `${name}-stale`);
  if (!aside) return; // gone already
  const dir = await reviewFolder(root, `runs/${runId}`);
  const st = await fs.lstat(path.join(dir, path.posix.basename(aside))).catch(() => undefined);
  if (!st || !(st.isFile() || st.isSymbolicLink())) return;
  if (!stale.bogus && stale.info && st.isFile()) {
    const moved = await readOwnText(root, aside, LOCK_MAX_BYTES).then(
      (t) => DriverInfoSchema.safeParse(JSON.parse(t)).data,
      () => undefined,
    );
    if (moved?.nonce !== stale.info.nonce) await restoreAside(root, aside, lockRel(runId, name));
  }
  await removeReviewFile(root, aside).catch(() => undefined);
}

function held(root: string, runId: string, info: DriverInfo, name: string): RunLock {
  const rel = lockRel(runId, name);
  const timer = setInterval(() => void touchReviewFile(root, rel).catch(() => undefined), HEARTBEAT_MS);
  timer.unref();
  let released = false;
  return {
    info,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      // Remove it only while it is still ours (read without following a link).
      try {
        const current = DriverInfoSchema.safeParse(JSON.parse(await readOwnText(root, rel, LOCK_MAX_BYTES))).data;
        if (current?.nonce === info.nonce) await removeReviewFile(root, rel);
      } catch {
        // already gone
      }
    },
  };
}

/** Runs `fn` while holding the run's lock (released afterwards, whatever happens). */
export async function withRunLock<T>(root: string, runId: string, fn: () => Promise<T>, onNote?: (line: string) => void): Promise<T> {
  const lock = await acquireRunLock(root, runId, onNote);
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
