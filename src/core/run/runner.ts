/**
 * The engine of a TeamFusion run: the record, the loop over a task's rounds (design: designTask.ts, brief: briefTask.ts),
 * people, one driver per run, cost, prompts by reference. The record (run.json) is the single source of truth: every step
 * reads what is done from it and writes its result back, so a resume simply runs the same loop again and skips what is
 * recorded. The engine is given what the one way into a run (session.ts, `runSession`) loaded: the review and, for a
 * resume or a refinement, the record; it reads neither again (a record is read again only when its files changed since).
 */
import { criteriaToSettle } from '../criteria/summary';
import { readCountedCriteriaFile } from '../criteria/file';
import type OpenAI from 'openai';
import type { ChatBackend, ImageBackend } from '../llm/backend';
import { ModelConfigError } from '../llm/client';
import type { Review } from '../review/model';
import { sameDesigner } from '../rankings/designerId';
import { teamConsensus } from './design/teamConsensus';
import { estimateCost, mergePrices, type PriceTable } from '../llm/pricing';
import type { StepContext } from '../step/context';
import { describeError, isAbort } from '../llm/errors';
import { ImagesUnavailableError, imagesUnavailableReason } from '../images/sharp';
import type { RunListener, RunEvent } from '../step/events';
import { discussionOf } from '../settings/discussionSettings';
import { PeopleInRun, WaitingStop } from '../people/driver';
import { peopleOf, teamOf } from '../people/team';
import { RUN_RECORD_VERSION, taskOf, type RunRecord, type RunSettings, type RunTaskKind } from '../record/record';
import { defaultTaskOf, runTask } from './tasks';
import { remixRoundDone } from './design/designTask';
import { resolveRunSettings } from './runSettings';
import { recordStill, writeRunRecord, type ReadRecord } from '../record/store';
import { createRunId, reviewRelative } from '../record/paths';
import { RecordWriter } from '../record/journal';
import { SETTING_BOUNDS } from '../settings/settingBounds';
import { resolveInReview } from '../files/reviewFiles';
import { checkWritable, mkdirInReview } from '../files/reviewWrites';
import { withRunLock } from '../record/lock';
import { withEndpoint } from '../record/endpoints';
import { CandidateChangedError, checkCandidates, withCandidateHashes } from './design/candidateHashes';
import { PromptPartsWriter } from '../record/promptParts';
import { checkRunWork, estimateRun } from './runEstimate';
import type { ConfirmCost } from '../llm/costQuestion';
import { SyncStopError, type RunSync } from '../sync/runSync';
import { backendsOf, checkedFirst, describeCandidate, partsAhead, textOnly } from './runBackends';
import { toRecordedMessages } from '../llm/messages';
import { checkSubset, mergeIds, participants, teamKendallW } from './runTeam';
import { zeroUsage } from '../kernel/usage';

export { listRuns, readRunRecord } from '../record/store';
export { planNextIteration, remixRoundDone } from './design/designTask';
export { defaultTaskOf, runTask } from './tasks';
export { SubsetError, checkSubset, participants } from './runTeam';
export { backendsOf } from './runBackends';

export interface RunnerOptions {
  reviewRoot: string;
  /** An `openai` SDK client for both chat and image edits (used for whichever of `chat` / `images` is not given). */
  client?: OpenAI;
  /** The chat backend (default: `client` through the openai SDK). */
  chat?: ChatBackend;
  /** The image-edit backend (default: `client` through the openai SDK). */
  images?: ImageBackend;
  settings?: Partial<RunSettings>;
  feedback?: string;
  signal?: AbortSignal;
  onEvent?: RunListener;
  log?: (line: string) => void;
  /** What a new run works on (default: defaultTaskOf the review); a resumed run keeps its recorded task. */
  task?: RunTaskKind;
  /** Cache of prepared images; default the OS cache folder (never inside the review). */
  cacheDir?: string;
  /** Merged over the built-in price table. */
  prices?: PriceTable;
  /** Designers who take over their proxy (added to review.yaml's `humans` and to those of a resumed run). */
  humans?: string[];
  /** Guests called in for the whole run: each speaks once per iteration, after the designers. */
  guests?: string[];
  /**
   * When a person's turn comes and someone can answer in this process (a terminal, a VS Code window): true holds the run
   * (status "waiting", the inbox polled) until the answer is there; false (default) stops it with status "waiting".
   */
  holdWhenWaiting?: boolean;
  /** The cost question (core/llm/costQuestion.ts), asked before a new run above its thresholds; without a yes nothing is sent. */
  confirm?: ConfirmCost;
  /** The run goes through the team's git remote (core/sync): pulls at turn boundaries, a commit + push per saved change. */
  sync?: RunSync;
  /** With holdWhenWaiting: stop with status "waiting" after this long without the person's answer. */
  maxWaitMs?: number;
  /**
   * Takes into the record (in memory) the decisions the members' own vote files make that it lacks, under the run's lock
   * before a resume or refine plans its next round; returns one sentence per decision (evaluation/votes/takeIn.ts).
   */
  takeInDecisions?: (review: Review, record: RunRecord) => Promise<string[]>;
}

