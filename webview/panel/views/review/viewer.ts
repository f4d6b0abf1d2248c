/**
 * The large image viewer: a dialog over the whole panel width showing one option or remix whole, its file name and who
 * ranked it where. ← / → step through the images of the group it was opened from, Esc closes and gives focus back to
 * the thumbnail that opened it. "Add to compare" collects up to three images for the side-by-side compare, which the
 * same dialog shows (a remix card opens it directly with the remix and its sources).
 */
import { h, replaceChildren } from '../../dom';
import type { ViewContext } from '../../context';
import { placementsView } from './imageFacts';
import { compareView, MAX_COMPARE } from '../run/compare';

type Mode = { kind: 'view'; ids: string[]; index: number } | { kind: 'compare'; ids: string[] };

export class ImageViewer {
  readonly element = h('div', {
    class: 'tf-viewer',
    id: 'tf-viewer',
    role: 'dialog',
    'aria-modal': 'true',
    'aria-labelledby': 'tf-viewer-title',
    tabindex: -1,
    hidden: true,
  });
  private readonly status = h('div', { class: 'tf-sr-only', 'aria-live': 'polite' });
  private ctx: ViewContext | undefined;
  private mode: Mode | undefined;
  private opener: HTMLElement | null = null;
  /** Images picked for the compare, in the order picked. */
  private picked: string[] = [];

