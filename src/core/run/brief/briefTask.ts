/**
 * The brief task (issue 17): the same engine as a design run (runner.ts), working on the brief itself.
 *   - who speaks: every member with a comment (comments/<id>.md); their proxy's persona is that comment, quoted;
 *   - the proposal: the client's brief in round 1, then the revised brief of the round before;
 *   - the remix agent: strict JSON (member enums) → the revised brief (iteration-<k>/brief.md), agreements, disagreements
 *     with who holds which side, trade-offs, open questions for the client, and coverage of every member's points;
 *   - closing: one direct revision from the brief and all comments (the paper's baseline) → baseline.md, its cost apart.
 */
import * as z from 'zod';
import type { DesignerComment, DesignerRanking, Review } from '../../review/model';
import { LIMITS, readReviewText } from '../../files/reviewFiles';
import { FILE_KINDS } from '../../files/fileKinds';
import { writeInertMarkdown } from '../../files/markdown';
import { toRecordedMessages } from '../../llm/messages';
import { estimateCost, type PriceTable } from '../../llm/pricing';
import type { StepContext } from '../../step/context';
import { conversationMessages, runDiscussion, discussionDone, temperatureOf } from '../../discussion/discussion';
import { discussionOf } from '../../settings/discussionSettings';
import { isAbort } from '../../llm/errors';
import { CancelledError, withChildSignal } from '../../kernel/errors';
import { earlierPeopleMessage } from '../../discussion/prompts';
import { earlierPeopleLines } from '../../people/pins';
import { personName } from '../../people/team';
import { decisionItems, escapeMarkdown, scriptedBanner, transcriptMarkdown, type Person } from '../deliverables/deliverables';
import { askWithCheckedCoverage } from './briefCoverage';
import { briefFileInRun } from '../../record/recordCheck';
import { COVERAGE_STATUSES, type BriefRound, type Coverage, type Iteration, type RunRecord } from '../../record/record';
import { reviewRelative } from '../../record/paths';
import {
  baselineMessages,
  BRIEF_RUN_PREFIX,
  briefPersonaParts,
  briefRemixJsonSchema,
  briefRemixMessages,
  briefSharedPrefix,
  briefSystemPrompt,
} from './briefPrompts';
import type { RunTask } from '../task';
import { parseJsonAnswer } from '../../remix/structuredAnswer';
import { reportedNothing } from '../../coverage/verify';
import { briefForkPending, forkBriefRound } from '../../fork/briefFork';
import type { ChatMessage } from '../../llm/messages';
import { warn } from '../../step/warn';

export const BASELINE_FILE = 'baseline.md';

/** A member of a brief run as the engine's designers: their comment's id, name, role and weight (no ranking). */
export function briefMembers(comments: readonly DesignerComment[]): DesignerRanking[] {
  return comments.map((c) => ({
    id: c.designer,
    name: c.name,
    ...(c.role ? { role: c.role } : {}),
    weight: c.weight,
    file: c.file,
    entries: [],
  }));
}

/** What the brief remix agent's answer must be (zod); briefRemixJsonSchema is what the model is asked for. */
export function briefAnswerSchema(memberIds: readonly string[]) {
  const member = z.enum(memberIds as [string, ...string[]]);
  return z.object({
    revisedBrief: z.string().refine((s) => s.trim() !== '', 'the revised brief is empty'),
    agreements: z.array(z.string()).default([]),
    disagreements: z
      .array(z.object({ question: z.string(), positions: z.array(z.object({ position: z.string(), heldBy: z.array(member) })) }))
      .default([]),
    tradeOffs: z.array(z.string()).default([]),
    openQuestions: z.array(z.string()).default([]),
    // Any id is read here: an entry for someone who is not on the team is dropped with a warning (not a repair).
    coverage: z
      .array(
        z.object({ designer: z.string(), point: z.string(), status: z.enum(COVERAGE_STATUSES), quote: z.string().nullable().optional() }),
      )
      .default([]),
  });
}

export interface BriefAnswer {
  revisedBrief: string;
  report: Omit<BriefRound, 'file'>;
  /** Coverage entries dropped because they named someone who is not on the team. */
  dropped: string[];
}

