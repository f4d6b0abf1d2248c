/**
 * The turn schedule of a discussion round: who speaks, in which order, in which phase, and what each turn may see.
 * Pure functions of the recorded settings and the round number, so a resumed run plans exactly the same round again.
 *
 * - Speaking order (`order`): `fixed` = the review's designer order every round; `rotate` (default) = that order turned by
 *   one more place each round, starting at an offset taken from the seed, so no two consecutive rounds share an order;
 *   `shuffle` = a seeded shuffle per round (never the same as the round before). The lead, when there is one and
 *   `leadSpeaksLast` is not false, is taken out first and placed last (the others rotate or shuffle).
 * - Phases (`mode`): `together` = round-robin, turn 1 of everyone in order, then turn 2, …, everything visible;
 *   `separate-then-together` (default) = each proxy's turn 1 is an independent assessment that sees none of the others'
 *   messages of the round (these go out concurrently), later turns are round-robin with everything visible;
 *   `separate` = no proxy sees another's messages of the round, ever (each turn sees only its own speaker's earlier ones).
 * - Turns of one `group` may run concurrently; groups run one after the other.
 *
 * Extra turns (an @mention, a guest, a person's message) are not in the schedule: they are messages that do not match a
 * scheduled (speaker, turn) pair, so they never use up a proxy's scheduled turn (see `pendingTurns`).
 */
import { SeededRandom } from '../stats/prng';
import type { DiscussionSettings, Phase } from '../settings/discussionSettings';

export interface ScheduledTurn {
  speaker: string;
  /** 1-based turn of this speaker within the round. */
  turn: number;
  phase: Phase;
  /** Turns with the same group may run concurrently; groups run in increasing order. */
  group: number;
}

export interface RoundPlan {
  round: number;
  /** Speaking order of this round (designer ids). */
  order: string[];
  /** Every scheduled proxy turn, in speaking order. */
  turns: ScheduledTurn[];
}

/** The part of a recorded message the schedule looks at. */
export interface ScheduleMessage {
  speaker: string;
  kind?: string;
  /** null/undefined for messages outside the schedule (a person's message, a mention). */
  turn?: number | null;
  phase?: Phase;
}

/** Speaking order of round `round` (1-based) among `designers` (review order). */
export function speakingOrder(
  designers: readonly string[],
  round: number,
  s: Pick<DiscussionSettings, 'order' | 'orderSeed' | 'lead' | 'leadSpeaksLast'>,
): string[] {
  const leadLast = s.lead !== undefined && s.leadSpeaksLast && designers.includes(s.lead);
  const others = leadLast ? designers.filter((d) => d !== s.lead) : [...designers];
  const n = others.length;
  let ordered: string[];
  if (s.order === 'fixed' || n < 2) ordered = others;
  else if (s.order === 'rotate') ordered = rotate(others, (s.orderSeed % n) + round - 1);
  else ordered = shuffledOrder(others, s.orderSeed, round);
  return leadLast ? [...ordered, s.lead!] : ordered;
}

/** The whole plan of one round. */
export function roundPlan(designers: readonly string[], round: number, s: DiscussionSettings): RoundPlan {
  const order = speakingOrder(designers, round, s);
  const turns: ScheduledTurn[] = [];
  for (let turn = 1; turn <= s.turnsPerAgent; turn++) {
    for (const speaker of order) {
      if (s.mode === 'separate') turns.push({ speaker, turn, phase: 'separate', group: turn });
      else if (s.mode === 'separate-then-together' && turn === 1) turns.push({ speaker, turn, phase: 'independent', group: 0 });
      else turns.push({ speaker, turn, phase: 'together', group: turns.length });
    }
  }
  return { round, order, turns };
}

/** Is this recorded message the answer to this scheduled turn? */
export function fulfils(m: ScheduleMessage, t: Pick<ScheduledTurn, 'speaker' | 'turn'>): boolean {
  return (m.kind ?? 'proxy') === 'proxy' && m.speaker === t.speaker && m.turn === t.turn;
}

/** Scheduled turns that have no recorded message yet, in speaking order. */
export function pendingTurns(plan: RoundPlan, messages: readonly ScheduleMessage[]): ScheduledTurn[] {
  return plan.turns.filter((t) => !messages.some((m) => fulfils(m, t)));
}

/** The next turns to run: the pending turns of the first group that still has any (empty when the round is done). */
export function nextBatch(plan: RoundPlan, messages: readonly ScheduleMessage[]): ScheduledTurn[] {
  const pending = pendingTurns(plan, messages);
  const first = pending[0];
  return first ? pending.filter((t) => t.group === first.group) : [];
}

/**
 * What a turn may see of this round's messages: everything in the together phase; only its own speaker's messages in the
 * independent and separate phases (its proxy's earlier turns and the person's own words — never another's message).
 */
export function visibleMessages<M extends ScheduleMessage>(
  turn: Pick<ScheduledTurn, 'speaker' | 'phase'>,
  roundMessages: readonly M[],
): M[] {
  if (turn.phase === 'together') return [...roundMessages];
  return roundMessages.filter((m) => m.speaker === turn.speaker);
}

function rotate<T>(xs: readonly T[], by: number): T[] {
  const n = xs.length;
  if (n === 0) return [];
  const k = ((by % n) + n) % n;
  return [...xs.slice(k), ...xs.slice(0, k)];
}

/** Round r's shuffle, turned by one place when it would repeat round r − 1's order. */
function shuffledOrder(xs: readonly string[], seed: number, round: number): string[] {
  let previous: string[] | undefined;
  let current: string[] = [];
  for (let r = 1; r <= round; r++) {
    current = seededShuffle(xs, seed, r);
    if (previous && sameOrder(current, previous)) current = rotate(current, 1);
    previous = current;
  }
  return current;
}

function seededShuffle<T>(xs: readonly T[], seed: number, round: number): T[] {
  // One stream per (seed, round): mixing the round into the seed keeps rounds independent and reproducible.
  const rng = new SeededRandom((seed ^ Math.imul(round, 0x9e3779b1)) >>> 0);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.nextBelow(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** A fresh seed for a run that was not given one. */
export function newSeed(): number {
  return Math.floor(Math.random() * 2 ** 32) >>> 0;
}
