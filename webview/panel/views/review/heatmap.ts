/**
 * Designers × options: each cell shows the rank the designer gave, coloured by it (strong = best). The justification
 * shows in one tooltip for the cell under the pointer or with focus (aria-describedby); it closes when the pointer leaves
 * the grid, on Escape and on blur. It never covers the cells around it or takes their pointer (see placeTip).
 * Built as a plain table with one listener for the whole grid, so 50 × 50 stays quick (its first rows first, see
 * drawGrid), and drawn once per set of rankings:
 * a state that brings only the agreement (a large review's comes right after its rankings) marks the contested options
 * and fills the consensus row of the grid already drawn.
 */
import { h, section, muted } from '../../dom';
import { heatPercent, averageRanks } from '../../colors';
import { ordinal, fixed } from '../../text/format';
import type { ViewContext } from '../../context';

const TIP_ID = 'tf-heat-tip';
/** A grid of more cells than this draws its first rows (about this many cells) first, and the rest right after the first paint. */
const FIRST_DRAW_CELLS = 400;

/** The rankings grid of the overview, kept between states while the rankings and options stay the same. */
export class Heatmap {
  private key = '';
  private drawn: Grid | undefined;

  view(ctx: ViewContext): HTMLElement {
    const review = ctx.state.review;
    if (!review || review.designers.length === 0) {
      this.key = '';
      this.drawn = undefined;
      return section('tf-heatmap', 'Rankings', muted('No rankings yet. Add yours under "My ranking".'));
    }
    const key = JSON.stringify([review.options, review.designers]);
    if (!this.drawn || key !== this.key) {
      this.drawn = drawGrid(ctx);
      this.key = key;
    }
    markAgreement(ctx, this.drawn.heads, this.drawn.foot);
    return this.drawn.element;
  }

  /** Adds the rows the first draw of a large grid left for after the first paint. */
  finish(): void {
    this.drawn?.finish();
  }

  /** Whether the grid drawn has rows still to add (finish). */
  partial(): boolean {
    return this.drawn?.partial() ?? false;
  }
}

interface Grid {
  element: HTMLElement;
  heads: HTMLElement[];
  foot: HTMLElement;
  finish(): void;
  partial(): boolean;
}

/** The fewest rows a large grid's first draw holds (what a panel shows of it below the Kendall section). */
const MIN_FIRST_ROWS = 6;

/** The contested options' column heads and the consensus (Borda) row, from the state's analysis. */
function markAgreement(ctx: ViewContext, heads: HTMLElement[], foot: HTMLElement): void {
  const options = ctx.state.review?.options ?? [];
  const perOption = new Map((ctx.state.analysis?.perOption ?? []).map((p) => [p.option, p] as const));
  const borda = new Map((ctx.state.analysis?.borda ?? []).map((b) => [b.option, b] as const));
  options.forEach((o, i) => {
    const head = heads[i];
    if (!head) return;
    const contested = perOption.get(o.id)?.contested === true;
    head.classList.toggle('tf-contested', contested);
    head.title = contested ? `${o.label}: contested` : o.label;
  });
  foot.replaceChildren();
  if (borda.size === 0) return;
  const consensus = h(
    'tr',
    {},
    h('th', { scope: 'row', class: 'tf-designer' }, 'Consensus', h('span', { class: 'tf-role' }, 'Borda position')),
  );
  for (const o of options) {
    const b = borda.get(o.id);
    const p = perOption.get(o.id);
    consensus.append(
      h(
        'td',
        {
          class: 'tf-cell tf-cell-consensus',
          title: p ? `Mean rank ${fixed(p.meanRank)} (sd ${fixed(p.sd)}), ${b?.points ?? ''} points` : '',
        },
        b ? String(b.position) : '–',
      ),
    );
  }
  foot.append(consensus);
}

/**
 * The grid. Of a large one (a 50 × 50 review is 2,500 cells) the first draw holds its first rows — about as many as a
 * panel shows below the Kendall section — so laying out the rest does not hold back the panel's first frame; finish()
 * adds them (the app calls it after that frame).
 */
