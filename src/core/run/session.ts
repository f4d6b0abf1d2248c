/**
 * The one way into a run. The CLI's `run` and VS Code's run commands each turn what the user asked for into one
 * `RunRequest` (start, resume or refine; options; how to reach the models) and hand it to `runSession`, which resolves it
 * once: the review (with review.yaml's settings) is loaded once, a resumed or refined run's record is read once, and both
 * are passed down to the engine (runner.ts), whose steps never read them again. What the caller shows (the CLI's printer,
 * VS Code's progress and log) observes the run through a `RunObserver`.
 */
import type OpenAI from 'openai';
import type { ChatBackend, ImageBackend } from '../llm/backend';
import type { PriceTable } from '../llm/pricing';
import type { Diagnostic } from '../diagnostics/diagnostics';
import { loadReview } from '../review/loadReview';
import type { Review } from '../review/model';
import type { RunRecord, RunSettings, RunTaskKind } from '../record/record';
import { readRunRecordOnce } from '../record/store';
import { driversRecordRefusal, notDriverSentence } from '../record/recordAuthor';
import type { AuthorshipDoor } from '../authorship/door';
import type { RunListener } from '../step/events';
import type { RunSync } from '../sync/runSync';
import { refineRunOf, resumeRunOf, startRunOn, type RunnerOptions } from './runner';
import { checkSubset, rosterOf } from './runTeam';
import { defaultTaskOf, runTask } from './tasks';

export { listRuns, readRunRecord } from '../record/store';
export type { RunnerOptions } from './runner';

/** What a request asks for. */
export type RunWhat =
  /** A new run: its task (default: defaultTaskOf the review) and the settings chosen over review.yaml's. */
  | { kind: 'start'; task?: RunTaskKind; settings?: Partial<RunSettings> }
  /**
   * Continue a run. A completed one is returned as it is (`keep`, the default), refined with the request's feedback
   * (`refine`), or refused with RunCompletedError (`refuse`).
   */
  | { kind: 'resume'; runId: string; completed?: 'keep' | 'refine' | 'refuse' }
  /** One more round on a completed run, with the request's feedback. */
  | { kind: 'refine'; runId: string };

/** How a run reaches the models (and the team's remote), with the prices its cost is counted at. */
export interface RunMeans {
  /** An `openai` SDK client for whichever of `chat` / `images` is not given. */
  client?: OpenAI;
  chat?: ChatBackend;
  images?: ImageBackend;
  prices?: PriceTable;
  sync?: RunSync;
}

/** Everything else a request carries travels to the engine as it is (feedback, cancellation, the cost question, people…). */
type Carried = Omit<RunnerOptions, 'reviewRoot' | keyof RunMeans | 'settings' | 'task' | 'onEvent' | 'log'>;

export interface RunRequest extends Carried {
  reviewRoot: string;
  what: RunWhat;
  /** Given, or made once the review and the request are found good (a bad review is said before a missing key). */
  means: RunMeans | (() => Promise<RunMeans>);
  /** Decode every image while the review is loaded (the CLI validates them up front); default false. */
  decodeImages?: boolean;
}

/** What the caller hears, in this order: the review's diagnostics, the review, the record read, then the run's events. */
export interface RunObserver {
  /** Every diagnostic of the review as loaded (warnings too). */
  diagnostics?(found: readonly Diagnostic[]): void;
  /** The review, loaded and found runnable (before any model is reached). */
  loaded?(review: Review): void;
  /** A resumed or refined run's record, as read (once). */
  recordRead?(record: RunRecord): void;
  event?: RunListener;
  log?(line: string): void;
}

/** A request refused before anything was sent or written, in one sentence (`diagnosed`: the diagnostics said why already). */
export class RunRefusedError extends Error {
  constructor(
    message: string,
    readonly diagnosed = false,
  ) {
    super(message); // named plain "Error", as these refusals always were
  }
}

/** A resume of a completed run that asked for `completed: 'refuse'`. */
export class RunCompletedError extends Error {
  constructor(readonly runId: string) {
    super(`Run ${runId} is already completed.`);
    this.name = 'RunCompletedError';
  }
}

/** A usual-way review (issue 19, contract §6) is decided without TeamFusion: it never has a run. */
export const USUAL_WAY_HAS_NO_RUN =
  'This review was decided the usual way (condition: usual in review.yaml), so it has no run: record its decision with "teamfusion decide" or Record Team Decision…, or remove the condition to run TeamFusion on it.';

/**
 * Starts, resumes or refines a run. Rejects when the request cannot be run (RunRefusedError, SubsetError, a missing or
 * broken record, the models unreachable, the cost not confirmed); model failures during the run end as status 'failed'.
 */