/** The driver, holding the lock, records the team's decisions made by the votes since (issue 39). */
async function takeIn(o: RunnerOptions, review: Review, record: RunRecord): Promise<void> {
  for (const line of (await o.takeInDecisions?.(review, record)) ?? []) o.log?.(line);
}

/** Starts a new run on the review as loaded (runSession checked it can be run as this task). Model failures end as status 'failed'. */
export async function startRunOn(o: RunnerOptions, loaded: Review): Promise<RunRecord> {
  const task = runTask(o.task ?? defaultTaskOf(loaded));
  const unusable = task.unusable(loaded);
  if (unusable) throw new Error(unusable);
  const review = task.view(loaded);
  const settings = resolveRunSettings(o.settings, review.config);
  settings.lead = review.designers.find((d) => settings.lead !== undefined && sameDesigner(d.id, settings.lead))?.id;
  if (settings.lead === undefined) delete settings.lead;
  if (settings.designers) settings.designers = checkSubset(review, settings.designers);
  const backends = backendsOf(o);
  if (backends.chat.host) settings.endpoint = backends.chat.host;
  if (backends.images.host && backends.images.host !== backends.chat.host) settings.imageEndpoint = backends.images.host;
  if (backends.chat.provider !== 'openai') settings.chatProvider = backends.chat.provider;
  const now = new Date();
  const record: RunRecord = {
    version: RUN_RECORD_VERSION,
    id: createRunId(now),
    ...(task.kind === 'design' ? {} : { task: task.kind }),
    status: 'running',
    startedAt: now.toISOString(),
    updatedAt: now.toISOString(),
    settings,
    options: task.options(review),
    ...(task.kind === 'design' && review.references?.length
      ? { references: review.references.map((r) => ({ id: r.id, label: r.label, file: r.file, ...(r.note ? { note: r.note } : {}) })) }
      : {}),
    iterations: [],
    usage: zeroUsage(),
    prompts: [],
  };
  record.options = await withCandidateHashes(review.root, record.options);
  const w = task.kind === 'design' ? teamKendallW(review, settings.designers) : undefined;
  if (w !== undefined) record.kendallW = w;
  const consensus = task.kind === 'design' ? teamConsensus(participants(review, settings), review.options, settings.consensus) : undefined;
  if (consensus) record.consensus = consensus;
  // A current criteria.json (teamfusion criteria): its most controversial criteria are the points the proxies settle.
  const offered = await criteriaToSettle(review);
  if (offered) record.criteria = { offered };
  // Validation first (nothing is sent for an unknown person); then the image endpoint is checked before any paid request.
  mergeIds(
    undefined,
    review.config.humans,
    o.humans,
    review.designers.map((d) => d.id),
    'designer',
  );
  const guests = mergeIds(
    undefined,
    undefined,
    o.guests,
    (review.config.guests ?? []).map((g) => g.id),
    'guest',
  );
  await resolveInReview(review.root, reviewRelative(record.id, '')); // a runs/ that leads out is refused before anything is sent
  // Bounded work (runEstimate.ts): a run too large for a request is refused, a costly one asked for, before anything is built.
  await checkRunWork(estimateRun(review, task.kind, { ...settings, ...(guests ? { guests } : {}) }, o.prices), o.confirm, 'This run');
  // The first round's images are prepared while the image endpoint answers (its model list), not after it.
  const prepared = task.prepare?.(review.root, record, o.cacheDir);
  if (task.usesImages) await checkImageEndpoint(backends.images, record, o.signal);
  await prepared;
  return withRunLock(review.root, record.id, () => drive(o, review, record, false), o.log);
}

