/**
 * The full image on focus: thumbnails are cropped squares, so when one has keyboard focus or the pointer, a popover
 * shows the whole image larger beside it (outside any scrolling box, so nothing cuts it off). Decorative for screen
 * readers: the thumbnail's button already names the image, and Enter opens the viewer.
 * It never covers text being read: the pointer shows it only when the pointer itself moved onto a thumbnail, not when a
 * thumbnail slid under a resting pointer (a live discussion growing, a refined run redrawn), which the browser also
 * reports as the pointer entering it.
 */
import { h } from '../../dom';

const SIZE = 320;

/** Where the pointer was on the screen at the last event seen. */
export type PointerAt = { x: number; y: number } | undefined;

/** True when the pointer moved on the screen since `last`: an event at the same spot comes from the page moving under it. */
export function pointerMoved(last: PointerAt, ev: { screenX: number; screenY: number }): boolean {
  return last === undefined || last.x !== ev.screenX || last.y !== ev.screenY;
}

export class ThumbPeek {
  readonly element = h('div', { class: 'tf-peek', id: 'tf-peek', 'aria-hidden': 'true', hidden: true });
  private readonly img = h('img', { alt: '', decoding: 'async' });
  private current: HTMLElement | null = null;

  constructor(root: HTMLElement) {
    this.element.append(this.img);
    const show = (ev: Event) => {
      const t = (ev.target as HTMLElement).closest?.<HTMLElement>('[data-view]');
      if (t && t !== this.current) this.show(t);
    };
    let at: PointerAt;
    const hover = (ev: MouseEvent) => {
      const moved = pointerMoved(at, ev);
      at = { x: ev.screenX, y: ev.screenY };
      if (moved) show(ev);
    };
    const hide = (ev: Event) => {
      const t = (ev.target as HTMLElement).closest?.<HTMLElement>('[data-view]');
      const to = (ev as FocusEvent | MouseEvent).relatedTarget as Node | null;
      if (t && t === this.current && !(to && t.contains(to))) this.hide();
    };
    root.addEventListener('focusin', show);
    root.addEventListener('mouseover', hover);
    root.addEventListener('mousemove', (ev) => (at = { x: ev.screenX, y: ev.screenY }), { passive: true });
    root.addEventListener('focusout', hide);
    root.addEventListener('mouseout', hide);
    root.addEventListener('click', () => this.hide());
    root.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') this.hide();
    });
    window.addEventListener('scroll', () => this.hide(), { capture: true, passive: true });
  }

  private show(trigger: HTMLElement): void {
    const src = trigger.querySelector('img')?.getAttribute('src');
    if (!src) return;
    this.current = trigger;
    this.img.src = src;
    this.element.hidden = false;
    const box = trigger.getBoundingClientRect();
    const w = Math.min(SIZE, window.innerWidth - 16);
    const hgt = Math.min(SIZE, window.innerHeight - 16);
    this.element.style.setProperty('--tf-peek-w', `${w}px`);
    this.element.style.setProperty('--tf-peek-h', `${hgt}px`);
    // Right of the thumbnail when it fits, else left of it, else below it; always inside the window.
    let left = box.right + 8;
    if (left + w > window.innerWidth - 8) left = box.left - w - 8;
    let top = box.top;
    if (left < 8) {
      left = Math.max(8, Math.min(box.left, window.innerWidth - w - 8));
      top = box.bottom + 8;
      if (top + hgt > window.innerHeight - 8) top = box.top - hgt - 8;
    }
    top = Math.max(8, Math.min(top, window.innerHeight - hgt - 8));
    this.element.style.setProperty('left', `${Math.round(left)}px`);
    this.element.style.setProperty('top', `${Math.round(top)}px`);
  }

  hide(): void {
    this.current = null;
    this.element.hidden = true;
  }
}
