/**
 * The remix agent keeps the sides people decided (issue 38): directions of a later round that take a side the team did not
 * choose — a non-chosen position's words, without the chosen one's — are sent back once, naming the decision; a second such
 * answer is kept, and said. Only decisions that stand (not reopened) count; positions are read from the decision's counts.
 */
import type { Iteration } from '../record/record';
import { decisionSentence, humanDecisionsBefore } from '../discussion/decisionWords';

const fold = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function says(text: string, phrase: string): boolean {
  const p = fold(phrase);
  return p !== '' && new RegExp(`(^|[^\\p{L}\\p{N}])${escape(p)}($|[^\\p{L}\\p{N}])`, 'u').test(fold(text));
}

/** The sentence that sends directions back, or undefined when none of them takes a side people did not choose before round `index`. */
export function againstDecidedSide(
  directions: readonly (string | undefined)[],
  iterations: readonly Iteration[],
  index: number,
): string | undefined {
  for (const d of humanDecisionsBefore(iterations, index)) {
    const others = Object.keys(d.counts ?? {}).filter((p) => fold(p) !== fold(d.decision));
    for (const text of directions) {
      if (!text || says(text, d.decision)) continue;
      const taken = others.find((p) => says(text, p));
      if (taken)
        return `the editing directions take "${taken}", but that is not the side decided: ${decisionSentence(d)} Keep the decided side ("${d.decision}") in every direction.`;
    }
  }
  return undefined;
}