function drawGrid(ctx: ViewContext): Grid {
  const review = ctx.state.review!;
  const options = review.options;
  const n = options.length;

  const headRow = h('tr', {}, h('th', { scope: 'col', class: 'tf-corner' }, 'Designer'));
  const heads: HTMLElement[] = [];
  for (const o of options) {
    const head = h(
      'th',
      { scope: 'col', class: 'tf-opt-head', title: o.label },
      h(
        'button',
        { type: 'button', class: 'tf-thumb-button tf-head-button', 'data-view': o.id, 'aria-label': `View ${ctx.labelOf(o.id)} large` },
        h('img', { src: o.src, alt: '', class: 'tf-head-thumb', decoding: 'async' }),
      ),
      h('span', { class: 'tf-head-id' }, o.id),
    );
    heads.push(head);
    headRow.append(head);
  }

  const body = h('tbody');
  const rowOf = (d: (typeof review.designers)[number]): HTMLElement => {
    const row = h(
      'tr',
      {},
      h(
        'th',
        { scope: 'row', class: 'tf-designer' },
        h('span', { class: 'tf-designer-name' }, d.name),
        d.role ? h('span', { class: 'tf-role' }, d.role) : null,
      ),
    );
    const byOption = new Map(d.entries.map((e) => [e.option, e] as const));
    const avg = averageRanks(options.map((o) => byOption.get(o.id)?.rank ?? n));
    options.forEach((o, i) => {
      const e = byOption.get(o.id);
      if (!e) {
        row.append(h('td', { class: 'tf-cell tf-cell-empty' }, '–'));
        return;
      }
      const describe = `${d.name}, option ${o.id}, ranked ${ordinal(e.rank)}: ${e.justification}`;
      const cell = h(
        'td',
        { class: 'tf-cell', tabindex: 0, 'aria-label': describe, 'data-designer': d.id, 'data-option': o.id },
        String(e.rank),
      );
      cell.style.setProperty('--tf-heat', `${heatPercent(avg[i] ?? n, n)}%`);
      if ((avg[i] ?? n) <= 1.5) cell.classList.add('tf-cell-top');
      row.append(cell);
    });
    return row;
  };
  // A large grid: its first rows now, the others built and added by finish().
  const firstRows = n * review.designers.length > FIRST_DRAW_CELLS ? Math.max(MIN_FIRST_ROWS, Math.floor(FIRST_DRAW_CELLS / n)) : Infinity;
  const rest = review.designers.slice(Math.min(firstRows, review.designers.length));
  for (const d of review.designers.slice(0, firstRows)) body.append(rowOf(d));
  const finish = (): void => {
    if (rest.length === 0) return;
    const later = document.createDocumentFragment();
    for (const d of rest.splice(0)) later.append(rowOf(d));
    body.append(later);
  };

  const foot = h('tfoot');

  const tip = h('div', { id: TIP_ID, role: 'tooltip', class: 'tf-tooltip', hidden: true });
  const table = h(
    'table',
    { class: 'tf-heat', 'aria-label': 'Ranks given by each designer (1 = best)' },
    h('thead', {}, headRow),
    body,
    foot,
  );
  const wrap = h('div', { class: 'tf-heat-wrap', 'data-view-group': '' }, table);
  let shownFor: HTMLElement | null = null;
  const cellOf = (t: EventTarget | null): HTMLElement | null =>
    t instanceof Element ? t.closest<HTMLElement>('td.tf-cell[data-designer]') : null;
  const onEscape = (ev: KeyboardEvent) => {
    if (ev.key !== 'Escape' || tip.hidden) return;
    ev.stopPropagation();
    hide();
  };
  const show = (cell: HTMLElement) => {
    if (shownFor && shownFor !== cell) shownFor.removeAttribute('aria-describedby');
    shownFor = cell;
    tip.textContent = cell.getAttribute('aria-label') ?? '';
    cell.setAttribute('aria-describedby', TIP_ID);
    tip.hidden = false;
    placeTip(tip, cell, wrap);
    document.addEventListener('keydown', onEscape, true);
  };
  function hide(): void {
    shownFor?.removeAttribute('aria-describedby');
    shownFor = null;
    tip.hidden = true;
    document.removeEventListener('keydown', onEscape, true);
  }
  table.addEventListener('focusin', (ev) => {
    const cell = cellOf(ev.target);
    if (cell) show(cell);
  });
  table.addEventListener('focusout', (ev) => {
    if (cellOf(ev.target) === shownFor) hide();
  });
  // Hover: the tooltip follows the pointer from cell to cell; off a cell (a header, the gaps) it closes unless the cell
  // it is for has focus; leaving the grid closes it.
  table.addEventListener('pointerover', (ev) => {
    const cell = cellOf(ev.target);
    if (cell && cell !== shownFor) show(cell);
    else if (!cell && shownFor && shownFor !== document.activeElement) hide();
  });
  table.addEventListener('pointerleave', hide);
  table.addEventListener('keydown', (ev) => moveFocus(ev, table));
  // The tooltip is fixed to the window, outside the scrolling box, so neither the box nor the panel's edge cuts it.
  const follow = () => {
    if (!wrap.isConnected) {
      window.removeEventListener('scroll', follow);
      document.removeEventListener('keydown', onEscape, true);
    } else if (shownFor && !tip.hidden) placeTip(tip, shownFor, wrap);
  };
  wrap.addEventListener('scroll', follow, { passive: true });
  window.addEventListener('scroll', follow, { passive: true });
  const element = section(
    'tf-heatmap',
    'Rankings',
    h(
      'p',
      { class: 'tf-muted' },
      `${review.designers.length} designers × ${n} options. 1 = best; stronger colour = better rank. Hover or focus a cell for the justification; click an image to see it large.`,
    ),
    wrap,
    tip,
  );
  return { element, heads, foot, finish, partial: () => rest.length > 0 };
}

