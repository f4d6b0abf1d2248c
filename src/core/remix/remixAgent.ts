/**
 * Step 3 — remix: the remix agent reads the whole discussion and answers in strict JSON (`response_format: json_schema`,
 * `strict: true`): the consensus ranking, editing directions, agreements, disagreements and decision points. Every field
 * that names an option is an `enum` of the current candidates' ids (designers: an enum of designer ids), so the model cannot
 * invent one. The answer is still validated with zod; an invalid answer (bad JSON, schema mismatch, refusal) gets one repair
 * attempt (the error is sent back) and then at most two more, each recorded as a 'remix-repair' prompt with the rejected output.
 */
import * as z from 'zod';
import { toRecordedMessages, type ChatMessage } from '../llm/messages';
import type { StructuredOutput } from '../llm/backend';
import { addPrompt, nextPromptId, type StepContext } from '../step/context';
import { conversationMessages } from '../discussion/discussion';
import { StepError } from '../kernel/errors';
import { cannotAnswer } from '../llm/errors';
import { STRUCTURED_EXTRA_ATTEMPTS, askForStructuredAnswer, parseJsonAnswer } from './structuredAnswer';
import { GUESTS_NOTE, type PromptCandidate, type PromptReference } from '../discussion/prompts';
import { remixAgentMessage } from '../discussion/remixPrompts';
import { editText } from './editText';
import { referencesForEdit } from './imageEdit';
import type { DecisionPoint, Iteration } from '../record/record';
import { discussionOf } from '../settings/discussionSettings';
import { failedMustHaves, poolOf, remixesPerIterationOf } from '../record/remixes';
import { poolDiversity } from '../stats/election/diversity';
import { temperatureOf } from '../discussion/discussion';
import { teamOrder } from './teamOrder';
import { directionsProblem } from '../grounding/citations';
import { againstDecidedSide } from './decidedSides';
// The proposals' schemas live in proposals.ts; proposalJsonSchema is re-exported for the readers that know it here.
export { proposalJsonSchema } from './proposals';
import {
  agentProposal,
  directionsJsonSchema,
  directionsSchema,
  poolCandidates,
  proposalsForEdit,
  proposalsJsonSchema,
  proposalsSchema,
  type AgentProposal,
} from './proposals';

/** 1 repair + 2 retries after the first answer. */
export const REMIX_EXTRA_ATTEMPTS = STRUCTURED_EXTRA_ATTEMPTS;

/** How many candidates survive iteration `index` (the edit's inputs): 3 after round 1, then 2; never below 2. */
export function narrowTo(index: number, candidateCount: number): number {
  return Math.min(candidateCount, Math.max(2, 4 - index));
}

export interface RemixAgentInput {
  iteration: Iteration;
  candidates: readonly PromptCandidate[];
  prefix: readonly ChatMessage[];
  /** The run's reference gallery (may be cited for the edit, never ranked). */
  references?: readonly Pick<PromptReference, 'id' | 'label' | 'note'>[];
}

export interface RemixAnswer {
  /** Reference ids cited for the edit (rounds that make a remix, reviews with references). */
  references?: string[];
  ranking: string[];
  /** One short reason per ranked candidate (rounds that make a remix). */
  reasons: { candidate: string; reason: string }[];
  /** The four labelled parts joined into one string ("Composition: …\nVisual elements: …\n…"). */
  editingDirections?: string;
  agreements: string[];
  disagreements: string[];
  decisionPoints: DecisionPoint[];
  /** Per designer id, the candidate their proxy backed last in this round (null: none); absent when not reported. */
  backed?: Record<string, string | null>;
  /** Several remixes a round: one proposal per image edit, each with the candidates it starts from and its own directions. */
  proposals?: AgentProposal[];
}

/**
 * The JSON schema of decision points (a question and the positions on it, each with who holds it): shared by the design
 * and the brief remix agents, `heldBy` an enum of the team's ids so a model cannot name someone who is not there.
 */
