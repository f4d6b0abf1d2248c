/**
 * The driver of a run going through the team's git remote (`run --sync`, the VS Code setting): the runner calls it at
 * turn boundaries and nothing else.
 *   - pull(): before a turn and while waiting for a person; no more often than the interval; fast-forward or rebase.
 *     What the pull brings is checked: a file the driver alone writes (run.json, transcript.md, result.md, prompts,
 *     journal, iteration folders) changed by someone else stops the run (SyncStopError) without writing through it.
 *   - saved(record): after each saved turn and each change of status, commits the run folder ("TeamFusion <run-id>:
 *     iteration k, <speaker> turn t") and pushes, pulling and retrying when the push is rejected.
 * A sync that cannot happen (no upstream, an unreachable remote, a failing push) never stops the run: it says once
 * "not synced: <reason>" and tries again at the next boundary; the commits wait locally and a later push delivers them.
 * A conflict is never resolved here: SyncStopError names the file.
 */
import * as path from 'node:path';
import { allMessages, type RunRecord } from '../record/record';
import { readRunRecord } from '../record/store';
import { RECORD_FILE, RUNS_DIR, driverOwned } from '../record/paths';
import { LOCK_FILE } from '../record/lock';
import { SyncConflictError, SyncError, pushWithRetry, upstreamName, type GitTransport, type PullResult } from './transport';
import { errorMessage } from '../kernel/errors';

/** The run must stop because of what the remote holds (a conflict, a file only the driver writes changed elsewhere). */
export class SyncStopError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SyncStopError';
  }
}

export const DEFAULT_SYNC_INTERVAL_S = 10;

export interface SyncState {
  /** "origin/main". */
  remote?: string;
  /** When the last pull or push went through (ISO time). */
  lastSyncAt?: string;
  /** Why the last attempt did not go through (undefined when it did). */
  problem?: string;
}

export interface RunSyncOptions {
  /** The transport, or why there is none (e.g. the review is not in a git repository). */
  transport: GitTransport | { unavailable: string };
  reviewRoot: string;
  /** Minimum time between two pulls. */
  intervalMs: number;
  /** A line for the user ("not synced: …"). */
  log: (line: string) => void;
  /** Told after every attempt (the panel's "live from <remote>"). */
  onState?: (s: SyncState) => void;
  now?: () => number;
}

export class RunSync {
  private queue: Promise<unknown> = Promise.resolve();
  private lastPull = Number.NEGATIVE_INFINITY;
  private reported: string | undefined;
  private readonly pulledAdded: string[] = [];
  private readonly pulledDeleted: string[] = [];
  private runId: string | undefined;
  private stopped: SyncStopError | undefined;
  private committed: CommittedShape | undefined;
  readonly state: SyncState = {};

  constructor(private readonly o: RunSyncOptions) {}

  /** The run this driver drives (its folder is what it commits). */
  attach(runId: string): void {
    this.runId = runId;
  }

  /** Review-relative paths of inbox entries the pulls deleted since the last call (someone removed them, by hand or git rm). */
  takeDeletions(): string[] {
    return this.pulledDeleted.splice(0);
  }

  /** Review-relative paths of inbox entries the pulls brought since the last call, in order of arrival. */
  takeArrivals(): string[] {
    return this.pulledAdded.splice(0);
  }

  /** Pulls when the interval has passed (or `force`). Throws SyncStopError; any other failure is "not synced". */
  pull(force = false): Promise<void> {
    return this.serial(async () => {
      const t = this.transport();
      if (!t) return;
      const now = this.now();
      if (!force && now - this.lastPull < this.o.intervalMs) return;
      this.lastPull = now;
      await this.attempt(t, async () => {
        const r = await t.pull();
        await this.check(t, r);
        // Something committed locally while the remote was away goes out now.
        if ((await t.ahead()) > 0) await pushWithRetry(t, (p) => this.check(t, p));
      });
    });
  }

  /** Commits the run folder with a message that says what happened, and pushes. */
  saved(record: RunRecord): Promise<void> {
    return this.serial(async () => {
      const t = this.transport();
      if (!t) return;
      const dir = path.join(this.o.reviewRoot, RUNS_DIR, record.id);
      await this.attempt(t, async () => {
        // What the last commit recorded, so the next says what it adds (a record saved again after a turn is not that turn).
        if (await t.commit([dir], commitMessage(record, this.committed), [path.join(dir, LOCK_FILE)])) this.committed = shapeOf(record);
        await pushWithRetry(t, (p) => this.check(t, p));
      });
    });
  }

  private transport(): GitTransport | undefined {
    if (this.stopped) throw this.stopped;
    if ('unavailable' in this.o.transport) {
      this.notSynced(this.o.transport.unavailable);
      return undefined;
    }
    return this.o.transport;
  }

