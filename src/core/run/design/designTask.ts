/**
 * The design task (task.ts): candidate images and the designers' rankings. Each round is represent → discuss → remix →
 * edit, each step skipped when the record shows it done:
 *   represent  → prepare the candidates (small, deterministic images) and the shared prompt prefix
 *   discuss    → proxies speak round-robin (discussion.ts)
 *   remix      → the remix agent extracts consensus + editing directions as strict JSON (remixAgent.ts); with a pool
 *                (issue 41) the proxies rank its directions and Schulze elects the ones to make (core/pool)
 *   edit       → the image-edit model makes the remix (imageEdit.ts)
 *   iterate    → next candidates = consensus top K + the new remix; the last iteration only picks one
 * The brief task sits beside it (briefTask.ts); the engine that drives either is runner.ts.
 */
import type { Review } from '../../review/model';
import type { StepContext } from '../../step/context';
import type { Iteration, RunRecord } from '../../record/record';
import { remixesOf, remixOfLetter } from '../../record/remixes';
import { prepareImage, roundImageReads } from '../../llm/images';
import { describeError, isAbort } from '../../llm/errors';
import { CancelledError, StepError } from '../../kernel/errors';
import { discussionDone, runDiscussion } from '../../discussion/discussion';
import { earlierPeopleMessage, sharedPrefix, systemPrompt, type PromptCandidate, type PromptReference } from '../../discussion/prompts';
import { needsLeadDecision, runLeadDecision } from '../../discussion/leadDecision';
import { carryDecidedSides } from '../../discussion/decisionWords';
import { forkDesignRound } from '../../fork/designFork';
import { bindNextRound, boundCandidates, setAsideIds } from '../../fork/binding';
import { discussionOf } from '../../settings/discussionSettings';
import { earlierPeopleLines } from '../../people/pins';
import { personName } from '../../people/team';
import { maxEditImages, referencesForEdit, runImageEdit, type ImageEditInput } from '../../remix/imageEdit';
import { narrowTo, runRemixAgent } from '../../remix/remixAgent';
import { runPoolRound } from '../../pool/poolRound';
import { renumberEdits } from '../../remix/editText';
import { checklistRepeat, checkRoundRemixes } from '../../checklist/checklist';
import { writeDeliverables } from '../deliverables/deliverables';
import type { RunTask } from '../task';

/** The design task: candidate images, rankings, remixes (the steps below). */
export const designTask: RunTask = {
  kind: 'design',
  usesImages: true,
  view: (review) => review,
  unusable(review) {
    if (review.designers.length > 0 && review.options.length > 0) return undefined;
    if (review.comments.length > 0)
      return 'A design run needs options/ and rankings/; this review has only comments on the brief (run it with --task brief).';
    return 'The review has no rankings, so there is nobody to discuss.';
  },
  options: (review) => review.options.map((op) => ({ id: op.id, label: op.label, file: op.file })),
  planNext: (record, feedback, say) => planNextIteration(record, feedback, say),
  prepare: async (reviewRoot, record, cacheDir) => {
    const files = [...record.options, ...(record.references ?? [])].map((f) => f.file);
    await Promise.all(files.map((file) => prepareAhead(reviewRoot, file, record.settings.imageMaxSide, cacheDir)));
  },
  runIteration: (ctx, review, it, cacheDir) => runIteration(ctx, review, it, cacheDir),
  isDone: (ctx, it) => isDone(ctx, it),
  finish: async () => undefined,
  // Never a remix a decision set aside (core/fork/binding.ts).
  finalPick: (record) => record.iterations.at(-1)?.ranking?.find((id) => !setAsideIds(record.iterations).has(id)),
  writeDeliverables: (root, record, people) => writeDeliverables(root, record, people),
};

function isDone(ctx: StepContext, it: Iteration): boolean {
  return (
    discussionDone(ctx, it) &&
    Boolean(it.ranking?.length) &&
    (it.final === true || (remixRoundDone(it) && checksDone(ctx, it))) &&
    !needsLeadDecision(ctx, it)
  );
}

/** With the brief as a checklist (issue 41): every remix of the round has its checks (or there is nothing to check against). */
function checksDone(ctx: StepContext, it: Iteration): boolean {
  if (checklistRepeat(ctx.settings) === 0 || ctx.record.checklist?.items.length === 0) return true;
  return remixesOf(it).every((m) => m.checks);
}

/** A remix round is done when its one remix is made, or every proposal has its remix (a pooled round's one: its `remix`). */
export function remixRoundDone(it: Iteration): boolean {
  if (it.remix) return true;
  if (!it.proposals?.length) return false;
  return it.proposals.every((p) => remixOfLetter(it, p.letter));
}

/**
 * The iterate step: which candidates the next round discusses. Decisions people made on earlier forks bind it (core/fork/
 * binding.ts): the chosen side's remix is carried, the others are set aside (recorded on it) and never come back. `say`
 * hears what the binding did, in sentences.
 */