export function decisionPointsJsonSchema(memberIds: readonly string[]) {
  const text = { type: 'string' };
  return {
    type: 'array',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['question', 'positions'],
      properties: {
        question: text,
        positions: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['position', 'heldBy'],
            properties: { position: text, heldBy: { type: 'array', items: { type: 'string', enum: [...memberIds] } } },
          },
        },
      },
    },
  };
}

/** The JSON schema sent as response_format (OpenAI strict mode: all properties required, no additional properties). */
export function remixJsonSchema(
  candidateIds: readonly string[],
  designerIds: readonly string[],
  final: boolean,
  topK: number,
  remixes = 1,
  referenceIds: readonly string[] = [],
  pooled = false,
) {
  const text = { type: 'string' };
  const texts = { type: 'array', items: text };
  const properties: Record<string, unknown> = {
    ranking: {
      type: 'array',
      description: final
        ? 'All candidate ids, best first; the first is the final pick.'
        : `The consensus top ${topK} candidate ids, best first.`,
      items: { type: 'string', enum: [...candidateIds] },
      minItems: topK,
      maxItems: topK,
    },
  };
  if (!final) {
    properties.reasons = {
      type: 'array',
      description: 'One entry per ranked candidate, in ranking order: why the team ranked it there.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['candidate', 'reason'],
        properties: { candidate: { type: 'string', enum: [...candidateIds] }, reason: text },
      },
    };
    if (remixes > 1) {
      properties.remixes = proposalsJsonSchema(candidateIds, topK, remixes, pooled);
    } else {
      properties.editingDirections = directionsJsonSchema();
    }
    // Only with a gallery: an enum of its ids (an empty enum is no valid schema), so no candidate can be cited as one.
    if (referenceIds.length) {
      properties.references = {
        type: 'array',
        description: 'Reference ids (never candidates) whose look the image-edit model should also see, after the candidates; [] for none.',
        items: { type: 'string', enum: [...referenceIds] },
      };
    }
  }
  properties.agreements = texts;
  properties.disagreements = texts;
  properties.decisionPoints = decisionPointsJsonSchema(designerIds);
  properties.backed = {
    type: 'object',
    description: "For each designer id, the candidate id that designer's proxy backed last in this round, or null for none.",
    additionalProperties: false,
    required: [...designerIds],
    properties: Object.fromEntries(designerIds.map((id) => [id, { type: ['string', 'null'], enum: [...candidateIds, null] }])),
  };
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties };
}

/** What a remix-agent answer must be (zod); the JSON schema above is what the model is asked for. */
export function answerSchema(
  candidateIds: readonly string[],
  designerIds: readonly string[],
  final: boolean,
  remixes = 1,
  referenceIds: readonly string[] = [],
) {
  const candidate = z.enum(candidateIds as [string, ...string[]]);

  const designer = z.enum(designerIds as [string, ...string[]]);
  const several = !final && remixes > 1;
  return z.object({
    ranking: z.array(candidate).min(1),
    // The four parts (what we ask for), or one string from a server that answers the older shape.
    editingDirections: final || several ? z.unknown().optional() : directionsSchema,
    remixes: several ? proposalsSchema(candidateIds, remixes) : z.unknown().optional(),
    reasons: z.array(z.object({ candidate, reason: z.string() })).default([]),
    // Without a gallery the field is not asked for, and ignored if a server sends it anyway.
    references: referenceIds.length
      ? z.array(z.enum(referenceIds as [string, ...string[]])).default([])
      : z
          .unknown()
          .optional()
          .transform((): string[] => []),
    // Tolerant reader: the schema asks for every field, but a server that leaves the lists out (or adds fields of its
    // own) still gives a usable answer; what names a candidate or a designer stays strictly checked.
    agreements: z.array(z.string()).default([]),
    disagreements: z.array(z.string()).default([]),
    decisionPoints: z
      .array(z.object({ question: z.string(), positions: z.array(z.object({ position: z.string(), heldBy: z.array(designer) })) }))
      .default([]),
    backed: z
      .record(z.string(), candidate.nullable())
      .refine((r) => Object.keys(r).every((k) => designerIds.includes(k)), {
        message: 'names someone who is not a designer of this review',
      })
      .optional(),
  });
}

