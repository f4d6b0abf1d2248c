/**
 * A TeamFusion run as a short sequence of named steps, repeated per iteration:
 *   represent  → prepare the candidates (small, deterministic images) and the shared prompt prefix
 *   discuss    → proxies speak round-robin (discussion.ts)
 *   remix      → the remix agent extracts consensus + editing directions as strict JSON (remixAgent.ts)
 *   edit       → the image-edit model makes the remix (imageEdit.ts)
 *   iterate    → next candidates = consensus top K + the new remix; the last iteration only picks one
 * The record (run.json) is the single source of truth: every step reads what is done from it and writes its result back,
 * so `resumeRun` simply runs the same loop again and skips what is recorded.
 */
import { criteriaToSettle } from '../criteria/summary';
import { readCriteriaFile } from '../criteria/file';
import type OpenAI from 'openai';
import type { ChatBackend, ImageBackend } from '../llm/backend';
import { withoutImages } from '../llm/messages';
import { OpenAIChatBackend, OpenAIImageBackend } from '../llm/openaiBackend';
import { ModelConfigError } from '../llm/client';
import { loadReview } from '../review/loadReview';
import type { Review } from '../review/model';
import { designerKey, sameDesigner } from '../rankings/designerId';
import { reviewRankMatrix } from '../stats/analysis';
import { kendallW } from '../stats/kendallW';
import { teamConsensus } from './teamConsensus';
import { prepareImage, readImageFile } from '../llm/images';
import { estimateCost, mergePrices, type PriceTable } from '../llm/pricing';
import type { StepContext } from '../step/context';
import { writeDeliverables } from './deliverables';
import { discussionDone, runDiscussion } from '../discussion/discussion';
import { describeError, isAbort } from '../llm/errors';
import { CancelledError, StepError } from '../kernel/errors';
import { ImagesUnavailableError, imagesUnavailableReason } from '../images/sharp';
import type { RunListener, RunEvent } from '../step/events';
import { maxEditImages, referencesForEdit, runImageEdit } from '../remix/imageEdit';
import { discussionOf } from '../settings/discussionSettings';
import { carryDecidedSides } from '../discussion/decisionWords';
import { earlierPeopleMessage, sharedPrefix, systemPrompt, type PromptCandidate, type PromptReference } from '../discussion/prompts';
import { PeopleInRun, WaitingStop } from '../people/driver';
import { earlierPeopleLines } from '../people/pins';
import { peopleOf, personName, teamOf } from '../people/team';
import { remixesOf, remixesWithDirections } from '../record/remixes';
import { RUN_RECORD_VERSION, taskOf, type Iteration, type RunRecord, type RunSettings, type RunTaskKind } from '../record/record';
import type { RunTask } from './task';
import { briefTask } from './briefTask';
import { narrowTo, runRemixAgent } from '../remix/remixAgent';
import { needsLeadDecision, runLeadDecision } from '../discussion/leadDecision';
import { forkDesignRound } from '../fork/designFork';
import { resolveRunSettings } from './runSettings';
import { readRunRecord, writeRunRecord } from '../record/store';
import { createRunId, reviewRelative } from '../record/paths';
import { RecordWriter } from '../record/journal';
import { SETTING_BOUNDS } from '../settings/settingBounds';
import { resolveInReview } from '../files/reviewFiles';
import { checkWritable, mkdirInReview } from '../files/reviewWrites';
import { withRunLock } from '../record/lock';
import { CandidateChangedError, checkCandidates, withCandidateHashes } from './candidateHashes';
import { PromptPartsWriter } from '../record/promptParts';
import { checkRunWork, estimateRun } from './runEstimate';
import type { ConfirmCost } from '../llm/costQuestion';
import { SyncStopError, type RunSync } from '../sync/runSync';

export { listRuns, readRunRecord } from '../record/store';

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
}