  private async attempt(t: GitTransport, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
      // The upstream's name is asked once (it went through, so there is one).
      if (this.state.remote === undefined) {
        const s = await t.status();
        this.state.remote = s.upstream ? upstreamName(s) : undefined;
      }
      this.state.lastSyncAt = new Date(this.now()).toISOString();
      this.state.problem = undefined;
      if (this.reported) this.o.log(`synced again with ${this.state.remote ?? 'the remote'}.`);
      this.reported = undefined;
      this.o.onState?.({ ...this.state });
    } catch (err) {
      if (err instanceof SyncConflictError) throw this.stop(err.message);
      if (err instanceof SyncStopError) throw err;
      if (err instanceof SyncError) {
        this.notSynced(err.message);
        return;
      }
      throw err;
    }
  }

  private notSynced(reason: string): void {
    this.state.problem = reason;
    if (this.reported === reason) return;
    // Said once per reason; the next boundary tries again.
    if (this.reported === undefined) this.o.log(`not synced: ${reason}; the run goes on here and tries again at the next turn.`);
    this.reported = reason;
    this.o.onState?.({ ...this.state });
  }

  private stop(message: string): SyncStopError {
    this.stopped = new SyncStopError(message);
    return this.stopped;
  }

  /** What a pull brought into this run's folder: inbox entries are queued in order of arrival; driver files stop the run. */
  private async check(t: GitTransport, r: PullResult): Promise<void> {
    if (r.note) this.o.log(`${r.note[0]!.toUpperCase()}${r.note.slice(1)}.`);
    if (!r.changed || !this.runId) return;
    const runRel = `${RUNS_DIR}/${this.runId}/`;
    const inRun = (abs: string): string | undefined => {
      const rel = path.relative(this.o.reviewRoot, abs).split(path.sep).join('/');
      return rel.startsWith(runRel) ? rel.slice(runRel.length) : undefined;
    };
    for (const abs of r.addedFiles) {
      const f = inRun(abs);
      if (f?.startsWith('inbox/')) this.pulledAdded.push(`${runRel}${f}`);
    }
    for (const abs of r.deletedFiles ?? []) {
      const f = inRun(abs);
      if (f?.startsWith('inbox/')) this.pulledDeleted.push(`${runRel}${f}`);
    }
    const touched = r.changedFiles.map(inRun).filter((f): f is string => f !== undefined && driverOwned(f));
    if (!touched.length) return;
    const file = `${runRel}${touched[0]}`;
    let why = '';
    if (touched.includes(RECORD_FILE)) {
      const problem = await recordProblem(this.o.reviewRoot, this.runId);
      if (problem) why = ` (and it is not a valid run record: ${problem})`;
    }
    const s = await t.status().catch(() => undefined);
    throw this.stop(
      `A pull from ${s ? upstreamName(s) : 'the remote'} changed ${file}${why}, which only the process driving run ${this.runId} writes; ` +
        'the run stops here without writing over it. See who changed it with `git log -p -- ' +
        file +
        '`, revert that commit, then resume with --sync.',
    );
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private now(): number {
    return this.o.now ? this.o.now() : Date.now();
  }
}

async function recordProblem(reviewRoot: string, runId: string): Promise<string | undefined> {
  try {
    await readRunRecord(reviewRoot, runId); // the same check as any record read from disk
    return undefined;
  } catch (err) {
    return errorMessage(err);
  }
}

/** What a commit of the run folder recorded, to say what the next one adds (a turn, a status, a remix, pins). */
export interface CommittedShape {
  status: RunRecord['status'];
  iterations: number;
  messages: number;
  remixes: number;
  pins: number;
}

export function shapeOf(record: RunRecord): CommittedShape {
  return {
    status: record.status,
    iterations: record.iterations.length,
    messages: allMessages(record).length,
    remixes: record.iterations.reduce((n, it) => n + (it.remixes?.length ?? (it.remix ? 1 : 0)), 0),
    pins: record.pins?.length ?? 0,
  };
}

/**
 * "TeamFusion <run-id>: iteration k, <speaker> turn t", or the status the run is in. Given what the previous commit
 * recorded, a save that adds no turn and changes no status says what it adds instead (the remix, the transcript and result,
 * pins): one commit per turn, a turn's subject never repeated by what is saved after it.
 */
export function commitMessage(record: RunRecord, previous?: CommittedShape): string {
  const head = `TeamFusion ${record.id}`;
  const now = shapeOf(record);
  const index = record.iterations.at(-1)?.index ?? 0;
  const statusChanged = !previous || previous.status !== record.status;
  const newMessage = !previous || now.messages > previous.messages;
  if (record.status === 'waiting' && record.waitingFor && (statusChanged || newMessage)) {
    const w = record.waitingFor;
    return `${head}: iteration ${w.iteration}, waiting for ${w.speaker} turn ${w.turn}`;
  }
  if (record.status !== 'running' && record.status !== 'waiting')
    return statusChanged ? `${head}: ${record.status}` : `${head}: ${record.status}, transcript and result`;
  if (record.status === 'running') {
    const last = allMessages(record).at(-1);
    if (last && newMessage) {
      const m = last.message;
      const turn = m.turn === null || m.turn === undefined ? (m.kind === 'guest' ? 'guest turn' : 'extra turn') : `turn ${m.turn}`;
      return `${head}: iteration ${last.iteration}, ${m.speaker} ${turn}`;
    }
    if (statusChanged || now.iterations > previous.iterations)
      return `${head}: ${record.iterations.length ? `iteration ${record.iterations.length} started` : 'started'}`;
  }
  if (previous && now.remixes > previous.remixes) return `${head}: iteration ${index}, remix`;
  if (previous && now.pins !== previous.pins) return `${head}: iteration ${index}, pins`;
  return `${head}: iteration ${index}, record saved`;
}