/** What the remix agent's directions may name: the round's images and references, its remixes, the team. */
export function groundsOf(
  ctx: StepContext,
  r: Pick<RemixAgentInput, 'candidates' | 'references'>,
): Parameters<typeof directionsProblem>[1] {
  return {
    labels: [...r.candidates.map((c) => c.label), ...(r.references ?? []).map((x) => x.label)],
    remixIds: r.candidates.flatMap((c) => (c.remixId ? [c.remixId] : [])),
    members: ctx.designers.flatMap((d) => [d.id, d.name]),
  };
}

/**
 * The remix agent's request of a remix round without its schema: the shared prefix, the discussion and the agent's
 * instructions (`elect`: a pool's, issue 41). The pool's re-ask repeats it.
 */
export function remixAgentBase(
  ctx: StepContext,
  r: RemixAgentInput,
  topK: number,
  remixes: number,
  elect?: number,
): { base: ChatMessage[]; teamOrdered: boolean; weightedOrder: string[] } {
  const it = r.iteration;
  const weighted = discussionOf(ctx.settings).hierarchy === 'weighted';
  const consensus = ctx.settings.consensus ?? 'borda';
  // The team's own consensus order breaks ties and fills a short ranking: under weighted, or whenever Schulze is chosen.
  const teamOrdered = weighted || consensus === 'schulze';
  const weightedOrder = teamOrder(
    ctx.designers,
    r.candidates.map((c) => c.id),
    consensus,
  );
  const base: ChatMessage[] = [
    ...r.prefix,
    ...conversationMessages(ctx, it),
    withGuestsNote(
      it,
      remixAgentMessage({
        iteration: it,
        candidates: r.candidates,
        designers: ctx.designers,
        topK,
        hierarchy: discussionOf(ctx.settings).hierarchy,
        weightedOrder: teamOrdered ? weightedOrder : undefined,
        consensus,
        mode: discussionOf(ctx.settings).mode,
        personaRole: ctx.settings.personaRole,
        remixes,
        ...(elect !== undefined ? { elect } : {}),
        failedMustHaves: failedMustHaves(ctx.record, it.index),
        references: r.references,
      }),
    ),
  ];
  return { base, teamOrdered, weightedOrder };
}

/** When guests spoke, the remix agent is told that the consensus stays the team's. */
function withGuestsNote(it: Iteration, instructions: ChatMessage): ChatMessage {
  if (!it.messages.some((m) => m.kind === 'guest')) return instructions;
  return { ...instructions, content: `${String(instructions.content)}\n${GUESTS_NOTE}` };
}

/** A pool answer (issue 41) with no valid proposal and no usable single set of directions after its repairs. */
class PoolUnusable extends Error {}

/**
 * Runs the remix agent and writes its answer into the iteration (ranking, directions, agreements, …). A pool answer that
 * stays unusable after its repairs, with no valid proposal in it (a server that does not know pools), never stops the
 * round: it falls back to the round without a pool — one request for the usual set of directions — said in a notice.
 */
export async function runRemixAgent(ctx: StepContext, r: RemixAgentInput): Promise<RemixAnswer> {
  const it = r.iteration;
  const pooled = it.final !== true && poolOf(ctx.settings) > 1;
  // Fallen back before (recorded): a resume asks only for the round's directions, never for the pool again.
  if (pooled && it.poolFellBack !== undefined) return askRemixAgent(ctx, r, false);
  try {
    return await askRemixAgent(ctx, r, true);
  } catch (err) {
    const unanswered = pooled ? cannotAnswer(err) : undefined;
    if (!(err instanceof PoolUnusable) && unanswered === undefined) throw err;
    it.poolFellBack =
      unanswered === undefined
        ? `still not usable after its repairs (${(err as Error).message}), with no valid proposal`
        : `not answered (${unanswered})`;
    await ctx.save();
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'warning',
      message: `Round ${it.index}: the pool of directions was ${it.poolFellBack}; the round falls back to one set of directions without a pool.`,
    });
    return askRemixAgent(ctx, r, false);
  }
}

