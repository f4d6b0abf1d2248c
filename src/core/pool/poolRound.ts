/**
 * A pooled remix round (issue 41), after the remix agent has proposed the pool (remix/remixAgent.ts records it on the
 * round) and before anything is sent to the image model:
 *   1. a pool below the diversity floor is asked for once more (one request, its repair bounded); `reasked` says so;
 *   2. each member's proxy ranks the pool (one strict request each, the letters an enum, one repair); a ranking that is
 *      still no permutation is left out of the election and said;
 *   3. Schulze over the rankings, members weighted, elects as many as the round makes remixes (election.ts); only the
 *      elected become the round's proposals, so only they reach the image model, each as the remix with its letter.
 * Every ranking is saved as soon as it is made, so a resume never asks one again. A round that may fork (forks on and a
 * decision point that splits the team) does not rank: the fork replaces the pool, from the agent's own first proposals.
 */
import * as z from 'zod';
import type { ChatMessage } from '../llm/messages';
import type { DesignerRanking } from '../review/model';
import type { Iteration } from '../record/record';
import { remixesOf, remixesPerIterationOf } from '../record/remixes';
import type { StepContext } from '../step/context';
import { conversationMessages } from '../discussion/discussion';
import { DIVERSITY_FLOOR, poolDiversity } from '../stats/election/diversity';
import { askStructured, groundsOf, remixAgentBase, type RemixAgentInput } from '../remix/remixAgent';
import { agentProposal, poolCandidates, proposalsForEdit, proposalsJsonSchema, proposalsSchema } from '../remix/proposals';
import { parseJsonAnswer } from '../remix/structuredAnswer';
import { directionsProblem } from '../grounding/citations';
import { parseRankingAnswer } from '../forecast/forecastPrompts';
import { forkSettled } from '../fork/choice';
import { electPool } from './election';
import { poolRankingMessage, poolRankingStructured, poolReaskMessage } from './poolPrompts';
import { cannotAnswer, isAbort } from '../llm/errors';
import { CancelledError } from '../kernel/errors';
import { limiter } from '../kernel/limit';
import { discussionOf } from '../settings/discussionSettings';

/** One repair of a ranking or of the re-ask, then the round goes on without it. */
export const POOL_EXTRA_ATTEMPTS = 1;
export const POOL_SCHEMA_NAME = 'teamfusion_pool';

export interface PoolRoundInput extends Pick<RemixAgentInput, 'candidates' | 'prefix' | 'references'> {
  labelOf: (id: string) => string;
}

/** A pool request whose answer stayed unusable after its repair (the round goes on without it). */
class UnusableAnswer extends Error {}

/** The engine's one call after the remix agent of a design round: re-ask, rankings, election (each skipped when recorded). */
export async function runPoolRound(ctx: StepContext, it: Iteration, r: PoolRoundInput): Promise<void> {
  const pool = it.pool;
  if (!pool || it.final || pool.elected.length > 0 || it.proposals?.length || remixesOf(it).length > 0) return;
  const elect = Math.min(remixesPerIterationOf(ctx.settings), pool.candidates.length);
  if (!forkSettled(ctx, it)) return forkReplacesPool(ctx, it, r, elect);
  if (!pool.reasked && pool.candidates.length > 1 && pool.diversity < DIVERSITY_FLOOR) await reaskPool(ctx, it, r, elect);
  // A pool of one (what was valid of a short answer) has nothing to rank.
  const toRank = (pool.candidates.length > 1 ? ctx.designers : []).filter(
    (d) => !pool.rankings[d.id] && !pool.leftOut?.some((x) => x.member === d.id),
  );
  await rankConcurrently(ctx, it, r, toRank, elect);
  const weights = new Map(ctx.designers.map((d) => [d.id, d.weight]));
  pool.elected = electPool(pool, weights, elect);
  const ranked = Object.keys(pool.rankings).length;
  it.proposals = proposalsForEdit(
    ctx,
    r,
    it.references ?? [],
    pool.candidates
      .filter((c) => pool.elected.includes(c.letter))
      .map((c) => ({ letter: c.letter, ...(c.differs ? { idea: c.differs } : {}), from: c.from, editingDirections: c.editingDirections })),
  );
  await ctx.save();
  ctx.emit({
    type: 'notice',
    runId: ctx.record.id,
    level: 'info',
    message: ranked
      ? `Round ${it.index}: Schulze over ${ranked} proxies' rankings of the pool of ${pool.candidates.length} elected ${pool.elected.join(', ')}.`
      : `Round ${it.index}: no proxy's ranking of the pool was usable, so the remix agent's own first ${elect === 1 ? 'proposal is' : `${elect} proposals are`} made (${pool.elected.join(', ')}).`,
  });
}