/**
 * Before a run spends anything: when it still has remixes to make, the image endpoint is asked (for free: its model list)
 * whether it can make them. One sentence naming the endpoint and the setting to change when it cannot (ModelConfigError).
 */
export async function checkImageEndpoint(images: ImageBackend, record: RunRecord, signal?: AbortSignal): Promise<void> {
  const made = record.iterations.filter((it) => !it.final && remixRoundDone(it)).length;
  if (record.settings.iterations - 1 - made <= 0 || !images.check) return;
  const problem = await images.check(record.settings.imageModel, signal);
  if (problem) throw new ModelConfigError(problem);
}

/**
 * Every file a run's driver may still write in its folder, checked writable before a resume or refine sends anything: the
 * record files, and in each round's folder its revised brief (a committed link at iteration-<k>/ is refused up front, not
 * after the round was paid for), and a brief run's baseline.
 */
export function driverOutputs(
  record: Pick<RunRecord, 'id' | 'task'> & { settings: Pick<RunSettings, 'iterations'> },
  rounds = record.settings.iterations,
): string[] {
  const files = ['run.json', 'journal.jsonl', 'prompts.jsonl', 'transcript.md', 'result.md'];
  for (let k = 1; k <= rounds; k++) files.push(`iteration-${k}/brief.md`);
  if (taskOf(record) === 'brief') files.push('baseline.md');
  return files.map((f) => reviewRelative(record.id, f));
}

/**
 * Continues a failed, cancelled or interrupted run from its record as read (`read`); recorded turns are never asked again.
 * One driver per run (lock.ts): refused while another process drives it; under the lock the record read is used unless its
 * files changed since (another driver ran meanwhile), then it is read again.
 */
export async function resumeRunOf(o: RunnerOptions, review: Review, read: ReadRecord): Promise<RunRecord> {
  return withRunLock(
    review.root,
    read.runId,
    async () => {
      const record = await recordStill(review.root, read, o.log);
      if (record.status === 'completed') return record;
      await checkWritable(review.root, driverOutputs(record)); // a link at an output is refused before anything is sent
      await takeIn(o, review, record);
      return drive(o, review, record, true);
    },
    o.log,
  );
}

/**
 * Adds one round to a completed run, with the lead's feedback: a remix iteration over the top 2 of the last ranking
 * (→ a new remix), followed by a final-pick discussion over those two and the new remix, which updates `finalPick`.
 * (Two iteration entries: the remix round and the closing pick, so the pick is the team's, not automatic.)
 */
export async function refineRunOf(o: RunnerOptions, review: Review, read: ReadRecord): Promise<RunRecord> {
  return withRunLock(
    review.root,
    read.runId,
    async () => {
      const record = await recordStill(review.root, read);
      const runId = read.runId;
      if (record.status !== 'completed') {
        throw new Error(`Run ${runId} is ${record.status}; only a completed run can be refined (resume it first).`);
      }
      const max = SETTING_BOUNDS.iterations.max;
      // A design refinement is a remix round and a closing pick; a brief refinement is one more round.
      const adds = taskOf(record) === 'brief' ? 1 : 2;
      if (record.iterations.length + adds > max) {
        throw new Error(
          `Run ${runId} has ${record.iterations.length} iterations; a refinement adds ${adds === 1 ? 'one' : 'two'}, and a run has at most ${max}. Start a new run instead.`,
        );
      }
      await checkWritable(review.root, driverOutputs(record, record.iterations.length + adds)); // a link at an output is refused before anything is sent
      await takeIn(o, review, record);
      record.settings.iterations = record.iterations.length + adds;
      record.finalPick = undefined;
      return drive(o, review, record, true);
    },
    o.log,
  );
}