/** Parses and cleans one answer; coverage of non-members is dropped (reported), quotes of left-out points removed. */
export function parseBriefAnswer(content: string, memberIds: readonly string[]): BriefAnswer | { error: string } {
  const parsed = parseJsonAnswer(content, briefAnswerSchema(memberIds));
  if ('error' in parsed) return parsed;
  const data = parsed.value;
  const clean = (xs: readonly string[]): string[] => xs.map((s) => s.trim()).filter(Boolean);
  const dropped: string[] = [];
  const coverage: Coverage[] = [];
  for (const c of data.coverage) {
    const id = memberIds.find((m) => m === c.designer);
    if (!id) {
      dropped.push(c.designer);
      continue;
    }
    if (!c.point.trim()) continue;
    const entry: Coverage = { designer: id, point: c.point.trim(), status: c.status };
    if (c.status !== 'left-out' && c.quote?.trim()) entry.quote = c.quote.trim();
    coverage.push(entry);
  }
  return {
    revisedBrief: `${data.revisedBrief.trim()}\n`,
    report: {
      agreements: clean(data.agreements),
      disagreements: data.disagreements
        .map((d) => ({
          question: d.question.trim(),
          positions: d.positions.map((p) => ({ position: p.position.trim(), heldBy: [...new Set(p.heldBy)] })),
        }))
        .filter((d) => d.question),
      tradeOffs: clean(data.tradeOffs),
      openQuestions: clean(data.openQuestions),
      coverage,
    },
    dropped,
  };
}

/** The brief task; `comments` are the review's (each reaches only its own member's proxy and the remix agent). */
export const briefTask: RunTask = {
  kind: 'brief',
  usesImages: false,

  view(review) {
    return { ...review, designers: briefMembers(review.comments) };
  },

  unusable(review) {
    if (review.comments.length === 0) {
      return 'A brief run needs comments on the brief (comments/<designer-id>.md, one per member); this review has none.';
    }
    return undefined;
  },

  options() {
    return [];
  },

  planNext(record, feedback) {
    const index = record.iterations.length + 1;
    const it: Iteration = { index, candidates: [], messages: [] };
    if (index >= record.settings.iterations) it.final = true;
    if (feedback?.trim()) it.feedback = feedback.trim();
    return it;
  },

  async runIteration(ctx, review, it) {
    const comments = new Map(review.comments.map((c) => [c.designer, c]));
    const previous = ctx.record.iterations.filter((x) => x.index < it.index);
    const last = previous.at(-1);
    const proposal = last?.brief
      ? { round: last.index, text: await readReviewText(ctx.reviewRoot, reviewRelative(ctx.record.id, last.brief.file), LIMITS.briefText) }
      : undefined;
    const nameOf = (id: string): string =>
      ctx.people ? personName(ctx.people.team, id) : (ctx.designers.find((d) => d.id === id)?.name ?? id);
    const system = briefSystemPrompt(ctx.settings.prompts, {
      designers: ctx.designers,
      hierarchy: discussionOf(ctx.settings).hierarchy,
      lead: ctx.settings.lead,
      mode: discussionOf(ctx.settings).mode,
    });
    const shared = briefSharedPrefix({ system, brief: review.brief, proposal, previous, feedback: it.feedback, nameOf });
    const earlier = ctx.people ? earlierPeopleMessage(earlierPeopleLines(ctx.record, it.index, nameOf)) : undefined;
    const prefix = earlier ? [...shared, earlier] : shared;

    await runDiscussion(ctx, {
      iteration: it,
      candidates: [],
      prefix,
      labelOf: (id) => id,
      memberFirst: {
        runPrefix: BRIEF_RUN_PREFIX,
        persona: (p) => briefPersonaParts({ ...p, member: p.designer, comment: comments.get(p.designer.id)! }),
      },
    });
    const transcript = conversationMessages(ctx, it);
    if (!it.brief) await reviseBrief(ctx, it, { prefix, transcript }, comments, nameOf);
    await forkBriefRound(ctx, it, [...prefix, ...transcript]); // issue 33: the contested passage written each way (core/fork)
  },

  isDone(ctx, it) {
    return discussionDone(ctx, it) && it.brief !== undefined && !briefForkPending(ctx, it);
  },

  async finish(ctx, review, prices) {
    if (ctx.record.baseline) return;
    await runBaseline(ctx, review, prices);
  },

  finalPick() {
    return undefined;
  },

  async writeDeliverables(reviewRoot, record, people) {
    const last = lastBriefRound(record)?.brief;
    const text = last
      ? await readReviewText(reviewRoot, reviewRelative(record.id, last.file), LIMITS.briefText).catch(() => undefined)
      : undefined;
    await writeInertMarkdown(reviewRoot, reviewRelative(record.id, 'result.md'), briefResultMarkdown(record, people, text));
    await writeInertMarkdown(reviewRoot, reviewRelative(record.id, 'transcript.md'), transcriptMarkdown(record, people));
  },
};

