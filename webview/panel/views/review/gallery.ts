/**
 * The reference gallery in the Overview (issue 19): the images the team chose for style (references/), each with its
 * label, id and the team's note. Shown apart from the candidates and never ranked: no rank, no button that adds it to a
 * ranking. Images come as webview URIs from the host (inside the review folder, the panel's resource root); notes and
 * names go in as text nodes only.
 */
import { h, section, muted } from '../../dom';
import type { ViewContext } from '../../context';

export function galleryView(ctx: ViewContext): HTMLElement | null {
  const refs = ctx.state.review?.references ?? [];
  if (refs.length === 0) return null;
  const grid = h('ul', { class: 'tf-gallery', 'aria-label': 'Reference images' });
  for (const r of refs) {
    grid.append(
      h(
        'li',
        { class: 'tf-gallery-item', 'data-reference': r.id },
        h(
          'figure',
          {},
          h('img', {
            src: r.src,
            alt: r.note ? `${r.label}: ${r.note}` : r.label,
            loading: 'lazy',
            decoding: 'async',
            width: r.width,
            height: r.height,
          }),
          h(
            'figcaption',
            {},
            h('strong', {}, r.label),
            h('span', { class: 'tf-muted' }, ` · ${r.id}`),
            r.note
              ? h('span', { class: 'tf-gallery-note' }, r.note)
              : h('span', { class: 'tf-gallery-note tf-muted' }, 'No note on what it is for.'),
          ),
        ),
      ),
    );
  }
  return section(
    'tf-references',
    `Reference gallery (${refs.length})`,
    muted(
      'Images the team chose for style. The proxies and the remix agent see them apart from the candidates; they are never ranked, and the remix agent may send the ones it cites to the image edit after the candidates.',
    ),
    grid,
  );
}