export function planNextIteration(record: RunRecord, feedback?: string, say?: (sentence: string) => void): Iteration {
  const index = record.iterations.length + 1;
  const final = index >= record.settings.iterations;
  const prev = record.iterations.at(-1);
  const bound = bindNextRound(record.iterations, index);
  const running = (ids: readonly string[]): string[] => ids.filter((id) => !bound.excluded.has(id));
  let planned: string[];
  if (!prev) planned = record.options.filter((op) => !isRemixFile(op.file)).map((op) => op.id);
  else if (prev.final || remixesOf(prev).length === 0) planned = running(prev.ranking ?? prev.candidates).slice(0, 2);
  // Narrowing keeps the top candidates plus every remix of that round.
  else
    planned = [
      ...running(prev.ranking ?? []).slice(0, narrowTo(prev.index, prev.candidates.length)),
      ...running(remixesOf(prev).map((m) => m.id)),
    ];
  const it: Iteration = { index, candidates: boundCandidates(planned, bound), messages: [] };
  if (bound.setAside.length) it.setAside = bound.setAside;
  if (final) it.final = true;
  if (feedback?.trim()) it.feedback = feedback.trim();
  for (const s of bound.said) say?.(s);
  return it;
}

/**
 * An image prepared for the chat model before a request needs it (into the memo the request then reads). A failure is
 * left for that request to meet and report.
 */
function prepareAhead(reviewRoot: string, file: string, maxSide: number | undefined, cacheDir: string | undefined): Promise<unknown> {
  return prepareImage(reviewRoot, file, { maxSide, cacheDir }).catch(() => undefined);
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
  const earlier = ctx.people
    ? earlierPeopleMessage(earlierPeopleLines(ctx.record, it.index, (id) => personName(ctx.people!.team, id)))
    : undefined;
  const prefix = earlier ? [...shared, earlier] : shared;

  await runDiscussion(ctx, { iteration: it, candidates, prefix, labelOf });
  // The round's edits read their input files through this: once each, the bytes kept until the round ends.
  const read = roundImageReads(ctx.reviewRoot);
  // Each new remix as the next round's requests carry it, prepared as soon as its file is written (while the record is
  // saved and the checklist's request is out).
  const preparing: Promise<unknown>[] = [];
  const written = (file: string): void => void preparing.push(prepareAhead(ctx.reviewRoot, file, ctx.settings.imageMaxSide, cacheDir));
  const edits = { read, written };
  if (!it.ranking?.length) {
    // While the remix agent thinks, read and fingerprint the files the edit may need.
    const warm = it.final ? undefined : Promise.all(candidates.map((c) => read(c.file).catch(() => undefined)));
    await runRemixAgent(ctx, { iteration: it, candidates, prefix, references });
    await warm;
  }
  // issue 41: a pool is re-asked when it is one idea, ranked by every proxy and elected before any edit (core/pool)
  await runPoolRound(ctx, it, { candidates, prefix, references, labelOf });
  if (needsLeadDecision(ctx, it)) await runLeadDecision(ctx, it, prefix);
  // Sides people settled on earlier forks (a vote, or the lead in person) go into every edit of this round not yet made.
  if (carryDecidedSides(ctx.record.iterations, it)) await ctx.save();
  await forkDesignRound(ctx, it); // issue 33: one remix per side of a decision point that splits the team (core/fork)
  // Every edit prompt not yet sent, renumbered once more from its directions as discussed (lines added since included).
  if (renumberEdits(ctx.record, it, ctx.settings.imageModel)) await ctx.save();
  if (!it.final && it.proposals?.length) await runSeveralEdits(ctx, it, edits);
  else if (!it.final && !it.remix) {
    const inputs = (it.ranking ?? []).map((id) => ({ id, file: ctx.record.options.find((op) => op.id === id)!.file }));
    await runImageEdit(ctx, { iteration: it, inputs, references: citedFor(ctx, it, inputs.length), ...edits });
  }
  await checkRoundRemixes(ctx, review.brief, it); // issue 41: every remix held to the brief's must-haves (core/checklist)
  await Promise.all(preparing);
}

/**
 * Several remixes a round (or a pooled round's one elected proposal): each proposal not yet made goes to its own image
 * edit, all at once (the record is written one edit at a time, in letter order). A failed edit fails only its remix: the others are made and recorded, then the round stops in words
 * naming the failed ones, and a resume makes only those.
 */
async function runSeveralEdits(ctx: StepContext, it: Iteration, edits: Pick<ImageEditInput, 'read' | 'written'>): Promise<void> {
  const pending = (it.proposals ?? []).filter((p) => !remixOfLetter(it, p.letter));
  // The requests go out at once; each edit writes the record after the one before it has (letter order, so the labels
  // "Image 7", "Image 8", … follow the letters).
  let previous: Promise<unknown> = Promise.resolve();
  const runs = pending.map((proposal) => {
    const after = previous;
    const serial = <T>(fn: () => T | Promise<T>): Promise<T> => after.then(() => fn());
    const inputs = proposal.from.map((id) => ({ id, file: ctx.record.options.find((op) => op.id === id)!.file }));
    const run = runImageEdit(ctx, {
      iteration: it,
      inputs,
      proposal,
      serial,
      references: citedFor(ctx, it, inputs.length, proposal.letter),
      ...edits,
    });
    previous = run.catch(() => undefined);
    return run;
  });
  const results = await Promise.allSettled(runs);
  const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [{ letter: pending[i]!.letter, err: r.reason as unknown }] : []));
  if (failed.length === 0) return;
  const cancelled = failed.find((f) => f.err instanceof CancelledError || isAbort(f.err, ctx.signal));
  if (cancelled) throw cancelled.err;
  const made = remixesOf(it).map((m) => m.id);
  const errors = failed.map((f) =>
    describeError(f.err, `The image edit of remix ${f.letter}`).replace(/ Resume the run to try again\.$/, ''),
  );
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
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'warning',
      message: `The image edit${letter ? ` of remix ${letter}` : ''} takes at most ${maxEditImages(ctx.settings.imageModel)} input images; the cited references ${cited.dropped.join(', ')} are left out of it.`,
    });
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
