/**
 * How one designer sees this round's candidates, for the scripted proxy (runAnswers.ts), in every round:
 * - an original stands at its rank in the designer's own file;
 * - a remix stands at the weighted mean of what it is made from, as the scripted edit blends it (runImage.ts): what leads it
 *   (the image its fork's side names, else its first source) weighs 1, its other sources 1/2, 1/3, … in their order; a
 *   remix of remixes through theirs. So a remix led by the designer's favourite ranks high for them and low for a designer
 *   who ranked that favourite last, and the sides of a fork stand apart.
 * The words said about a candidate are the designer's own reason for what leads it, quoted from their file.
 */
import type { MadeFrom, Persona } from './requestFacts';

export interface PersonaView {
  /** This round's candidates, best first for this designer. */
  order: string[];
  /** The original a candidate comes down to (itself, or what leads a remix, followed down); undefined when unknown. */
  origin(label: string): string | undefined;
  /** The designer's rank of an original. */
  rank(label: string): number | undefined;
  /** The first sentence of the designer's own reason for an original, verbatim. */
  words(label: string): string | undefined;
}

/** A remix's inputs in the order the scripted edit weighs them: what leads it, then its other sources. */
export function weighedInputs(m: MadeFrom): string[] {
  return [m.lead, ...m.from.filter((l) => l !== m.lead)];
}

const firstSentence = (s: string): string => s.trim().split(/(?<=[.!?])\s+/)[0]!;

export function personaView(p: Persona, round: readonly string[], facts: ReadonlyMap<string, MadeFrom>): PersonaView {
  const ranks = new Map(p.ranking.map((r) => [r.label, r.rank]));
  const reasons = new Map(p.ranking.map((r) => [r.label, r.reason]));
  const scores = new Map<string, number | undefined>();
  const score = (label: string, seen: ReadonlySet<string> = new Set()): number | undefined => {
    if (ranks.has(label)) return ranks.get(label);
    if (scores.has(label)) return scores.get(label);
    const m = facts.get(label);
    if (!m || seen.has(label)) return undefined;
    let sum = 0;
    let weights = 0;
    weighedInputs(m).forEach((l, i) => {
      const s = score(l, new Set([...seen, label]));
      if (s === undefined) return;
      sum += s / (i + 1);
      weights += 1 / (i + 1);
    });
    const value = weights > 0 ? sum / weights : undefined;
    scores.set(label, value);
    return value;
  };
  const origin = (label: string, seen: ReadonlySet<string> = new Set()): string | undefined => {
    if (ranks.has(label)) return label;
    const m = facts.get(label);
    return m && !seen.has(label) ? origin(m.lead, new Set([...seen, label])) : undefined;
  };
  const at = (l: string): number => score(l) ?? Number.POSITIVE_INFINITY;
  // Ties: an original before a remix at the same standing, then the round's order.
  const order = [...round].sort(
    (a, b) => at(a) - at(b) || Number(!ranks.has(a)) - Number(!ranks.has(b)) || round.indexOf(a) - round.indexOf(b),
  );
  return {
    order,
    origin: (l) => origin(l),
    rank: (l) => ranks.get(l),
    words: (l) => (reasons.get(l) ? firstSentence(reasons.get(l)!) : undefined),
  };
}
