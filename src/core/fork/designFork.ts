/**
 * A design round's fork (issue 33): when the round forks a decision point, its remixes become one per position — the same
 * proposal (the round's one remix, or its first proposal: the same inputs, the same directions) with the directions taking
 * that side — in place of the round's other remixes. Each is an ordinary proposal with `fork` set, so the edits, the record
 * (`remixes[].fork`), the resume of a failed edit (only the missing ones are made) and the candidates of the next round are
 * those of several remixes a round. A round that has made any remix is never planned again.
 */
import type { Iteration, Proposal } from '../record/record';
import { remixesOf } from '../record/remixes';
import type { StepContext } from '../step/context';
import { chosenPoint } from './choice';
import { forkSides } from './points';

/** The engine's one call, after the remix agent (and a lead's decisions), before the edits of a remix round. */
export async function forkDesignRound(ctx: StepContext, it: Iteration): Promise<void> {
  if (it.final || !it.ranking?.length || remixesOf(it).length > 0 || it.proposals?.some((p) => p.fork)) return;
  const point = await chosenPoint(ctx, it);
  if (point === undefined) return;
  const proposals = forkProposals(it, point);
  if (proposals.length === 0) return;
  it.proposals = proposals;
  await ctx.save();
  ctx.emit({
    type: 'notice',
    runId: ctx.record.id,
    level: 'info',
    message: `Round ${it.index} forks decision point ${point} (${proposals[0]?.fork?.question ?? ''}): one remix per side — ${proposals.map((p) => `${p.letter}: ${p.fork?.position ?? ''}`).join('; ')}.`,
  });
}

/** One proposal per side of decision point `point`, each the round's base proposal with directions that take that side. */
export function forkProposals(it: Iteration, point: number): Proposal[] {
  const base = baseProposal(it);
  if (!base) return [];
  const sides = forkSides(it.decisionPoints ?? [], point);
  return sides.map(({ letter, fork }) => {
    const others = sides.filter((s) => s.letter !== letter).map((s) => s.fork.position);
    const line = sideLine(fork.question, fork.position, others);
    return {
      letter,
      idea: `takes the side "${fork.position}"`,
      from: [...base.from],
      editingDirections: `${base.editingDirections}\n${line}`,
      ...(base.editingDirectionsDiscussed ? { editingDirectionsDiscussed: `${base.editingDirectionsDiscussed}\n${line}` } : {}),
      fork,
    };
  });
}

/** The line every fork's directions end with: the side it takes, and the sides it does not blend in. */
export function sideLine(question: string, position: string, others: readonly string[]): string {
  const q = question.replace(/\s+/g, ' ').trim();
  return `Decision: ${q} This remix takes one side only: ${position.replace(/\s+/g, ' ').trim()}.${others.length ? ` Do not blend in ${others.map((o) => `"${o.replace(/\s+/g, ' ').trim()}"`).join(' or ')}.` : ''}`;
}

/** The proposal a fork repeats: the round's first proposal, or its one remix (the consensus top candidates and its directions). */
function baseProposal(it: Iteration): Pick<Proposal, 'from' | 'editingDirections' | 'editingDirectionsDiscussed'> | undefined {
  const first = it.proposals?.[0];
  if (first) return first;
  if (!it.editingDirections || !it.ranking?.length) return undefined;
  return { from: it.ranking, editingDirections: it.editingDirections, ...(it.editingDirectionsDiscussed ? { editingDirectionsDiscussed: it.editingDirectionsDiscussed } : {}) };
}
