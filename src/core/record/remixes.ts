/**
 * Several remixes a round (issue 19), read the same way everywhere: an iteration's one `remix` (every record before it, and
 * runs with one remix a round) or its `remixes`, each with the directions it was made from. Pure (types only), so the
 * webview bundle can use it too.
 */
import type { Iteration, Remix, RunSettings } from './record';

/** Every remix an iteration made: its one `remix`, or the `remixes` of several (older records: the one). */
export function remixesOf(it: Pick<Iteration, 'remix' | 'remixes'>): Remix[] {
  return [...(it.remix ? [it.remix] : []), ...(it.remixes ?? [])];
}

/** A remix with the directions it was made from (its proposal's, or the iteration's when there is one remix). */
export interface RemixMade extends Remix {
  editingDirections?: string;
  editingDirectionsDiscussed?: string;
  idea?: string;
}

/** Every remix of an iteration with its own directions. */
export function remixesWithDirections(it: Pick<Iteration, 'remix' | 'remixes' | 'proposals' | 'editingDirections' | 'editingDirectionsDiscussed'>): RemixMade[] {
  return remixesOf(it).map((r) => {
    const p = r.letter ? it.proposals?.find((x) => x.letter === r.letter) : undefined;
    if (p) return { ...r, editingDirections: p.editingDirections, ...(p.editingDirectionsDiscussed ? { editingDirectionsDiscussed: p.editingDirectionsDiscussed } : {}), ...(p.idea ? { idea: p.idea } : {}) };
    if (r.letter) return { ...r };
    return { ...r, ...(it.editingDirections ? { editingDirections: it.editingDirections } : {}), ...(it.editingDirectionsDiscussed ? { editingDirectionsDiscussed: it.editingDirectionsDiscussed } : {}) };
  });
}

/** Remixes a round of this run makes (older records: 1). */
export function remixesPerIterationOf(s: Pick<RunSettings, 'remixesPerIteration'>): number {
  return s.remixesPerIteration ?? 1;
}
