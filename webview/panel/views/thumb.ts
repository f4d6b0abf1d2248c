import { h } from '../dom';
import type { ViewContext } from '../context';

/** A small image of an option or remix, with its id underneath; a placeholder when the image is unknown. */
export function thumb(ctx: ViewContext, id: string, size: 'sm' | 'md' | 'lg' = 'sm'): HTMLElement {
  const src = ctx.imageOf(id);
  const label = ctx.labelOf(id);
  return h(
    'figure',
    { class: `tf-thumb tf-thumb-${size}`, 'data-option': id },
    src ? h('img', { src, alt: label, loading: size === 'sm' ? 'lazy' : 'eager', decoding: 'async' }) : h('div', { class: 'tf-thumb-missing', 'aria-hidden': 'true' }, '?'),
    h('figcaption', {}, label),
  );
}