  constructor() {
    this.element.addEventListener('keydown', (ev) => this.onKey(ev));
    // Focus can end up on the page itself (after the window lost focus): the keys still work.
    document.addEventListener('keydown', (ev) => {
      // (Not when the dialog handled it already: its re-render may have detached the event's target.)
      if (this.isOpen && !ev.defaultPrevented && !this.element.contains(ev.target as Node)) this.onKey(ev);
    });
    document.body.append(this.status);
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** New state from the host: re-render what is open (images may have gone). */
  update(ctx: ViewContext): void {
    this.ctx = ctx;
    this.picked = this.picked.filter((id) => ctx.imageOf(id));
    if (this.mode && this.isOpen) this.render();
  }

  open(ids: string[], index: number, opener: HTMLElement | null): void {
    if (ids.length === 0) return;
    if (!this.isOpen) this.opener = opener;
    this.mode = { kind: 'view', ids, index: Math.max(0, Math.min(ids.length - 1, index)) };
    this.show();
  }

  compare(ids: string[], opener: HTMLElement | null): void {
    const unique = [...new Set(ids)].slice(0, MAX_COMPARE);
    if (unique.length < 2) return;
    if (!this.isOpen) this.opener = opener;
    this.mode = { kind: 'compare', ids: unique };
    this.show();
  }

  close(): void {
    if (!this.isOpen) return;
    this.element.hidden = true;
    this.mode = undefined;
    document.body.classList.remove('tf-modal-open');
    const back = this.opener;
    this.opener = null;
    if (back?.isConnected) back.focus();
  }

  private show(): void {
    this.render();
    this.element.hidden = false;
    document.body.classList.add('tf-modal-open');
    this.element.scrollTop = 0;
    this.element.focus();
  }

  private step(delta: number): void {
    if (this.mode?.kind !== 'view') return;
    const n = this.mode.ids.length;
    this.mode.index = (this.mode.index + delta + n) % n;
    this.render();
  }

  private onKey(ev: KeyboardEvent): void {
    const typing = (ev.target as HTMLElement).closest('input, textarea, vscode-textfield, vscode-textarea');
    if (ev.key === 'Escape') {
      ev.preventDefault();
      ev.stopPropagation();
      this.close();
    } else if ((ev.key === 'ArrowRight' || ev.key === 'ArrowLeft') && !typing && !ev.altKey && !ev.ctrlKey && !ev.metaKey) {
      ev.preventDefault();
      this.step(ev.key === 'ArrowRight' ? 1 : -1);
    } else if (ev.key === 'Tab') {
      this.trapFocus(ev);
    }
  }

  /** Tab and Shift+Tab stay inside the dialog. */
  private trapFocus(ev: KeyboardEvent): void {
    const focusable = [...this.element.querySelectorAll<HTMLElement>('button, vscode-button, [tabindex="0"]')].filter(
      (e) => !e.hasAttribute('disabled'),
    );
    if (focusable.length === 0) return;
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    const active = document.activeElement;
    if (ev.shiftKey && (active === first || active === this.element)) {
      ev.preventDefault();
      last.focus();
    } else if (!ev.shiftKey && active === last) {
      ev.preventDefault();
      first.focus();
    }
  }

  private togglePick(id: string): void {
    if (this.picked.includes(id)) this.picked = this.picked.filter((x) => x !== id);
    else this.picked = [...this.picked, id].slice(-MAX_COMPARE);
    this.render();
    this.status.textContent = `${this.picked.length} of ${MAX_COMPARE} images picked for the compare.`;
  }

  /** Re-renders, keeping the focus on the control that had it (by id), else on the dialog. */
  private render(): void {
    const active = document.activeElement;
    const focusedId = active && active !== this.element && this.element.contains(active) ? active.id : '';
    this.build();
    if (!this.isOpen || !document.hasFocus()) return;
    const again = focusedId ? document.getElementById(focusedId) : null;
    if (again) again.focus();
    else if (focusedId || !this.element.contains(document.activeElement)) this.element.focus();
  }

  private build(): void {
    const ctx = this.ctx;
    const mode = this.mode;
    if (!ctx || !mode) return;
    const close = h(
      'button',
      {
        type: 'button',
        class: 'tf-icon-button tf-viewer-close',
        id: 'tf-viewer-close',
        'aria-label': 'Close (Esc)',
        title: 'Close (Esc)',
        onclick: () => this.close(),
      },
      '✕',
    );
    if (mode.kind === 'compare') {
      replaceChildren(
        this.element,
        h(
          'div',
          { class: 'tf-viewer-bar' },
          h('h2', { id: 'tf-viewer-title' }, `Compare ${mode.ids.map((id) => ctx.labelOf(id)).join(' · ')}`),
          h('span', { class: 'tf-spacer' }),
          close,
        ),
        compareView(ctx, mode.ids, (id) => this.open(mode.ids, mode.ids.indexOf(id), null)),
      );
      return;
    }
    const id = mode.ids[mode.index]!;
    const label = ctx.labelOf(id);
    const src = ctx.imageOf(id);
    const picked = this.picked.includes(id);
    const many = mode.ids.length > 1;
    replaceChildren(
      this.element,
      h(
        'div',
        { class: 'tf-viewer-bar' },
        h('h2', { id: 'tf-viewer-title' }, label),
        h('span', { class: 'tf-muted tf-file', id: 'tf-viewer-file' }, ctx.fileOf(id) ?? id),
        h('span', { class: 'tf-muted', id: 'tf-viewer-count' }, `${mode.index + 1} of ${mode.ids.length}`),
        h('span', { class: 'tf-spacer' }),
        many
          ? h(
              'button',
              {
                type: 'button',
                class: 'tf-icon-button',
                id: 'tf-viewer-prev',
                'aria-label': 'Previous image (←)',
                title: 'Previous (←)',
                onclick: () => this.step(-1),
              },
              '←',
            )
          : null,
        many
          ? h(
              'button',
              {
                type: 'button',
                class: 'tf-icon-button',
                id: 'tf-viewer-next',
                'aria-label': 'Next image (→)',
                title: 'Next (→)',
                onclick: () => this.step(1),
              },
              '→',
            )
          : null,
        h(
          'button',
          {
            type: 'button',
            class: 'tf-text-button',
            id: 'tf-viewer-pick',
            'aria-pressed': picked ? 'true' : 'false',
            onclick: () => this.togglePick(id),
          },
          picked ? 'Picked for compare' : 'Add to compare',
        ),
        this.picked.length >= 2
          ? h(
              'button',
              { type: 'button', class: 'tf-text-button', id: 'tf-viewer-compare', onclick: () => this.compare(this.picked, null) },
              `Compare ${this.picked.length}`,
            )
          : null,
        close,
      ),
      h(
        'div',
        { class: 'tf-viewer-body' },
        src
          ? h('img', { class: 'tf-viewer-img', id: 'tf-viewer-img', src, alt: label, decoding: 'async' })
          : h('div', { class: 'tf-thumb-missing tf-viewer-img', role: 'img', 'aria-label': `${label}: no image` }, '?'),
        h('aside', { class: 'tf-viewer-facts', 'aria-label': `About ${label}` }, placementsView(ctx, id)),
      ),
      many
        ? h('p', { class: 'tf-muted tf-viewer-help' }, '← and → step through the images, Esc closes.')
        : h('p', { class: 'tf-muted tf-viewer-help' }, 'Esc closes.'),
    );
  }
}

/** The ids a thumbnail steps through: every `[data-view]` in its group (`[data-view-group]`, else its section), once each. */
export function viewGroup(trigger: HTMLElement): string[] {
  const scope = trigger.closest('[data-view-group]') ?? trigger.closest('section') ?? document.body;
  const ids: string[] = [];
  for (const el of scope.querySelectorAll<HTMLElement>('[data-view]')) {
    const id = el.dataset.view;
    if (id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
