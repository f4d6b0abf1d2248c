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
import { maxEditImages } from '../remix/imageEdit';
import { renumberEdits } from '../remix/editText';

/** The engine's one call, after the remix agent (and a lead's decisions), before the edits of a remix round. */
export async function forkDesignRound(ctx: StepContext, it: Iteration): Promise<void> {
  if (it.final || !it.ranking?.length || remixesOf(it).length > 0 || it.proposals?.some((p) => p.fork)) return;
  const point = await chosenPoint(ctx, it);
  if (point === undefined) return;
  const candidates = it.candidates.map((id) => ({ id, label: ctx.record.options.find((o) => o.id === id)?.label ?? id }));
  const proposals = forkProposals(it, point, { candidates, maxInputs: maxEditImages(ctx.settings.imageModel) });
  if (proposals.length === 0) return;
  it.proposals = proposals;
  // Each side's prompt renumbered for its own inputs (its side line included): the one renumbering of core/remix/editText.ts.
  renumberEdits(ctx.record, it, ctx.settings.imageModel);
  await ctx.save();
  ctx.emit({
    type: 'notice',
    runId: ctx.record.id,
    level: 'info',
    message: `Round ${it.index} forks decision point ${point} (${proposals[0]?.fork?.question ?? ''}): one remix per side — ${proposals.map((p) => `${p.letter}: ${p.fork?.position ?? ''}`).join('; ')}.`,
  });
}

/** What the fork needs to know of the round's images: its candidates with their labels, and how many inputs an edit takes. */
export interface ForkImages {
  candidates?: readonly { id: string; label: string }[];
  maxInputs?: number;
}

/**
 * One proposal per side of decision point `point`, each the round's base proposal with directions that take that side. A
 * side that names one candidate of the round ("Image 5 leads") leads with it: that candidate is its edit's first input.
 * The directions as sent to the edit model are renumbered afterwards (renumberEdits).
 */
export function forkProposals(it: Iteration, point: number, images: ForkImages = {}): Proposal[] {
  const base = baseProposal(it);
  if (!base) return [];
  const sides = forkSides(it.decisionPoints ?? [], point);
  return sides.map(({ letter, fork }) => {
    const others = sides.filter((s) => s.letter !== letter).map((s) => s.fork.position);
    const line = sideLine(fork.question, fork.position, others);
    const lead = sideCandidate(fork.position, images.candidates ?? []);
    return {
      letter,
      idea: `takes the side "${fork.position}"`,
      from:
        lead === undefined
          ? [...base.from]
          : [lead, ...base.from.filter((id) => id !== lead)].slice(0, Math.max(1, images.maxInputs ?? Infinity)),
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

/** The one candidate a side names by its label ("Image 5 leads", "Image 10 (remix r1d)"), or undefined (none, or several). */
export function sideCandidate(position: string, candidates: readonly { id: string; label: string }[]): string | undefined {
  const named = new Set([...position.matchAll(/\bImage\s+(\d+)/gi)].map((m) => `image ${m[1]}`));
  const hits = candidates.filter((c) => named.has(c.label.trim().toLowerCase()));
  return hits.length === 1 && named.size === 1 ? hits[0]!.id : undefined;
}

/** The proposal a fork repeats: the round's first proposal, or its one remix (the consensus top candidates and its directions). */
function baseProposal(it: Iteration): Pick<Proposal, 'from' | 'editingDirections' | 'editingDirectionsDiscussed'> | undefined {
  const first = it.proposals?.[0];
  if (first) return first;
  if (!it.editingDirections || !it.ranking?.length) return undefined;
  return {
    from: it.ranking,
    editingDirections: it.editingDirections,
    ...(it.editingDirectionsDiscussed ? { editingDirectionsDiscussed: it.editingDirectionsDiscussed } : {}),
  };
}
