/**
 * Designers × options: each cell shows the rank the designer gave, coloured by it (strong = best). The justification
 * shows on hover (title) and, for keyboard users, in a visible tooltip when the cell has focus (aria-describedby).
 * Built as a plain table with one listener for the whole grid, so 50 × 50 stays quick.
 */
import { h, section, muted } from '../dom';
import { heatPercent, averageRanks } from '../colors';
import { ordinal, fixed } from '../format';
import type { ViewContext } from '../context';

const TIP_ID = 'tf-heat-tip';

export function heatmapView(ctx: ViewContext): HTMLElement {
  const review = ctx.state.review;
  if (!review || review.designers.length === 0) {
    return section('tf-heatmap', 'Rankings', muted('No rankings yet. Add yours under "My ranking".'));
  }
  const options = review.options;
  const n = options.length;
  const perOption = new Map((ctx.state.analysis?.perOption ?? []).map((p) => [p.option, p] as const));
  const borda = new Map((ctx.state.analysis?.borda ?? []).map((b) => [b.option, b] as const));

  const headRow = h('tr', {}, h('th', { scope: 'col', class: 'tf-corner' }, 'Designer'));
  for (const o of options) {
    const contested = perOption.get(o.id)?.contested;
    headRow.append(
      h(
        'th',
        { scope: 'col', class: contested ? 'tf-opt-head tf-contested' : 'tf-opt-head', title: contested ? `${o.label}: contested` : o.label },
        h(
          'button',
          { type: 'button', class: 'tf-thumb-button tf-head-button', 'data-view': o.id, 'aria-label': `View ${ctx.labelOf(o.id)} large` },
          h('img', { src: o.src, alt: '', class: 'tf-head-thumb', loading: n > 12 ? 'lazy' : 'eager', decoding: 'async' }),
        ),
        h('span', { class: 'tf-head-id' }, o.id),
      ),
    );
  }

  const body = h('tbody');
  for (const d of review.designers) {
    const row = h('tr', {}, h('th', { scope: 'row', class: 'tf-designer' }, h('span', { class: 'tf-designer-name' }, d.name), d.role ? h('span', { class: 'tf-role' }, d.role) : null));
    const byOption = new Map(d.entries.map((e) => [e.option, e] as const));
    const avg = averageRanks(options.map((o) => byOption.get(o.id)?.rank ?? n));
    options.forEach((o, i) => {
      const e = byOption.get(o.id);
      if (!e) {
        row.append(h('td', { class: 'tf-cell tf-cell-empty' }, '–'));
        return;
      }
      const describe = `${d.name}, option ${o.id}, ranked ${ordinal(e.rank)}: ${e.justification}`;
      const cell = h('td', { class: 'tf-cell', tabindex: 0, title: e.justification, 'aria-label': describe, 'data-designer': d.id, 'data-option': o.id }, String(e.rank));
      cell.style.setProperty('--tf-heat', `${heatPercent(avg[i] ?? n, n)}%`);
      if ((avg[i] ?? n) <= 1.5) cell.classList.add('tf-cell-top');
      row.append(cell);
    });
    body.append(row);
  }

  const foot = h('tfoot');
  if (borda.size > 0) {
    const consensus = h('tr', {}, h('th', { scope: 'row', class: 'tf-designer' }, 'Consensus', h('span', { class: 'tf-role' }, 'Borda position')));
    for (const o of options) {
      const b = borda.get(o.id);
      const p = perOption.get(o.id);
      consensus.append(
        h('td', { class: 'tf-cell tf-cell-consensus', title: p ? `Mean rank ${fixed(p.meanRank)} (sd ${fixed(p.sd)}), ${b?.points ?? ''} points` : '' }, b ? String(b.position) : '–'),
      );
    }
    foot.append(consensus);
  }

  const tip = h('div', { id: TIP_ID, role: 'tooltip', class: 'tf-tooltip', hidden: true });
  const table = h('table', { class: 'tf-heat', 'aria-label': 'Ranks given by each designer (1 = best)' }, h('thead', {}, headRow), body, foot);
  let focused: HTMLElement | null = null;
  table.addEventListener('focusin', (ev) => {
    const cell = (ev.target as HTMLElement).closest<HTMLElement>('td.tf-cell[data-designer]');
    if (!cell) return;
    focused = cell;
    tip.textContent = cell.getAttribute('aria-label') ?? '';
    cell.setAttribute('aria-describedby', TIP_ID);
    tip.hidden = false;
    placeTip(tip, cell);
  });
  table.addEventListener('focusout', (ev) => {
    (ev.target as HTMLElement).removeAttribute?.('aria-describedby');
    focused = null;
    tip.hidden = true;
  });
  table.addEventListener('keydown', (ev) => moveFocus(ev, table));
  const wrap = h('div', { class: 'tf-heat-wrap', 'data-view-group': '' }, table);
  // The tooltip is fixed to the window, outside the scrolling box, so neither the box nor the panel's edge cuts it.
  const follow = () => {
    if (!wrap.isConnected) window.removeEventListener('scroll', follow);
    else if (focused && !tip.hidden) placeTip(tip, focused);
  };
  wrap.addEventListener('scroll', follow, { passive: true });
  window.addEventListener('scroll', follow, { passive: true });
  return section(
    'tf-heatmap',
    'Rankings',
    h('p', { class: 'tf-muted' }, `${review.designers.length} designers × ${n} options. 1 = best; stronger colour = better rank. Hover or focus a cell for the justification; click an image to see it large.`),
    wrap,
    tip,
  );
}

/** Below the cell when it fits in the window, else above it, else where the most room is (then it scrolls itself). */
function placeTip(tip: HTMLElement, cell: HTMLElement): void {
  const margin = 6;
  const box = cell.getBoundingClientRect();
  tip.style.setProperty('max-height', `${Math.max(80, window.innerHeight - 2 * margin)}px`);
  const t = tip.getBoundingClientRect();
  const below = window.innerHeight - box.bottom - margin;
  const above = box.top - margin;
  let top: number;
  if (t.height + 4 <= below) top = box.bottom + 4;
  else if (t.height + 4 <= above) top = box.top - 4 - t.height;
  else top = Math.max(margin, window.innerHeight - margin - t.height);
  const left = Math.max(margin, Math.min(box.left, window.innerWidth - margin - t.width));
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