async function askRemixAgent(ctx: StepContext, r: RemixAgentInput, pooling: boolean): Promise<RemixAnswer> {
  const it = r.iteration;
  const final = it.final === true;
  const candidateIds = r.candidates.map((c) => c.id);
  const designerIds = ctx.designers.map((d) => d.id);
  const topK = final ? candidateIds.length : narrowTo(it.index, candidateIds.length);
  // A pool (issue 41): the agent proposes `pool` sets of directions in this one answer; the proxies elect the round's remixes.
  const pool = final || !pooling ? 1 : poolOf(ctx.settings);
  const remixes = pool > 1 ? pool : final ? 1 : remixesPerIterationOf(ctx.settings);
  const referenceIds = (r.references ?? []).map((x) => x.id);
  const schema = remixJsonSchema(candidateIds, designerIds, final, topK, remixes, referenceIds, pool > 1);
  const validator = answerSchema(candidateIds, designerIds, final, remixes, referenceIds);
  const structured = { name: final ? 'teamfusion_final_pick' : 'teamfusion_remix', strict: true, schema };

  const { base, teamOrdered, weightedOrder } = remixAgentBase(
    ctx,
    r,
    topK,
    remixes,
    pool > 1 ? remixesPerIterationOf(ctx.settings) : undefined,
  );
  let against: string | undefined;
  let sentBack = false;
  let answers = 0;
  let salvaged: string | undefined;
  // A pool answer that is no pool but a usable answer of the round without one (a server that does not know pools).
  let unpooled = false;
  const withoutPool = answerSchema(candidateIds, designerIds, final, remixesPerIterationOf(ctx.settings), referenceIds);
  const fillOrder = teamOrdered ? weightedOrder : candidateIds;
  const answer = await askStructured(ctx, {
    iteration: it.index,
    base,
    structured,
    parse: (content): Parsed => {
      salvaged = undefined;
      unpooled = false;
      let parsed = parseAnswer(content, validator, fillOrder, topK);
      // A pool (issue 41) still unusable after its one repair: the round goes on with its valid proposals, said.
      if ('error' in parsed && pool > 1 && answers++ >= POOL_REPAIRS) {
        const kept = salvagePool(content, {
          candidateIds,
          designerIds,
          referenceIds,
          size: pool,
          grounds: groundsOf(ctx, r),
          fillOrder,
          topK,
        });
        if (kept) {
          salvaged = `Round ${it.index}: the pool of directions was still not usable after its repair (${parsed.error}); the round goes on with the ${kept.count} valid proposal${kept.count === 1 ? '' : 's'} of the ${pool} asked${kept.dropped.length ? ` (left out: ${kept.dropped.join('; ')})` : ''}.`;
          parsed = kept.parsed;
        } else {
          const single = parseAnswer(
            remixesPerIterationOf(ctx.settings) === 1 ? withoutProposals(content) : content,
            withoutPool,
            fillOrder,
            topK,
          );
          if (!('error' in single)) {
            salvaged = `Round ${it.index}: the pool of directions was still not usable after its repair (${parsed.error}) and no proposal of it was valid, but the answer is a usable set of directions without a pool; the round goes on with it, without a pool.`;
            unpooled = true;
            parsed = single;
          }
        }
      }
      if ('error' in parsed) return parsed;
      // Directions may not rest on an image the round did not have (repaired like an id outside the enum).
      const problem = directionsProblem(
        [parsed.answer.editingDirections, ...(parsed.answer.proposals ?? []).map((p) => p.editingDirections)],
        groundsOf(ctx, r),
      );
      if (problem) return { error: problem };
      // A side people decided earlier is kept: directions taking another are sent back once (then kept, and said).
      against = againstDecidedSide(
        [parsed.answer.editingDirections, ...(parsed.answer.proposals ?? []).map((p) => p.editingDirections)],
        ctx.record.iterations,
        it.index,
      );
      if (against && !sentBack && !final) {
        sentBack = true;
        return { error: against };
      }
      return parsed;
    },
    ...(pool > 1 ? { giveUp: (problem: string) => new PoolUnusable(problem) } : {}),
  });
  if (against && !final)
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'warning',
      message: `The remix agent was asked once to keep the decided side and still answered: ${against}`,
    });
  if (salvaged) ctx.emit({ type: 'notice', runId: ctx.record.id, level: 'warning', message: salvaged });
  applyAnswer(ctx, r, answer.answer, answer.filled, pool > 1 && !unpooled);
  await ctx.save();
  ctx.emit({ type: 'remix-agent-completed', runId: ctx.record.id, iteration: it });
  return answer.answer;
}