export async function runSession(request: RunRequest, observer: RunObserver = {}): Promise<RunRecord> {
  const { review, authorship } = await loadRunnable(request, observer);
  observer.loaded?.(review);
  const { what } = request;
  if (what.kind === 'start') {
    const task = what.task ?? defaultTaskOf(review);
    const unusable = runTask(task).unusable(review);
    if (unusable) throw new RunRefusedError(unusable);
    const settings: Partial<RunSettings> = { ...what.settings };
    if (settings.designers) settings.designers = checkSubset(runTask(task).view(review), settings.designers);
    return startRunOn({ ...(await engineOptions(request, observer)), settings, task }, review);
  }
  // Only a record its driver wrote is continued (issue 39): run.json and the files only the driver writes, as committed.
  const refused = await driversRecordRefusal(review.root, what.runId, authorship);
  if (refused) throw new RunRefusedError(`Run ${what.runId} is not resumed or refined: ${refused.sentence}`);
  // …and only by its driver: anyone else's writes would make it refused everywhere, so they are refused before any is made.
  const notDriver = await notDriverSentence(review.root, what.runId, authorship);
  if (notDriver) throw new RunRefusedError(notDriver);
  const o = await engineOptions(request, observer);
  // Its journal is judged against the team of the review as loaded (review.yaml is not read again for it).
  const read = await readRunRecordOnce(review.root, what.runId, observer.log, rosterOf(review));
  observer.recordRead?.(read.record);
  const completed = read.record.status === 'completed';
  if (what.kind === 'resume' && completed && what.completed === 'refuse') throw new RunCompletedError(what.runId);
  const refine = what.kind === 'refine' || (completed && what.completed === 'refine');
  return refine ? refineRunOf(o, review, read) : resumeRunOf(o, review, read);
}

/** The review, loaded once (with the door that judged who wrote its files); refused in one sentence when it cannot be run. */
async function loadRunnable(request: RunRequest, observer: RunObserver): Promise<{ review: Review; authorship?: AuthorshipDoor }> {
  const { review, diagnostics, authorship } = await loadReview(request.reviewRoot, { decodeImages: request.decodeImages === true });
  observer.diagnostics?.(diagnostics);
  if (!review) {
    const first = diagnostics.find((d) => d.severity === 'error');
    throw new RunRefusedError(`The review cannot be run: ${first ? `${first.file}: ${first.message}` : 'it could not be read.'}`, true);
  }
  if (review.config.condition === 'usual') throw new RunRefusedError(USUAL_WAY_HAS_NO_RUN);
  return { review, ...(authorship ? { authorship } : {}) };
}

async function engineOptions(request: RunRequest, observer: RunObserver): Promise<RunnerOptions> {
  const { what: _what, means, decodeImages: _decode, ...carried } = request;
  const made = typeof means === 'function' ? await means() : means;
  const o: RunnerOptions = { ...carried, ...made };
  if (observer.event) o.onEvent = observer.event;
  if (observer.log) o.log = observer.log;
  return o;
}

/** `runSession` for a new run, with the engine's options in one object (the shorthand of the engine's own tests). */
export function startRun(o: RunnerOptions): Promise<RunRecord> {
  const { settings, task, ...rest } = o;
  return runSession(requestOf(rest, { kind: 'start', ...(task ? { task } : {}), ...(settings ? { settings } : {}) }), observerOf(o));
}

/** `runSession` resuming `runId` (a completed run is returned as it is). */
export function resumeRun(o: RunnerOptions & { runId: string }): Promise<RunRecord> {
  return runSession(requestOf(o, { kind: 'resume', runId: o.runId }), observerOf(o));
}

/** `runSession` refining the completed run `runId` with `feedback`. */
export function refineRun(o: RunnerOptions & { runId: string }): Promise<RunRecord> {
  return runSession(requestOf(o, { kind: 'refine', runId: o.runId }), observerOf(o));
}

function requestOf(o: Omit<RunnerOptions, 'settings' | 'task'> & { runId?: string }, what: RunWhat): RunRequest {
  const { client, chat, images, prices, sync, onEvent: _onEvent, log: _log, runId: _runId, ...carried } = o;
  const means: RunMeans = {
    ...(client ? { client } : {}),
    ...(chat ? { chat } : {}),
    ...(images ? { images } : {}),
    ...(prices ? { prices } : {}),
    ...(sync ? { sync } : {}),
  };
  return { ...carried, what, means };
}

function observerOf(o: Pick<RunnerOptions, 'onEvent' | 'log'>): RunObserver {
  return { ...(o.onEvent ? { event: o.onEvent } : {}), ...(o.log ? { log: o.log } : {}) };
}