/** Starts a new run. Rejects only when the review cannot be read; model failures end as status 'failed'. */
export async function startRun(o: RunnerOptions): Promise<RunRecord> {
  const loaded = await loadValidReview(o.reviewRoot);
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
    usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, images: 0 },
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
  mergeIds(undefined, review.config.humans, o.humans, review.designers.map((d) => d.id), 'designer');
  const guests = mergeIds(undefined, undefined, o.guests, (review.config.guests ?? []).map((g) => g.id), 'guest');
  await resolveInReview(review.root, reviewRelative(record.id, '')); // a runs/ that leads out is refused before anything is sent
  // Bounded work (runEstimate.ts): a run too large for a request is refused, a costly one asked for, before anything is built.
  await checkRunWork(estimateRun(review, task.kind, { ...settings, ...(guests ? { guests } : {}) }, o.prices), o.confirm, 'This run');
  if (task.usesImages) await checkImageEndpoint(backends.images, record, o.signal);
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
export function driverOutputs(record: Pick<RunRecord, 'id' | 'task'> & { settings: Pick<RunSettings, 'iterations'> }, rounds = record.settings.iterations): string[] {
  const files = ['run.json', 'journal.jsonl', 'prompts.jsonl', 'transcript.md', 'result.md'];
  for (let k = 1; k <= rounds; k++) files.push(`iteration-${k}/brief.md`);
  if (taskOf(record) === 'brief') files.push('baseline.md');
  return files.map((f) => reviewRelative(record.id, f));
}

/** Continues a failed, cancelled or interrupted run from its record; recorded turns are never asked again. */
export async function resumeRun(o: RunnerOptions & { runId: string }): Promise<RunRecord> {
  const review = await loadValidReview(o.reviewRoot);
  await readRunRecord(o.reviewRoot, o.runId); // no such run, or a broken record: refused before anything is touched
  // One driver per run (lock.ts): refused while another process drives it; the record is read again under the lock.
  return withRunLock(review.root, o.runId, async () => {
    const record = await readRunRecord(o.reviewRoot, o.runId, o.log);
    if (record.status === 'completed') return record;
    await checkWritable(review.root, driverOutputs(record)); // a link at an output is refused before anything is sent
    return drive(o, review, record, true);
  }, o.log);
}

/**
 * Adds one round to a completed run, with the lead's feedback: a remix iteration over the top 2 of the last ranking
 * (→ a new remix), followed by a final-pick discussion over those two and the new remix, which updates `finalPick`.
 * (Two iteration entries: the remix round and the closing pick, so the pick is the team's, not automatic.)
 */
export async function refineRun(o: RunnerOptions & { runId: string; feedback?: string }): Promise<RunRecord> {
  const review = await loadValidReview(o.reviewRoot);
  await readRunRecord(o.reviewRoot, o.runId);
  return withRunLock(review.root, o.runId, () => refineLocked(o, review), o.log);
}

async function refineLocked(o: RunnerOptions & { runId: string; feedback?: string }, review: Review): Promise<RunRecord> {
  const record = await readRunRecord(o.reviewRoot, o.runId);
  if (record.status !== 'completed') {
    throw new Error(`Run ${o.runId} is ${record.status}; only a completed run can be refined (resume it first).`);
  }
  const max = SETTING_BOUNDS.iterations.max;
  // A design refinement is a remix round and a closing pick; a brief refinement is one more round.
  const adds = taskOf(record) === 'brief' ? 1 : 2;
  if (record.iterations.length + adds > max) {
    throw new Error(`Run ${o.runId} has ${record.iterations.length} iterations; a refinement adds ${adds === 1 ? 'one' : 'two'}, and a run has at most ${max}. Start a new run instead.`);
  }
  await checkWritable(review.root, driverOutputs(record, record.iterations.length + adds)); // a link at an output is refused before anything is sent
  record.settings.iterations = record.iterations.length + adds;
  record.finalPick = undefined;
  return drive(o, review, record, true);
}

/** The chat and image backends of a run: those given, else the openai SDK client's. */
export function backendsOf(o: Pick<RunnerOptions, 'client' | 'chat' | 'images'>): { chat: ChatBackend; images: ImageBackend } {
  const need = (what: string): OpenAI => {
    if (!o.client) throw new Error(`A run needs a ${what} backend or an openai client.`);
    return o.client;
  };
  return { chat: o.chat ?? new OpenAIChatBackend(need('chat')), images: o.images ?? new OpenAIImageBackend(need('image')) };
}