/**
 * Outside the grid's visible part, in line with the cell: above it when the tooltip fits in the window there, else below
 * it, else beside it. There it lies over no cell, so nothing of the grid is hidden or loses the pointer, and it takes the
 * pointer like any element (it closes as soon as the pointer leaves the grid anyway). Only when the grid fills the
 * window does it lie over the grid: then on the side of the cell with more room, clear of the cell's own row and the
 * rows next to it, shortened to fit (it scrolls itself), and it lets the pointer through to the cells under it
 * (tf-tooltip-over: pointer-events none).
 */
function placeTip(tip: HTMLElement, cell: HTMLElement, grid: HTMLElement): void {
  const margin = 6;
  const gap = 4;
  tip.classList.remove('tf-tooltip-over');
  tip.style.setProperty('max-height', `${Math.max(80, window.innerHeight - 2 * margin)}px`);
  const box = cell.getBoundingClientRect();
  // The table as its scrolling box shows it.
  const w = grid.getBoundingClientRect();
  const tb = (grid.querySelector('table') ?? grid).getBoundingClientRect();
  const g = {
    top: Math.max(w.top, tb.top),
    bottom: Math.min(w.bottom, tb.bottom),
    left: Math.max(w.left, tb.left),
    right: Math.min(w.right, tb.right),
  };
  // The part of the grid the window shows.
  const top0 = Math.max(g.top, 0);
  const bottom0 = Math.min(g.bottom, window.innerHeight);
  const t = tip.getBoundingClientRect();
  const clampLeft = (x: number) => Math.max(margin, Math.min(x, window.innerWidth - margin - t.width));
  const clampTop = (y: number) => Math.max(margin, Math.min(y, window.innerHeight - margin - t.height));
  let top: number;
  let left = clampLeft(box.left);
  if (top0 - gap - t.height >= margin) top = top0 - gap - t.height;
  else if (bottom0 + gap + t.height <= window.innerHeight - margin) top = bottom0 + gap;
  else if (window.innerWidth - g.right - gap - margin >= t.width) {
    left = g.right + gap;
    top = clampTop(box.top);
  } else if (g.left - gap - margin >= t.width) {
    left = g.left - gap - t.width;
    top = clampTop(box.top);
  } else {
    tip.classList.add('tf-tooltip-over');
    const clearAbove = box.top - box.height - gap; // the row above the cell stays clear
    const clearBelow = box.bottom + box.height + gap; // and the row below
    const roomAbove = clearAbove - margin;
    const roomBelow = window.innerHeight - margin - clearBelow;
    const room = Math.max(roomAbove, roomBelow, 40);
    tip.style.setProperty('max-height', `${Math.round(room)}px`);
    const height = Math.min(t.height, room);
    top = roomAbove >= roomBelow ? Math.max(margin, clearAbove - height) : clearBelow;
  }
  tip.style.setProperty('top', `${Math.round(top)}px`);
  tip.style.setProperty('left', `${Math.round(left)}px`);
}

/** Arrow keys move between ranked cells like a grid. */
function moveFocus(ev: KeyboardEvent, table: HTMLTableElement): void {
  const keys: Record<string, [number, number]> = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  const delta = keys[ev.key];
  const cell = (ev.target as HTMLElement).closest('td');
  if (!delta || !cell || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const row = cell.parentElement as HTMLTableRowElement;
  const rows = Array.from(table.tBodies[0]?.rows ?? []);
  const r = rows.indexOf(row) + delta[0];
  const c = cell.cellIndex + delta[1];
  const target = rows[r]?.cells[c];
  if (target && target.tabIndex === 0) {
    ev.preventDefault();
    target.focus();
  }
}
