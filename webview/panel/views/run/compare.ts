/**
 * Side-by-side compare of two to six images (e.g. a remix next to the images it came from): each column shows the
 * image whole at the same height, its name and file, and who ranked it where.
 */
import { h } from '../../dom';
import type { ViewContext } from '../../context';
import { placementsView } from '../review/imageFacts';

/**
 * A remix and up to five sources in one row, every column one size (a remix of more says how many of its sources the
 * compare shows): what "made from" lists, the compare opens.
 */
export const MAX_COMPARE = 6;

export function compareView(ctx: ViewContext, ids: readonly string[], onView: (id: string) => void): HTMLElement {
  const shown = ids.slice(0, MAX_COMPARE);
  return h(
    'div',
    {
      class: `tf-compare-grid tf-compare-${shown.length}`,
      role: 'list',
      'aria-label': `${shown.length} images side by side`,
    },
    ...shown.map((id) => {
      const src = ctx.imageOf(id);
      const label = ctx.labelOf(id);
      return h(
        'section',
        { class: 'tf-compare-col', role: 'listitem', 'data-option': id, 'aria-label': label },
        h('h3', { class: 'tf-compare-title' }, label),
        h('p', { class: 'tf-muted tf-file' }, ctx.fileOf(id) ?? id),
        src
          ? h('img', { class: 'tf-compare-img', src, alt: label, decoding: 'async' })
          : h('div', { class: 'tf-thumb-missing tf-compare-img', role: 'img', 'aria-label': `${label}: no image` }, '?'),
        h('vscode-button', { secondary: true, class: 'tf-compare-open', onclick: () => onView(id) }, `View ${label} large`),
        placementsView(ctx, id),
      );
    }),
  );
}