/** What a text-only model is told about a candidate: the designers' justifications, or what a remix was made from. */
function describeCandidate(review: Review, record: RunRecord, file: string): string | undefined {
  const reference = record.references?.find((r) => r.file === file);
  if (reference) return `A reference image the team chose for style, not a candidate${reference.note ? `: ${JSON.stringify(reference.note)}` : ''}`;
  const option = record.options.find((op) => op.file === file);
  if (!option) return undefined;
  const remix = record.iterations.flatMap((it) => remixesWithDirections(it)).find((m) => reviewRelative(record.id, m.file) === file);
  if (remix) {
    const from = (remix.from ?? []).map((id) => record.options.find((op) => op.id === id)?.label ?? id).join(', ');
    return `A remix made from ${from}${remix.editingDirections ? ` with these directions: ${remix.editingDirections.replace(/\s+/g, ' ').trim()}` : ''}`;
  }
  const said = review.designers
    .map((d) => ({ d, e: d.entries.find((e) => e.option === option.id) }))
    .filter((x) => x.e?.justification?.trim())
    .map((x) => `${x.d.name} (rank ${x.e!.rank}): ${x.e!.justification.trim()}`);
  return said.length ? `What the designers wrote about it — ${said.join('; ')}` : undefined;
}

function textOnly(chat: ChatBackend, describe: (file: string) => string | undefined): ChatBackend {
  return {
    provider: chat.provider,
    host: chat.host,
    acceptsImages: false,
    priced: chat.priced,
    chat: (req) => chat.chat({ ...req, messages: withoutImages(req.messages, describe) }),
  };
}

/** `chat` whose first request waits for `check` (run once; its failure fails that request and every later one). */
function checkedFirst(chat: ChatBackend, check: () => Promise<void>): ChatBackend {
  let checked: Promise<void> | undefined;
  return {
    provider: chat.provider,
    host: chat.host,
    acceptsImages: chat.acceptsImages,
    priced: chat.priced,
    async chat(req) {
      await (checked ??= check());
      return chat.chat(req);
    },
  };
}

async function loadValidReview(root: string): Promise<Review> {
  // Images are not decoded here: the CLI and the extension validate first, and preparing them fails in words anyway.
  const { review, diagnostics } = await loadReview(root, { decodeImages: false });
  if (!review) {
    const first = diagnostics.find((d) => d.severity === 'error');
    throw new Error(`The review cannot be run: ${first ? `${first.file}: ${first.message}` : 'it could not be read.'}`);
  }
  if (review.config.condition === 'usual') throw new Error(USUAL_WAY_HAS_NO_RUN);
  return review;
}

/** A usual-way review (issue 19, contract §6) is decided without TeamFusion: it never has a run. */
export const USUAL_WAY_HAS_NO_RUN =
  'This review was decided the usual way (condition: usual in review.yaml), so it has no run: record its decision with "teamfusion decide" or Record Team Decision…, or remove the condition to run TeamFusion on it.';

/** A run without `--task`: a brief run when the review has comments and no rankings, else a design run. */
export function defaultTaskOf(review: Pick<Review, 'comments' | 'designers'>): RunTaskKind {
  return review.comments.length > 0 && review.designers.length === 0 ? 'brief' : 'design';
}

/** The task of that kind (task.ts). */
export function runTask(kind: RunTaskKind): RunTask {
  return kind === 'brief' ? briefTask : designTask;
}

/** The design task: candidate images, rankings, remixes (the steps below). */
export const designTask: RunTask = {
  kind: 'design',
  usesImages: true,
  view: (review) => review,
  unusable(review) {
    if (review.designers.length > 0 && review.options.length > 0) return undefined;
    if (review.comments.length > 0) return 'A design run needs options/ and rankings/; this review has only comments on the brief (run it with --task brief).';
    return 'The review has no rankings, so there is nobody to discuss.';
  },
  options: (review) => review.options.map((op) => ({ id: op.id, label: op.label, file: op.file })),
  planNext: (record, feedback) => planNextIteration(record, feedback),
  runIteration: (ctx, review, it, cacheDir) => runIteration(ctx, review, it, cacheDir),
  isDone: (ctx, it) => isDone(ctx, it),
  finish: async () => undefined,
  finalPick: (record) => record.iterations.at(-1)?.ranking?.[0],
  writeDeliverables: (root, record, people) => writeDeliverables(root, record, people),
};

