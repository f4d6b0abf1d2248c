/**
 * What the viewer and the compare view say about one image: its file, who ranked it where (best first, with each
 * designer's justification), its consensus place, and for a remix where it came from. All text goes in as text.
 */
import { h } from '../../dom';
import { ordinal, fixed } from '../../text/format';
import type { ViewContext } from '../../context';
import { forkSideText, remixesOf, remixesWithDirections } from '../../../../src/protocol/shared';
import { remixSources } from '../../../../src/protocol/candidateNames';

export interface Placement {
  designer: string;
  rank: number;
  justification: string;
}

/** Every designer's rank of `id`, best rank first (ties keep the designers' order). */
export function placementsOf(ctx: ViewContext, id: string): Placement[] {
  const out: Placement[] = [];
  for (const d of ctx.state.review?.designers ?? []) {
    const e = d.entries.find((x) => x.option === id);
    if (e) out.push({ designer: d.name, rank: e.rank, justification: e.justification });
  }
  return out.sort((a, b) => a.rank - b.rank);
}

/** One line per designer: "Ana Ruiz — 1st", then the justification. */
export function placementsView(ctx: ViewContext, id: string): HTMLElement {
  const placements = placementsOf(ctx, id);
  const borda = ctx.state.analysis?.borda.find((b) => b.option === id);
  const remixIt = ctx.state.run?.iterations.find((it) => remixesOf(it).some((m) => m.id === id));
  const remixOf = remixIt ? { index: remixIt.index, remix: remixesWithDirections(remixIt).find((m) => m.id === id)! } : undefined;
  const box = h('div', { class: 'tf-facts-box' });
  if (borda)
    box.append(
      h(
        'p',
        { class: 'tf-facts-consensus' },
        `Consensus: #${borda.position} of ${ctx.state.analysis?.borda.length ?? 0} (${fixed(borda.points, 1)} Borda points)`,
      ),
    );
  if (remixOf?.remix && remixIt) {
    const from = remixSources(remixIt, remixOf.remix);
    box.append(
      h('p', {}, `Remix made in iteration ${remixOf.index}${from.length ? ` from ${listWords(from.map((f) => ctx.labelOf(f)))}` : ''}.`),
    );
    if (remixOf.remix.fork) box.append(h('p', { class: 'tf-remix-fork' }, forkSideText(remixOf.remix.fork)));
    else if (remixOf.remix.idea) box.append(h('p', {}, `Idea: ${remixOf.remix.idea}`));
    if (remixOf.remix.editingDirections) box.append(h('p', { class: 'tf-directions' }, remixOf.remix.editingDirections));
  }
  for (const it of ctx.state.run?.iterations ?? []) {
    const place = it.ranking?.indexOf(id) ?? -1;
    if (place >= 0)
      box.append(
        h('p', { class: 'tf-muted' }, `Iteration ${it.index} consensus of the proxies: ${ordinal(place + 1)} of ${it.ranking!.length}`),
      );
  }
  if (placements.length === 0) {
    if (!remixOf) box.append(h('p', { class: 'tf-muted' }, 'No designer has ranked this image.'));
    return box;
  }
  box.append(
    h('h3', {}, 'Who ranked it where'),
    h(
      'ol',
      { class: 'tf-placements', 'aria-label': 'Who ranked it where, best rank first' },
      ...placements.map((p) =>
        h(
          'li',
          {},
          h('span', { class: 'tf-placement-head' }, h('strong', {}, p.designer), ` — ${ordinal(p.rank)}`),
          p.justification ? h('span', { class: 'tf-placement-why' }, p.justification) : null,
        ),
      ),
    ),
  );
  return box;
}

/** "a", "a and b", "a, b and c". */
function listWords(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
