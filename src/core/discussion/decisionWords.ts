/** How a decision the team voted on reads in later prompts (issue 33). */
import type { Iteration } from '../record/record';

type Decision = NonNullable<Iteration['decisions']>[number];

/** "warm palette, 3 to 1" — the winner and its margin, as later prompts say it. */
export function marginText(d: Pick<Decision, 'decision' | 'counts'>): string {
  if (!d.counts) return d.decision;
  const won = d.counts[d.decision] ?? 0;
  const rest = Object.entries(d.counts).filter(([p]) => p !== d.decision).map(([, n]) => n).sort((a, b) => b - a);
  return `${d.decision}, ${[won, ...rest].join(' to ')}`;
}