/** A `--designers` subset: known ids (any case), each once, at least two; returned in review order with the review's spelling. */
export function checkSubset(review: Pick<Review, 'designers'>, ids: readonly string[]): string[] {
  const known = new Map(review.designers.map((d) => [designerKey(d.id), d.id]));
  const unknown = ids.filter((id) => !known.has(designerKey(id)));
  if (unknown.length) {
    throw new SubsetError(`${unknown.map((u) => `"${u}"`).join(', ')} ${unknown.length === 1 ? 'is not a designer' : 'are not designers'} of this review (known: ${[...known.values()].join(', ')}).`);
  }
  const chosen = new Set(ids.map((id) => known.get(designerKey(id))!));
  if (chosen.size < 2) throw new SubsetError('A run needs at least two designers; name two or more.');
  return review.designers.map((d) => d.id).filter((id) => chosen.has(id));
}

export class SubsetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SubsetError';
  }
}

/** The designers taking part in a run (all of the review's, or the recorded subset), in review order. */
export function participants(review: Pick<Review, 'designers'>, settings: Pick<RunSettings, 'designers'>): Review['designers'] {
  if (!settings.designers) return review.designers;
  const chosen = new Set(settings.designers);
  return review.designers.filter((d) => chosen.has(d.id));
}

/**
 * Kendall's W of the team's own rankings (of the run's designers when a subset was chosen); undefined with fewer than two
 * designers (agreement needs a team).
 */
function teamKendallW(review: Review, subset?: readonly string[]): number | undefined {
  const designers = participants(review, { designers: subset ? [...subset] : undefined });
  if (designers.length < 2) return undefined;
  try {
    const w = kendallW(reviewRankMatrix({ ...review, designers })).w;
    return Number.isFinite(w) ? w : undefined;
  } catch {
    return undefined;
  }
}

