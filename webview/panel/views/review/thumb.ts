import { h } from '../../dom';
import type { ViewContext } from '../../context';

/**
 * An option or remix image with its name underneath; a placeholder when the image is unknown. The image is a button
 * (`data-view`): Enter or a click opens the large viewer, focus or hover shows the whole image (see peek.ts).
 * `sm` is a fixed 36 px; `md` follows the thumbnail size setting (≥ 96 px); `lg` is 220 px.
 */
export function thumb(ctx: ViewContext, id: string, size: 'sm' | 'md' | 'lg' = 'sm'): HTMLElement {
  const src = ctx.imageOf(id);
  const label = ctx.labelOf(id);
  return h(
    'figure',
    { class: `tf-thumb tf-thumb-${size}`, 'data-option': id },
    src
      ? h(
          'button',
          {
            type: 'button',
            class: 'tf-thumb-button',
            'data-view': id,
            'aria-label': `View ${label} large`,
            title: `${label} — click to view large`,
          },
          // Lazy, as every image h() makes: one out of view (a long ranking list, a tab not shown) is fetched when it
          // comes into view, and none holds back the page's load (VS Code shows a webview once it has loaded).
          h('img', { src, alt: '', decoding: 'async' }),
        )
      : h('div', { class: 'tf-thumb-missing', role: 'img', 'aria-label': `${label}: no image` }, '?'),
    h('figcaption', {}, label),
  );
}