/** A round that may fork: the fork replaces the pool; the agent's own first proposals stand until it does. */
async function forkReplacesPool(ctx: StepContext, it: Iteration, r: PoolRoundInput, elect: number): Promise<void> {
  const first = it.pool!.candidates.slice(0, elect);
  delete it.pool;
  it.proposals = proposalsForEdit(
    ctx,
    r,
    it.references ?? [],
    first.map((c) => ({
      letter: c.letter,
      ...(c.differs ? { idea: c.differs } : {}),
      from: c.from,
      editingDirections: c.editingDirections,
    })),
  );
  await ctx.save();
  ctx.emit({
    type: 'notice',
    runId: ctx.record.id,
    level: 'info',
    message: `Round ${it.index} may fork a decision point, and a fork replaces the pool: it is not ranked.`,
  });
}

/** The re-ask of a pool that is one idea: once, its answer repaired at most once; an unusable one keeps the first pool. */
async function reaskPool(ctx: StepContext, it: Iteration, r: PoolRoundInput, elect: number): Promise<void> {
  const pool = it.pool!;
  const size = pool.candidates.length;
  const maxInputs = Math.max(1, it.ranking?.length ?? 1);
  const candidateIds = r.candidates.map((c) => c.id);
  const { base } = remixAgentBase(
    ctx,
    { iteration: it, candidates: r.candidates, prefix: r.prefix, references: r.references },
    maxInputs,
    size,
    elect,
  );
  const previous: ChatMessage = {
    role: 'assistant',
    content: JSON.stringify({
      remixes: pool.candidates.map((c) => ({ differs: c.differs, from: c.from, editingDirections: c.editingDirections })),
    }),
  };
  const validator = z.object({ remixes: proposalsSchema(candidateIds, size) });
  const before = pool.diversity;
  pool.reasked = true;
  try {
    const remixes = await askStructured(ctx, {
      iteration: it.index,
      base: [...base, previous, poolReaskMessage(size, before, ctx.settings.personaRole)],
      structured: {
        name: POOL_SCHEMA_NAME,
        strict: true,
        schema: {
          type: 'object',
          additionalProperties: false,
          required: ['remixes'],
          properties: { remixes: proposalsJsonSchema(candidateIds, maxInputs, size, true) },
        },
      },
      parse: (content) => {
        const parsed = parseJsonAnswer(content, validator);
        if ('error' in parsed) return parsed;
        const proposals = parsed.value.remixes.map((p) => agentProposal(p, maxInputs));
        const problem = directionsProblem(
          proposals.map((p) => p.editingDirections),
          groundsOf(ctx, r),
        );
        return problem ? { error: problem } : proposals;
      },
      extraAttempts: POOL_EXTRA_ATTEMPTS,
      kind: 'pool-reask',
      giveUp: (problem) => new UnusableAnswer(problem),
    });
    pool.candidates = poolCandidates(remixes);
    pool.diversity = poolDiversity(pool.candidates.map((c) => c.editingDirections));
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'info',
      message: `Round ${it.index}: the pool was one idea (diversity ${before.toFixed(2)}, floor ${DIVERSITY_FLOOR}); asked once more, its diversity is ${pool.diversity.toFixed(2)}.`,
    });
  } catch (err) {
    // Not answered at all (cancelled, or the endpoint failed for now): not asked yet, so a resume asks it.
    const problem = err instanceof UnusableAnswer ? err.message : cannotAnswer(err);
    if (problem === undefined) {
      pool.reasked = false;
      throw err;
    }
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'warning',
      message: `Round ${it.index}: the pool was asked once more for directions that differ, but the answer was not usable (${problem}); the first pool stands.`,
    });
  }
  await ctx.save();
}