/** The brief remix agent: the revised brief of round `it` (iteration-<k>/brief.md) and its report, recorded. */
async function reviseBrief(
  ctx: StepContext,
  it: Iteration,
  conversation: { prefix: readonly ChatMessage[]; transcript: readonly ChatMessage[] },
  comments: ReadonlyMap<string, DesignerComment>,
  nameOf: (id: string) => string,
): Promise<void> {
  const memberIds = ctx.designers.map((d) => d.id);
  const { instructions, round } = briefRemixMessages({
    members: ctx.designers,
    comments: ctx.designers.map((d) => comments.get(d.id)!).filter(Boolean),
    iteration: it,
    totalIterations: ctx.settings.iterations,
    separate: discussionOf(ctx.settings).mode === 'separate',
    guestsSpoke: it.messages.some((m) => m.kind === 'guest'),
    personaRole: ctx.settings.personaRole,
  });
  // Its instructions (the same every round) right after the brief: each round's request repeats the last one's up to there.
  const { prefix, transcript } = conversation;
  const base = [...prefix.slice(0, BRIEF_RUN_PREFIX), instructions, ...prefix.slice(BRIEF_RUN_PREFIX), ...transcript, round];
  const answer = await askWithCheckedCoverage(ctx, {
    iteration: it.index,
    base,
    structured: { name: 'teamfusion_brief', strict: true, schema: briefRemixJsonSchema(memberIds) },
    parse: (content) => parseBriefAnswer(content, memberIds),
    memberIds,
    nameOf,
  });
  if (answer.dropped.length) {
    const who = [...new Set(answer.dropped)].map((d) => JSON.stringify(d)).join(', ');
    const n = answer.dropped.length;
    const line = `The remix agent reported coverage for ${who}, not on the team; ${n === 1 ? 'that entry was' : `those ${n} entries were`} dropped.`;
    warn(ctx, line);
  }
  // The file first, then the record: a crash in between asks the remix agent again, never leaves a record without its file.
  const file = briefFileInRun(it.index);
  const written = await writeInertMarkdown(ctx.reviewRoot, reviewRelative(ctx.record.id, file), answer.revisedBrief, {
    cap: FILE_KINDS.revisedBrief.maxBytes,
    log: capLog(ctx),
  });
  it.brief = { file, ...answer.report, sha256: written.sha256 };
  await ctx.save();
  ctx.emit({ type: 'remix-agent-completed', runId: ctx.record.id, iteration: it });
}

/** The direct baseline: one request with the brief and every comment → baseline.md; recorded, its usage kept apart. */
export async function runBaseline(ctx: StepContext, review: Review, prices: PriceTable): Promise<void> {
  const comments = ctx.designers
    .map((d) => review.comments.find((c) => c.designer === d.id))
    .filter((c): c is DesignerComment => c !== undefined);
  const messages = baselineMessages(review.brief, comments);
  if (ctx.signal?.aborted) throw new CancelledError();
  let answer;
  try {
    answer = await withChildSignal(ctx.signal, (signal) =>
      ctx.chat.chat({ model: ctx.settings.chatModel, messages, ...temperatureOf(ctx), signal }),
    );
  } catch (err) {
    if (isAbort(err, ctx.signal)) throw new CancelledError();
    throw err;
  }
  const text = answer.text.trim();
  if (!text) throw new Error('The direct baseline came back empty; resume the run to ask again.');
  const cut = answer.finishReason === 'length';
  if (cut) {
    const line =
      'The direct baseline was cut off by the model\'s length limit (finish_reason "length"); baseline.md keeps what came and run.json marks it cut.';
    warn(ctx, line);
  }
  const written = await writeInertMarkdown(ctx.reviewRoot, reviewRelative(ctx.record.id, BASELINE_FILE), `${text}\n`, {
    cap: FILE_KINDS.revisedBrief.maxBytes,
    log: capLog(ctx),
  });
  const promptId = `p${ctx.record.prompts.length + 1}`;
  // Recorded like every prompt, but its usage is not the run's: it is kept on the baseline, its cost shown apart.
  ctx.record.prompts.push({
    id: promptId,
    iteration: Math.max(1, ctx.record.iterations.length),
    kind: 'baseline',
    model: answer.model ?? ctx.settings.chatModel,
    at: new Date().toISOString(),
    messages: toRecordedMessages(messages),
    ...(answer.usage ? { usage: answer.usage } : {}),
    ...temperatureOf(ctx),
  });
  const usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, images: 0, ...answer.usage };
  const cost = estimateCost(usage, ctx.settings, prices);
  ctx.record.baseline = {
    file: BASELINE_FILE,
    promptId,
    ...(answer.usage ? { usage: answer.usage } : {}),
    ...(cost !== undefined ? { costUsd: cost } : {}),
    ...(cut ? { cut: true as const } : {}),
    sha256: written.sha256,
  };
  await ctx.save();
}

/** A cut of a model's text, said in the run's log and as a notice. */
function capLog(ctx: StepContext): (line: string) => void {
  return (line) => {
    warn(ctx, line);
  };
}