/**
 * The remix agent's one way of asking for a structured answer (every task's remix agent uses it): the request with a strict
 * JSON schema, each answer recorded as a prompt ('remix', then 'remix-repair' with the rejected output), an unusable answer
 * (refusal, cut off, `parse` error) sent back for repair, at most REMIX_EXTRA_ATTEMPTS more times. Returns what `parse` made.
 */
export async function askStructured<T>(
  ctx: StepContext,
  q: {
    iteration: number;
    base: readonly ChatMessage[];
    structured: StructuredOutput;
    parse: (content: string) => T | { error: string };
    /** Repairs after the first answer (default REMIX_EXTRA_ATTEMPTS). */
    extraAttempts?: number;
    /** Set when the first request is itself a repair of this output (recorded as 'remix-repair'). */
    repairing?: string;
    /** A pool's request (issue 41): every attempt recorded as this kind (a repair with its rejected output), by `speaker`. */
    kind?: 'pool-reask' | 'pool-ranking' | 'checklist' | 'check';
    speaker?: string;
    /** Whose answer a notice names (default "The remix agent's"). */
    whose?: string;
    giveUp?: (problem: string, attempts: number) => Error;
    /**
     * Requests asked at once (a pool's rankings): runs what writes the record (each attempt's prompt, its save) in the
     * callers' order, never interleaved. Default: at once.
     */
    serial?: <S>(fn: () => S | Promise<S>) => Promise<S>;
  },
): Promise<T> {
  const whose = q.whose ?? "The remix agent's";
  const serial = q.serial ?? (async <S>(fn: () => S | Promise<S>): Promise<S> => fn());
  return askForStructuredAnswer({
    chat: ctx.chat,
    model: ctx.settings.chatModel,
    ...temperatureOf(ctx),
    signal: ctx.signal,
    base: q.base,
    structured: q.structured,
    parse: q.parse,
    extraAttempts: q.extraAttempts ?? REMIX_EXTRA_ATTEMPTS,
    onRepair: (problem, attempt, of) =>
      ctx.emit({
        type: 'notice',
        runId: ctx.record.id,
        level: 'warning',
        message: `${whose} answer was not usable (${problem}); asking it to repair (${attempt} of ${of}).`,
      }),
    onAttempt: (a) =>
      serial(async () => {
        // A rejected output is kept on the prompt that produced it; a repair also names the output it was asked to repair.
        const rejectedOutput = a.rejected ?? a.repairing ?? (a.attempt === 0 ? q.repairing : undefined);
        addPrompt(ctx.record, {
          id: nextPromptId(ctx.record),
          iteration: q.iteration,
          kind: q.kind ?? (a.attempt === 0 && q.repairing === undefined ? 'remix' : 'remix-repair'),
          ...(q.speaker !== undefined ? { speaker: q.speaker } : {}),
          model: a.answer.model ?? ctx.settings.chatModel,
          at: new Date().toISOString(),
          messages: toRecordedMessages(a.conversation),
          responseSchema: q.structured,
          usage: a.answer.usage,
          ...temperatureOf(ctx),
          ...(rejectedOutput !== undefined ? { rejectedOutput } : {}),
          ...(a.error !== undefined ? { error: a.error } : {}),
        });
        if (a.error !== undefined) await ctx.save();
      }),
    giveUp:
      q.giveUp ??
      ((problem, attempts) =>
        new StepError(
          `The remix agent gave no usable answer after ${attempts} attempts (last problem: ${problem}). Resume the run to try again.`,
        )),
  });
}