async function drive(o: RunnerOptions, loaded: Review, record: RunRecord, resumed: boolean): Promise<RunRecord> {
  const task = runTask(taskOf(record));
  const unusable = task.unusable(loaded);
  if (unusable) throw new Error(unusable);
  const review = task.view(loaded);
  // A take-over holds for the rest of the run: the run's humans and guests only grow.
  record.settings.humans = mergeIds(
    record.settings.humans,
    review.config.humans,
    o.humans,
    review.designers.map((d) => d.id),
    'designer',
  );
  record.settings.guests = mergeIds(
    record.settings.guests,
    undefined,
    o.guests,
    (review.config.guests ?? []).map((g) => g.id),
    'guest',
  );
  const dir = await mkdirInReview(review.root, reviewRelative(record.id, ''));
  const prices = mergePrices(o.prices);
  const emit = (e: RunEvent): void => {
    try {
      o.onEvent?.(e);
    } catch {
      // A listener's failure never stops the run.
    }
  };
  const ctx = await stepContext(o, review, record, resumed, dir, prices, emit);
  try {
    // The files name everyone who may speak; the stance table covers the designers taking part.
    const people = peopleOf(review).map((p) =>
      'topChoice' in p && !ctx.designers.some((d) => d.id === p.id) ? { ...p, topChoice: undefined } : p,
    );

    record.status = 'running';
    record.waitingFor = undefined;
    record.error = undefined;
    for (const it of record.iterations) it.error = undefined;
    await ctx.save();
    emit({ type: 'run-started', runId: record.id, runDir: dir, resumed });
    if (discussionOf(record.settings).hierarchy === 'lead-decides' && !ctx.designers.some((d) => d.id === record.settings.lead)) {
      emit({
        type: 'notice',
        runId: record.id,
        level: 'warning',
        message:
          'hierarchy is lead-decides, but the lead is not among the designers of this run; nobody settles the decision points, and the prompts say the team is flat.',
      });
    }

    try {
      // Every step of a design run sends images: without an image library it stops here, before any model call, in one sentence.
      const noImages = task.usesImages ? imagesUnavailableReason() : undefined;
      if (noImages) throw new ImagesUnavailableError(noImages);
      for (;;) {
        let it = record.iterations.at(-1);
        if (!it || task.isDone(ctx, it)) {
          if (record.iterations.length >= record.settings.iterations) break;
          it = task.planNext(record, o.feedback, (message) => emit({ type: 'notice', runId: record.id, level: 'info', message }));
          record.iterations.push(it);
          await ctx.save();
        }
        await checkCandidates(review.root, record.options); // before every round, and first thing on resume
        emit({ type: 'iteration-started', runId: record.id, iteration: it.index, candidates: it.candidates, final: it.final === true });
        await task.runIteration(ctx, review, it, o.cacheDir);
        await task.writeDeliverables(review.root, record, people);
      }
      // What people said while the last step ran is kept (in the last iteration) before the run closes.
      await ctx.people.intake();
      await task.finish(ctx, review, prices);
      record.finalPick = task.finalPick(record);
      record.status = 'completed';
    } catch (err) {
      if (stoppedBySync(err, record, o.signal, emit)) return record;
    }
    try {
      await ctx.save();
      await task.writeDeliverables(review.root, record, people).catch(() => undefined);
      await o.sync?.saved(record); // the deliverables written after the last save
    } catch (err) {
      if (!(err instanceof SyncStopError)) throw err;
      record.status = 'failed';
      record.error = err.message;
      emit({ type: 'notice', runId: record.id, level: 'error', message: err.message });
    }
    emit({ type: 'run-finished', runId: record.id, status: record.status, error: record.error });
    return record;
  } finally {
    await ctx.close(); // the journal and prompt parts held open for the run
  }
}