async function drive(o: RunnerOptions, loaded: Review, record: RunRecord, resumed: boolean): Promise<RunRecord> {
  const task = runTask(taskOf(record));
  const unusable = task.unusable(loaded);
  if (unusable) throw new Error(unusable);
  const review = task.view(loaded);
  // A take-over holds for the rest of the run: the run's humans and guests only grow.
  record.settings.humans = mergeIds(record.settings.humans, review.config.humans, o.humans, review.designers.map((d) => d.id), 'designer');
  record.settings.guests = mergeIds(record.settings.guests, undefined, o.guests, (review.config.guests ?? []).map((g) => g.id), 'guest');
  const dir = await mkdirInReview(review.root, reviewRelative(record.id, ''));
  const prices = mergePrices(o.prices);
  const emit = (e: RunEvent): void => {
    try {
      o.onEvent?.(e);
    } catch {
      // A listener's failure never stops the run.
    }
  };
  // Prompts are kept as parts in the append-only prompts.jsonl, so run.json stays small (promptParts.ts).
  const promptParts = await PromptPartsWriter.open(review.root, record.id);
  // Turns go to the journal (synced) and run.json is rewritten whole at round boundaries and status changes (journal.ts).
  const writer = await RecordWriter.open(review.root, record.id, (r) => writeRunRecord(review.root, r, { validate: r.status !== 'running' }));
  const backends = backendsOf(o);
  // The backends as made (before the wrappers below): whether the scripted server answered them.
  const answeredBy = { ...backends };
  // A resumed run checks the image endpoint before its first chat request, once the record's files have been read.
  if (resumed) backends.chat = checkedFirst(backends.chat, () => checkImageEndpoint(backends.images, record, o.signal));
  // A text-only model gets each candidate as its label and what the designers wrote about it.
  if (!backends.chat.acceptsImages) backends.chat = textOnly(backends.chat, (file) => describeCandidate(review, record, file));
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
      record.updatedAt = new Date().toISOString();
      // Once scripted, always scripted: a resume or refine against a real endpoint does not make the canned turns real.
      if (answeredBy.chat.scripted === true || answeredBy.images.scripted === true) record.scripted = true;
      // VS Code's models are covered by the user's plan: only the image edits are priced.
      const priced = backends.chat.priced ? record.usage : { ...record.usage, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };
      record.usage.costUsd = estimateCost(priced, record.settings, prices);
      promptParts.compact(record);
      await promptParts.flush();
      await writer.save(record, participants(review, record.settings).length);
      emit({ type: 'record-saved', runId: record.id, record });
      await o.sync?.saved(record);
    },
  };
  o.sync?.attach(record.id);
  ctx.people = new PeopleInRun(ctx, teamOf(review, record), o.holdWhenWaiting === true, {
    sync: o.sync,
    maxWaitMs: o.maxWaitMs,
    criteria: async () => (await readCriteriaFile(o.reviewRoot))?.criteria,
  });
  // The files name everyone who may speak; the stance table covers the designers taking part.
  const people = peopleOf(review).map((p) => ('topChoice' in p && !ctx.designers.some((d) => d.id === p.id) ? { ...p, topChoice: undefined } : p));

  record.status = 'running';
  record.waitingFor = undefined;
  record.error = undefined;
  for (const it of record.iterations) it.error = undefined;
  await ctx.save();
  emit({ type: 'run-started', runId: record.id, runDir: dir, resumed });
  if (discussionOf(record.settings).hierarchy === 'lead-decides' && !ctx.designers.some((d) => d.id === record.settings.lead)) {
    emit({ type: 'notice', runId: record.id, level: 'warning', message: 'hierarchy is lead-decides, but the lead is not among the designers of this run; nobody settles the decision points, and the prompts say the team is flat.' });
  }

  try {
    // Every step of a design run sends images: without an image library it stops here, before any model call, in one sentence.
    const noImages = task.usesImages ? imagesUnavailableReason() : undefined;
    if (noImages) throw new ImagesUnavailableError(noImages);
    for (;;) {
      let it = record.iterations.at(-1);
      if (!it || task.isDone(ctx, it)) {
        if (record.iterations.length >= record.settings.iterations) break;
        it = task.planNext(record, o.feedback);
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
    const current = record.iterations.at(-1);
    if (err instanceof SyncStopError) {
      // What the remote brought is not written over: the record on disk stays as it is; the run is resumable once fixed.
      record.status = 'failed';
      record.error = err.message;
      emit({ type: 'notice', runId: record.id, level: 'error', message: err.message });
      emit({ type: 'run-finished', runId: record.id, status: record.status, error: record.error });
      return record;
    }
    if (err instanceof WaitingStop) {
      record.status = 'waiting';
      record.waitingFor = err.waitingFor;
    } else if (isAbort(err, o.signal)) {
      record.status = 'cancelled';
      record.error = 'The run was cancelled; resume it to continue where it stopped.';
    } else {
      record.status = 'failed';
      record.error = err instanceof CandidateChangedError ? err.message : describeError(err, 'A model request');
      if (current) current.error = record.error;
      emit({ type: 'notice', runId: record.id, level: 'error', message: record.error });
    }
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
}

function isDone(ctx: StepContext, it: Iteration): boolean {
  return discussionDone(ctx, it) && Boolean(it.ranking?.length) && (it.final === true || remixRoundDone(it)) && !needsLeadDecision(ctx, it);
}

/** A remix round is done when its one remix is made, or (several a round) every proposal has its remix. */
export function remixRoundDone(it: Iteration): boolean {
  if (it.remix) return true;
  if (!it.proposals?.length) return false;
  return it.proposals.every((p) => it.remixes?.some((m) => m.letter === p.letter));
}

/** The ids of a run's humans or guests: what it had, plus review.yaml's and the options' (spelt as the review spells them). */
function mergeIds(
  had: readonly string[] | undefined,
  fromReview: readonly string[] | undefined,
  fromOptions: readonly string[] | undefined,
  known: readonly string[],
  what: 'designer' | 'guest',
): string[] | undefined {
  const out: string[] = [...(had ?? [])];
  for (const id of [...(fromReview ?? []), ...(fromOptions ?? [])]) {
    const match = known.find((k) => sameDesigner(k, id));
    if (!match) throw new Error(`"${id}" is not a ${what} of this review (${what}s: ${known.join(', ') || 'none'}).`);
    if (!out.includes(match)) out.push(match);
  }
  return out.length ? out : undefined;
}

/** The iterate step: which candidates the next round discusses. */
export function planNextIteration(record: RunRecord, feedback?: string): Iteration {
  const index = record.iterations.length + 1;
  const final = index >= record.settings.iterations;
  const prev = record.iterations.at(-1);
  let candidates: string[];
  if (!prev) candidates = record.options.filter((op) => !isRemixFile(op.file)).map((op) => op.id);
  else if (prev.final || remixesOf(prev).length === 0) candidates = (prev.ranking ?? prev.candidates).slice(0, 2);
  // Narrowing keeps the top candidates plus every remix of that round.
  else candidates = [...(prev.ranking ?? []).slice(0, narrowTo(prev.index, prev.candidates.length)), ...remixesOf(prev).map((m) => m.id)];
  const it: Iteration = { index, candidates, messages: [] };
  if (final) it.final = true;
  if (feedback?.trim()) it.feedback = feedback.trim();
  return it;
}

/** Remixes live in the run folder; options in options/ (an option may well be called "r1"). */
function isRemixFile(file: string): boolean {
  return file.startsWith('runs/');
}

/** represent → discuss → remix → edit, each skipped when the record shows it done. */
async function runIteration(ctx: StepContext, review: Review, it: Iteration, cacheDir?: string): Promise<void> {
  const candidates = await represent(ctx, it, cacheDir);
  const references = await representReferences(ctx, cacheDir);
  const labelOf = (id: string): string => {
    const c = ctx.record.options.find((op) => op.id === id);
    return c ? (isRemixFile(c.file) ? `${c.label} (remix ${id})` : c.label) : id;
  };
  const previous = ctx.record.iterations.filter((x) => x.index < it.index);
  const system = systemPrompt(ctx.settings.prompts, {
    designers: ctx.designers,
    hierarchy: discussionOf(ctx.settings).hierarchy,
    lead: ctx.settings.lead,
    mode: discussionOf(ctx.settings).mode,
  });
  const shared = sharedPrefix({ system, brief: review.brief, candidates, previous, labelOf, feedback: it.feedback, references });
  const earlier = ctx.people ? earlierPeopleMessage(earlierPeopleLines(ctx.record, it.index, (id) => personName(ctx.people!.team, id))) : undefined;
  const prefix = earlier ? [...shared, earlier] : shared;

  await runDiscussion(ctx, { iteration: it, candidates, prefix, labelOf });
  if (!it.ranking?.length) {
    // While the remix agent thinks, read and fingerprint the files the edit may need (they are memoised).
    const warm = it.final ? undefined : Promise.all(candidates.map((c) => readImageFile(ctx.reviewRoot, c.file).catch(() => undefined)));
    await runRemixAgent(ctx, { iteration: it, candidates, prefix, references });
    await warm;
  }
  if (needsLeadDecision(ctx, it)) await runLeadDecision(ctx, it, prefix);
  // Sides people settled on earlier forks (a vote, or the lead in person) go into every edit of this round not yet made.
  if (carryDecidedSides(ctx.record.iterations, it)) await ctx.save();
  await forkDesignRound(ctx, it); // issue 33: one remix per side of a decision point that splits the team (core/fork)
  if (!it.final && it.proposals?.length) await runSeveralEdits(ctx, it);
  else if (!it.final && !it.remix) {
    const inputs = (it.ranking ?? []).map((id) => ({ id, file: ctx.record.options.find((op) => op.id === id)!.file }));
    await runImageEdit(ctx, { iteration: it, inputs, references: citedFor(ctx, it, inputs.length) });
  }
}

/**
 * Several remixes a round: each proposal not yet made goes to its own image edit, all at once (the record is written one
 * edit at a time, in letter order). A failed edit fails only its remix: the others are made and recorded, then the round stops in words
 * naming the failed ones, and a resume makes only those.
 */
async function runSeveralEdits(ctx: StepContext, it: Iteration): Promise<void> {
  const pending = (it.proposals ?? []).filter((p) => !it.remixes?.some((m) => m.letter === p.letter));
  // The requests go out at once; each edit writes the record after the one before it has (letter order, so the labels
  // "Image 7", "Image 8", … follow the letters).
  let previous: Promise<unknown> = Promise.resolve();
  const runs = pending.map((proposal) => {
    const after = previous;
    const serial = <T>(fn: () => T | Promise<T>): Promise<T> => after.then(() => fn());
    const inputs = proposal.from.map((id) => ({ id, file: ctx.record.options.find((op) => op.id === id)!.file }));
    const run = runImageEdit(ctx, { iteration: it, inputs, proposal, serial, references: citedFor(ctx, it, inputs.length, proposal.letter) });
    previous = run.catch(() => undefined);
    return run;
  });
  const results = await Promise.allSettled(runs);
  const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [{ letter: pending[i]!.letter, err: r.reason as unknown }] : []));
  if (failed.length === 0) return;
  const cancelled = failed.find((f) => f.err instanceof CancelledError || isAbort(f.err, ctx.signal));
  if (cancelled) throw cancelled.err;
  const made = remixesOf(it).map((m) => m.id);
  const errors = failed.map((f) => describeError(f.err, `The image edit of remix ${f.letter}`).replace(/ Resume the run to try again\.$/, ''));
  throw new StepError(
    `${errors.join(' ')} ${made.length ? `${made.join(', ')} ${made.length === 1 ? 'was' : 'were'} made and kept; resume the run to make only the rest.` : 'Resume the run to make them again.'}`,
  );
}