/** The last round with a revised brief. */
export function lastBriefRound(record: Pick<RunRecord, 'iterations'>): Iteration | undefined {
  return [...record.iterations].reverse().find((it) => it.brief);
}

/** Coverage of a round, counted. */
export function coverageCounts(coverage: readonly Coverage[]): { kept: number; changed: number; leftOut: number } {
  return {
    kept: coverage.filter((c) => c.status === 'kept').length,
    changed: coverage.filter((c) => c.status === 'changed').length,
    leftOut: coverage.filter((c) => c.status === 'left-out').length,
  };
}

function cell(text: string): string {
  return escapeMarkdown(text);
}

/** A coverage quote as result.md shows it: quoted, and said when the revised brief does not hold it. */
function quoteCell(c: Coverage): string {
  if (!c.quote) return c.status === 'left-out' ? '—' : '— (no quote: not verified)';
  return c.verified === false ? `"${cell(c.quote)}" (not found in the revised brief)` : `"${cell(c.quote)}"`;
}

/** result.md of a brief run: the decisions people made, the last revised brief, the summary, and a coverage table per member. */
export function briefResultMarkdown(record: RunRecord, people: readonly Person[], briefText?: string): string {
  const nameOf = (id: string): string => people.find((p) => p.id === id)?.name ?? id;
  const out: string[] = [...scriptedBanner(record), `# TeamFusion brief review ${record.id}`, ''];
  out.push(`- Status: ${record.status}${record.error ? ` (${cell(record.error)})` : ''}`);
  out.push(`- Model: ${record.settings.chatModel}`);
  out.push(
    `- Members: ${people
      .filter((p) => !p.guest)
      .map((p) => cell(p.role ? `${p.name} (${p.role})` : p.name))
      .join(', ')}`,
  );
  if (record.usage.costUsd !== undefined) out.push(`- Cost of the run (estimate): $${record.usage.costUsd.toFixed(4)}`);
  if (record.baseline) {
    out.push(
      `- Direct baseline: [${record.baseline.file}](${record.baseline.file})${record.baseline.costUsd !== undefined ? ` (cost apart: $${record.baseline.costUsd.toFixed(4)})` : ''}`,
    );
  }
  out.push('');
  // Each point people settled (a fork's vote, the lead in person or closing the vote), as the design result says it.
  const decided = record.iterations.filter((x) => x.decisions?.length);
  if (decided.length) {
    out.push('## Decisions', '');
    for (const x of decided) out.push(...decisionItems(x.decisions!, people).map((l) => l.replace(/^- /, `- Round ${x.index}: `)));
    out.push('');
  }
  const it = lastBriefRound(record);
  if (!it?.brief) {
    out.push('No revised brief yet.', '');
    return out.join('\n');
  }
  const b = it.brief;
  out.push(`## Revised brief (round ${it.index} of ${record.settings.iterations})`, '', `File: [${b.file}](${b.file})`, '');
  const list = (title: string, items: readonly string[]): void => {
    if (!items.length) return;
    out.push(`## ${title}`, '', ...items.map((s) => `- ${cell(s)}`), '');
  };
  list('Agreements', b.agreements);
  if (b.disagreements.length) {
    out.push('## Disagreements', '');
    for (const d of b.disagreements) {
      out.push(`- ${cell(d.question)}`);
      for (const p of d.positions)
        out.push(`  - ${cell(p.position)}: ${p.heldBy.map((id) => cell(nameOf(id))).join(', ') || 'nobody named'}`);
    }
    out.push('');
  }
  list('Trade-offs', b.tradeOffs);
  list('Open questions for the client', b.openQuestions);
  const counts = coverageCounts(b.coverage);
  out.push('## Coverage', '', `${counts.kept} kept, ${counts.changed} changed, ${counts.leftOut} left out.`, '');
  for (const p of people.filter((x) => !x.guest)) {
    const mine = b.coverage.filter((c) => c.designer === p.id);
    const left = mine.filter((c) => c.status === 'left-out').length;
    out.push(`### ${cell(p.name)}${left ? ` — ${left} point${left === 1 ? '' : 's'} left out` : ''}`, '');
    if (!mine.length) {
      out.push(`No coverage: ${cell(reportedNothing(p.name))}.`, '');
      continue;
    }
    out.push('| Point | Status | Where the brief carries it |', '| --- | --- | --- |');
    for (const c of mine) out.push(`| ${cell(c.point)} | ${c.status === 'left-out' ? '**left out**' : c.status} | ${quoteCell(c)} |`);
    out.push('');
  }
  // The deliverable itself last: the revised brief's Markdown, made inert like every file the tool writes (files/markdown.ts).
  if (briefText !== undefined) out.push('## The revised brief', '', briefText.trim(), '');
  return out.join('\n');
}