type Parsed = { answer: RemixAnswer; filled: string[] } | { error: string };

/** A pool answer is repaired once (issue 41); still unusable, the round goes on with its valid proposals (salvagePool). */
const POOL_REPAIRS = 1;

/**
 * The valid proposals of a pool answer (issue 41), each read on its own: its sources kept to the round's candidates (none
 * left: left out), one citing an image the round did not show left out, one that repeats an earlier one's directions left
 * out, at most `size`. Undefined when none is valid or the rest of the answer is not usable either.
 */
export function salvagePool(
  content: string,
  o: {
    candidateIds: readonly string[];
    designerIds: readonly string[];
    referenceIds: readonly string[];
    size: number;
    grounds: Parameters<typeof directionsProblem>[1];
    fillOrder: readonly string[];
    topK: number;
  },
): { parsed: Exclude<Parsed, { error: string }>; count: number; dropped: string[] } | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as { remixes?: unknown }).remixes)) return undefined;
  const item = z.object({
    idea: z.string().optional(),
    differs: z.string().optional(),
    from: z.array(z.string()),
    editingDirections: directionsSchema,
  });
  const kept: object[] = [];
  const dropped: string[] = [];
  const seen = new Set<string>();
  (raw as { remixes: unknown[] }).remixes.forEach((p, i) => {
    const r = item.safeParse(p);
    const from = r.success ? [...new Set(r.data.from.filter((id) => o.candidateIds.includes(id)))] : [];
    const key = r.success
      ? r.data.editingDirections
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, ' ')
          .trim()
      : '';
    const why = !r.success
      ? 'not a proposal of the asked shape'
      : !from.length
        ? "no source among this round's candidates"
        : directionsProblem([r.data.editingDirections], o.grounds)
          ? 'it cites an image this round did not show'
          : seen.has(key)
            ? 'the same directions as an earlier proposal'
            : kept.length >= o.size
              ? `more than the ${o.size} asked`
              : undefined;
    if (why) return void dropped.push(`proposal ${i + 1}: ${why}`);
    seen.add(key);
    kept.push({ ...(p as object), from });
  });
  if (!kept.length) return undefined;
  const validator = answerSchema(o.candidateIds, o.designerIds, false, 2, o.referenceIds).extend({
    remixes: proposalsSchema(o.candidateIds, kept.length),
  });
  const parsed = parseAnswer(
    JSON.stringify({ ...(raw as object), remixes: kept }),
    validator as unknown as ReturnType<typeof answerSchema>,
    o.fillOrder,
    o.topK,
  );
  return 'error' in parsed ? undefined : { parsed, count: kept.length, dropped };
}

/** An answer without its `remixes` (read as the round's one set of directions: its unusable proposals are not read). */
function withoutProposals(content: string): string {
  try {
    const value: unknown = JSON.parse(content);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return content;
    const { remixes: _unused, ...rest } = value as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return content;
  }
}

