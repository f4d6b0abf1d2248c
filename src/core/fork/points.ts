/**
 * Which decision points a round can fork (issue 33): two to four mutually exclusive positions, each held by at least one
 * member taking part, nobody holding two of them, and not already settled in the round's `decisions`. Pure: the engine, the
 * lead's choice and the CLI read the rule from here.
 */
import type { DecisionPoint, ForkSide, Iteration } from '../record/record';

export const MIN_FORK_SIDES = 2;
export const MAX_FORK_SIDES = 4;

/** Whether this point splits the team into 2–4 sides (each held by a member of `members`, nobody on two sides). */
export function splitsTeam(point: DecisionPoint, members: readonly string[]): boolean {
  const n = point.positions.length;
  if (n < MIN_FORK_SIDES || n > MAX_FORK_SIDES || !point.question.trim()) return false;
  const texts = new Set(point.positions.map((p) => p.position.trim().toLowerCase()));
  if (texts.size !== n || texts.has('')) return false;
  const seen = new Set<string>();
  for (const p of point.positions) {
    const held = [...new Set(p.heldBy)].filter((id) => members.includes(id));
    if (held.length === 0) return false;
    for (const id of held) {
      if (seen.has(id)) return false;
      seen.add(id);
    }
  }
  return true;
}

/** A round's decision points: a design round's `decisionPoints`, a brief round's disagreements (who holds which side). */
export function roundPoints(it: Pick<Iteration, 'decisionPoints' | 'brief'>): readonly DecisionPoint[] {
  return it.brief ? it.brief.disagreements : (it.decisionPoints ?? []);
}

/**
 * The 1-based indices (in the round's decision points) of the points this round can fork, in order. `decidedBefore`: the
 * questions people decided in earlier rounds (a decided side is kept, never forked again while the decision stands).
 */
export function forkablePoints(
  it: Pick<Iteration, 'decisionPoints' | 'decisions' | 'brief'>,
  members: readonly string[],
  decidedBefore: readonly string[] = [],
): number[] {
  const settled = new Set([...(it.decisions ?? []).map((d) => d.question), ...decidedBefore].map((q) => q.trim().toLowerCase()));
  return roundPoints(it).flatMap((p, i) => (splitsTeam(p, members) && !settled.has(p.question.trim().toLowerCase()) ? [i + 1] : []));
}

/** The sides of one point as recorded on each fork (`fork` of a remix or a brief passage), letters a, b, … in position order. */
export function forkSides(points: readonly DecisionPoint[], index: number): { letter: string; fork: ForkSide }[] {
  const point = points[index - 1];
  if (!point) return [];
  return point.positions.map((p, i) => ({
    letter: String.fromCharCode(97 + i),
    fork: { question: point.question.trim(), position: p.position.trim(), decisionPoint: index },
  }));
}

/** The point and its positions in words, for a prompt or a notice: `Warm or cold palette? (1) warm (2) cold`. */
export function pointWords(point: DecisionPoint): string {
  return `${point.question.trim()} ${point.positions.map((p, i) => `(${i + 1}) ${p.position.trim()}`).join(' ')}`;
}