/**
 * The proxies' rankings of the pool, asked at once (at most the discussion's maxConcurrency in flight: they are
 * independent, each sees the same round), and recorded in the order of the designers, whatever order the answers come
 * in: each ranking's prompts, the ranking and its save wait for the designer before it to be recorded (or to have
 * failed), so run.json, the journal and prompts.jsonl read the same every time. A ranking that fails for good (cancelled,
 * the endpoint failed) fails only itself: the others are recorded, then the first failure in designer order (a cancel
 * first) stops the round, and a resume asks only the missing ones.
 */
async function rankConcurrently(
  ctx: StepContext,
  it: Iteration,
  r: PoolRoundInput,
  designers: readonly DesignerRanking[],
  elect: number,
): Promise<void> {
  if (designers.length === 0) return;
  await ctx.settled?.();
  // Built before any answer arrives: every ranking sees the same round.
  const conversation = conversationMessages(ctx, it);
  const limited = limiter(discussionOf(ctx.settings).maxConcurrency);
  let previous: Promise<unknown> = Promise.resolve();
  const runs = designers.map((d) => {
    // In designer order: what this ranking writes waits for the one before it to be recorded (or to have failed).
    const before = previous;
    const serial = <T>(fn: () => T | Promise<T>): Promise<T> => before.then(() => fn());
    const run = rankPool(ctx, it, r, d, elect, { conversation, serial, limited });
    previous = run.catch(() => undefined);
    return run;
  });
  const results = await Promise.allSettled(runs);
  const failed = results.flatMap((x) => (x.status === 'rejected' ? [x.reason as unknown] : []));
  if (failed.length === 0) return;
  throw failed.find((err) => err instanceof CancelledError || isAbort(err, ctx.signal)) ?? failed[0];
}

/** One proxy's ranking of the pool, saved as soon as it is made; still no permutation after its repair: left out, said. */
async function rankPool(
  ctx: StepContext,
  it: Iteration,
  r: PoolRoundInput,
  d: DesignerRanking,
  elect: number,
  at: {
    conversation: readonly ChatMessage[];
    /** What writes the record, in designer order. */
    serial: <T>(fn: () => T | Promise<T>) => Promise<T>;
    /** The request and its repair, within the run's limit of requests in flight. */
    limited: <T>(fn: () => Promise<T>) => Promise<T>;
  },
): Promise<void> {
  const pool = it.pool!;
  const letters = pool.candidates.map((c) => c.letter);
  const { serial } = at;
  let ranking: string[] | undefined;
  let failure: unknown;
  try {
    ranking = await at.limited(async () => {
      if (ctx.signal?.aborted) throw new CancelledError();
      return askStructured(ctx, {
        iteration: it.index,
        base: [
          ...r.prefix,
          ...at.conversation,
          poolRankingMessage({ designer: d, pool, elect, labelOf: r.labelOf, personaRole: ctx.settings.personaRole }),
        ],
        structured: poolRankingStructured(letters),
        parse: parseRankingAnswer(letters),
        extraAttempts: POOL_EXTRA_ATTEMPTS,
        kind: 'pool-ranking',
        speaker: d.id,
        whose: `${d.name}'s proxy's`,
        giveUp: (problem) => new UnusableAnswer(problem),
        serial,
      });
    });
  } catch (err) {
    failure = err;
  }
  await serial(async () => {
    if (ranking) pool.rankings[d.id] = ranking;
    else {
      const err = failure;
      const unanswered = cannotAnswer(err);
      if (!(err instanceof UnusableAnswer) && unanswered === undefined) throw err;
      const reason =
        unanswered === undefined
          ? `${d.name}'s proxy's ranking of the pool was still not every letter once after its repair (${(err as Error).message}); it is left out of the election.`
          : `${d.name}'s proxy's ranking of the pool was not made (${unanswered}); it is left out of the election.`;
      pool.leftOut = [...(pool.leftOut ?? []), { member: d.id, reason }];
      ctx.emit({ type: 'notice', runId: ctx.record.id, level: 'warning', message: reason });
    }
    await ctx.save();
  });
}