/** `fillOrder`: the order in which missing ranking places are completed (the candidates' order, or the weighted Borda). */
export function parseAnswer(
  content: string,
  validator: ReturnType<typeof answerSchema>,
  fillOrder: readonly string[],
  topK: number,
): Parsed {
  const candidateIds = fillOrder;
  const parsed = parseJsonAnswer(content, validator);
  if ('error' in parsed) return parsed;
  const data = parsed.value;
  // Duplicates are dropped; a ranking shorter than needed is completed in the candidates' current order (reported).
  const ranking = [...new Set(data.ranking)];
  const filled: string[] = [];
  for (const id of candidateIds) {
    if (ranking.length >= topK) break;
    if (!ranking.includes(id)) {
      ranking.push(id);
      filled.push(id);
    }
  }
  return {
    answer: {
      ranking: ranking.slice(0, topK),
      reasons: data.reasons
        .filter((r) => ranking.slice(0, topK).includes(r.candidate))
        .map((r) => ({ candidate: r.candidate, reason: r.reason.trim() }))
        .filter((r) => r.reason),
      editingDirections: typeof data.editingDirections === 'string' ? data.editingDirections.trim() : undefined,
      agreements: data.agreements.map((s) => s.trim()).filter(Boolean),
      disagreements: data.disagreements.map((s) => s.trim()).filter(Boolean),
      decisionPoints: data.decisionPoints,
      ...(data.backed ? { backed: data.backed } : {}),
      ...(Array.isArray(data.remixes)
        ? {
            // At most as many inputs as the round's one remix would have had (the consensus top K).
            proposals: (data.remixes as AgentProposal[]).map((p) => agentProposal(p, topK)),
          }
        : {}),
      ...(data.references.length ? { references: [...new Set(data.references)] } : {}),
    },
    filled,
  };
}

function applyAnswer(ctx: StepContext, r: RemixAgentInput, a: RemixAnswer, filled: string[], pooled: boolean): void {
  const it = r.iteration;
  it.ranking = a.ranking;
  it.agreements = a.agreements;
  it.disagreements = a.disagreements;
  it.decisionPoints = a.decisionPoints;
  if (a.backed) it.backed = a.backed;
  if (!it.final) it.reasons = a.reasons;
  if (filled.length) {
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'warning',
      message: `The remix agent ranked fewer candidates than needed; ${filled.join(', ')} completed the ranking in their current order.`,
    });
  }
  // Cited references go to every edit of the round after its candidates, within its limit on input images (imageEdit.ts).
  if (a.references?.length && !it.final) it.references = a.references;
  const sentWith = (inputs: number) =>
    referencesForEdit(inputs, a.references ?? [], ctx.settings.imageModel).sent.map((id) => (r.references ?? []).find((x) => x.id === id)!);
  if (a.proposals && !it.final && pooled) {
    // A pool (issue 41): the proxies rank it and the elected become the round's proposals (core/pool).
    const candidates = poolCandidates(a.proposals);
    it.pool = {
      candidates,
      rankings: {},
      elected: [],
      method: 'schulze',
      diversity: poolDiversity(candidates.map((c) => c.editingDirections)),
      reasked: false,
    };
  } else if (a.proposals && !it.final) {
    it.proposals = proposalsForEdit(
      ctx,
      r,
      a.references ?? [],
      a.proposals.map((p, i) => ({ ...p, letter: String.fromCharCode(97 + i) })),
    );
  }
  if (a.editingDirections !== undefined && !it.final) {
    const byId = new Map(r.candidates.map((c) => [c.id, c]));
    const inputs = a.ranking.map((id) => ({ label: byId.get(id)!.label }));
    const mapped = editText(a.editingDirections, inputs, sentWith(inputs.length));
    it.editingDirectionsDiscussed = a.editingDirections;
    it.editingDirections = mapped.text;
    if (mapped.unmapped.length) {
      ctx.emit({
        type: 'notice',
        runId: ctx.record.id,
        level: 'warning',
        message: `The editing directions mention ${[...new Set(mapped.unmapped)].join(', ')}, which the edit model will not receive.`,
      });
    }
  }
}