/** The context every step of the run is given: backends (checked and adapted), the record's writers and save, the people. */
async function stepContext(
  o: RunnerOptions,
  review: Review,
  record: RunRecord,
  resumed: boolean,
  dir: string,
  prices: PriceTable,
  emit: (e: RunEvent) => void,
): Promise<StepContext & { people: PeopleInRun; close: () => Promise<void> }> {
  // Both append-only files are held open for the run (a save is then a write and a sync each), except through git (sync),
  // whose pulls may replace them between saves.
  const hold = !o.sync;
  // Prompts are kept as parts in the append-only prompts.jsonl, so run.json stays small (promptParts.ts).
  const promptParts = await PromptPartsWriter.open(review.root, record.id, hold);
  // Turns go to the journal (synced) and run.json is rewritten whole at round boundaries and status changes (journal.ts).
  const writer = await RecordWriter.open(
    review.root,
    record.id,
    (r) => writeRunRecord(review.root, r, { validate: r.status !== 'running' }),
    hold,
  );
  const backends = backendsOf(o);
  // The backends as made (before the wrappers below): whether the scripted server answered them.
  const answeredBy = { ...backends };
  // A resumed run checks the image endpoint before its first chat request, once the record's files have been read.
  if (resumed) backends.chat = checkedFirst(backends.chat, () => checkImageEndpoint(backends.images, record, o.signal));
  // A text-only model gets each candidate as its label and what the designers wrote about it.
  if (!backends.chat.acceptsImages) backends.chat = textOnly(backends.chat, (file) => describeCandidate(review, record, file));
  // A prompt's parts are written while its request is in flight: the save after the answer syncs only the journal line.
  backends.chat = partsAhead(backends.chat, (messages) => promptParts.ahead(toRecordedMessages(messages)));
  // The save started behind the next model request (saveBehind), with what it reports once durable: at most one.
  let behind: Promise<void> | undefined;
  const settled = async (): Promise<void> => {
    const p = behind;
    if (!p) return;
    try {
      await p;
    } finally {
      if (behind === p) behind = undefined;
    }
  };
  const write = async (): Promise<void> => {
    record.updatedAt = new Date().toISOString();
    // Once scripted, always scripted: a resume or refine against a real endpoint does not make the canned turns real.
    // Part by part (endpoints.ts): `scripted` only when every part the run used was the scripted server.
    const imagesUsed = record.endpoints?.images !== undefined || record.prompts.some((p) => p.kind === 'image-edit');
    let marked = withEndpoint(record, 'chat', answeredBy.chat);
    if (imagesUsed) marked = withEndpoint(marked, 'images', answeredBy.images);
    record.endpoints = marked.endpoints;
    if (marked.scripted) record.scripted = true;
    else delete record.scripted;
    // VS Code's models are covered by the user's plan: only the image edits are priced.
    const priced = backends.chat.priced ? record.usage : { ...record.usage, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
    record.usage.costUsd = estimateCost(priced, record.settings, prices);
    promptParts.compact(record);
    await promptParts.flush();
    await writer.save(record, participants(review, record.settings).length);
    emit({ type: 'record-saved', runId: record.id, record });
    await o.sync?.saved(record);
  };
  const ctx: StepContext = {
    ...backends,
    record,
    settings: record.settings,
    designers: participants(review, record.settings),
    reviewRoot: review.root,
    runDir: dir,
    signal: o.signal,
    emit,
    log: o.log ?? (() => undefined),
    prices,
    async save() {
      await settled();
      await write();
    },
    settled,
  };
  // Through git (sync), each save is committed before the next pull: saves stay in line there.
  if (!o.sync) {
    ctx.saveBehind = (then) => {
      if (behind) throw new Error('Internal error: a save was started behind another one that is not settled.');
      const p = write().then(then);
      p.catch(() => undefined); // its failure is thrown by settled()
      behind = p;
    };
  }
  o.sync?.attach(record.id);
  const people = new PeopleInRun(ctx, teamOf(review, record), o.holdWhenWaiting === true, {
    sync: o.sync,
    maxWaitMs: o.maxWaitMs,
    criteria: async () => (await readCountedCriteriaFile(review.root))?.criteria,
  });
  const close = async (): Promise<void> => {
    await settled().catch(() => undefined);
    await Promise.all([promptParts.close(), writer.close()]);
  };
  return Object.assign(ctx, { people, close });
}

/** Records why the run stopped (waiting, cancelled, failed). True when a sync stop ended it: the record on disk is kept
 * as it is and the run is over (finished event sent). */
function stoppedBySync(err: unknown, record: RunRecord, signal: AbortSignal | undefined, emit: (e: RunEvent) => void): boolean {
  const current = record.iterations.at(-1);
  if (err instanceof SyncStopError) {
    // What the remote brought is not written over: the record on disk stays as it is; the run is resumable once fixed.
    record.status = 'failed';
    record.error = err.message;
    emit({ type: 'notice', runId: record.id, level: 'error', message: err.message });
    emit({ type: 'run-finished', runId: record.id, status: record.status, error: record.error });
    return true;
  }
  if (err instanceof WaitingStop) {
    record.status = 'waiting';
    record.waitingFor = err.waitingFor;
  } else if (isAbort(err, signal)) {
    record.status = 'cancelled';
    record.error = 'The run was cancelled; resume it to continue where it stopped.';
  } else {
    record.status = 'failed';
    record.error = err instanceof CandidateChangedError ? err.message : describeError(err, 'A model request');
    if (current) current.error = record.error;
    emit({ type: 'notice', runId: record.id, level: 'error', message: record.error });
  }
  return false;
}