/**
 * The references the remix agent cited this round that go to one edit, after its `candidates` input images, within the
 * endpoint's limit; those left out are said in a notice (and recorded on the remix by the edit).
 */
function citedFor(ctx: StepContext, it: Iteration, candidates: number, letter?: string): { id: string; file: string }[] {
  const cited = referencesForEdit(candidates, it.references ?? [], ctx.settings.imageModel);
  if (cited.dropped.length) {
    ctx.emit({ type: 'notice', runId: ctx.record.id, level: 'warning', message: `The image edit${letter ? ` of remix ${letter}` : ''} takes at most ${maxEditImages(ctx.settings.imageModel)} input images; the cited references ${cited.dropped.join(', ')} are left out of it.` });
  }
  return cited.sent.map((id) => ({ id, file: ctx.record.references!.find((r) => r.id === id)!.file }));
}

/** The run's reference gallery as the chat model sees it (the same prepared images every round). */
async function representReferences(ctx: StepContext, cacheDir?: string): Promise<PromptReference[]> {
  return Promise.all(
    (ctx.record.references ?? []).map(async (r) => ({
      id: r.id,
      label: r.label,
      file: r.file,
      ...(r.note ? { note: r.note } : {}),
      image: await prepareImage(ctx.reviewRoot, r.file, { maxSide: ctx.settings.imageMaxSide, cacheDir }),
    })),
  );
}

/** The represent step: each candidate as the chat model sees it, with its stable label. */
async function represent(ctx: StepContext, it: Iteration, cacheDir?: string): Promise<PromptCandidate[]> {
  return Promise.all(
    it.candidates.map(async (id) => {
      const op = ctx.record.options.find((x) => x.id === id);
      if (!op) throw new Error(`Candidate "${id}" is not in the run record.`);
      const image = await prepareImage(ctx.reviewRoot, op.file, {
        maxSide: ctx.settings.imageMaxSide,
        cacheDir,
      });
      return { id, label: op.label, file: op.file, remixId: isRemixFile(op.file) ? id : undefined, image };
    }),
  );
}
