/** A pooled round's directions side by side (issue 41): who ranked which first, the elected marked with the remix it became. */
import { poolTableOf, type PoolTable } from '../../../../src/protocol/shared';
import { h, section } from '../../dom';
import type { ViewContext } from '../../context';
import type { PanelRun } from '../../../../src/protocol/panel';

function roundView(ctx: ViewContext, t: PoolTable): HTMLElement {
  const names = (ids: readonly string[]) => ids.map((id) => ctx.designerName(id)).join(', ');
  return h(
    'div',
    { class: 'tf-pool', 'data-pool-iteration': String(t.iteration) },
    h('h3', {}, `Iteration ${t.iteration}: a pool of ${t.columns.length}`),
    h(
      'p',
      { class: 'tf-muted' },
      `Diversity ${t.diversity.toFixed(2)}${t.reasked ? ' · asked again for directions that differ' : ''} · elected by Schulze over the proxies' rankings`,
    ),
    h(
      'div',
      { class: 'tf-pool-grid' },
      ...t.columns.map((c) =>
        h(
          'figure',
          { class: c.elected ? 'tf-pool-card tf-pool-elected' : 'tf-pool-card', 'data-pool-letter': c.letter },
          h(
            'figcaption',
            {},
            h('strong', {}, `${c.letter})`),
            ` ${c.differs}`,
            c.elected ? h('vscode-badge', {}, c.remix ? `elected → ${ctx.labelOf(c.remix)}` : 'elected') : null,
          ),
          h('p', { class: 'tf-directions' }, c.editingDirections),
          h('p', { class: 'tf-muted' }, `From ${c.from.map((id) => ctx.labelOf(id)).join(', ')}`),
          h('p', { class: 'tf-muted' }, c.rankedFirstBy.length ? `Ranked first by ${names(c.rankedFirstBy)}` : 'Ranked first by nobody'),
        ),
      ),
    ),
    ...t.leftOut.map((l) => h('p', { class: 'tf-muted' }, `${ctx.designerName(l.member)}'s ranking was left out: ${l.reason}`)),
  );
}

/** Every pooled round of the run; null when no round had a pool. */
export function poolsView(ctx: ViewContext, run: PanelRun): HTMLElement | null {
  const tables = run.iterations.flatMap((it) => {
    const t = poolTableOf(it);
    return t ? [t] : [];
  });
  return tables.length ? section('tf-pools', 'Pools of directions', ...tables.map((t) => roundView(ctx, t))) : null;
}
