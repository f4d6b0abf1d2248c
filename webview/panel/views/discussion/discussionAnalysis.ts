/**
 * "Discussion analysis" of the run shown (Run tab): the Code discussion button (progress, cancel), per speaker a stacked
 * bar of Bales categories (task area, then social area), the team's Agrees vs Disagrees per round with the "possibly too
 * compliant" flag, and the stance table (kept or yielded). Charts are SVG built with DOM calls; colours are theme
 * variables (media/panel.css, .tf-cat-<n>), so they follow dark, light and high-contrast themes. All text goes in as text.
 */
import { BALES_CATEGORIES, categoryArea, COMPLIANT_SHARE, areaTotals } from '../../../../src/protocol/shared';
import type { PanelCodingProgress, PanelDiscussionAnalysis } from '../../../../src/protocol/panel';
import type { ViewContext } from '../../context';
import { h, muted, replaceChildren, section } from '../../dom';
import { count } from '../../text/format';

const SVG = 'http://www.w3.org/2000/svg';
/** Bar order: task area (answers, then questions), then social area (positive, then negative), then "none". */
export const BAR_ORDER = [4, 5, 6, 7, 8, 9, 1, 2, 3, 10, 11, 12, 13] as const;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

function title(text: string): SVGTitleElement {
  return svg('title', {}, text);
}

/** Segments of one speaker's bar: [category, count, x, width] in BAR_ORDER, scaled so `max` messages fill `width`. */
export function barSegments(
  row: Record<string, number>,
  max: number,
  width: number,
): { category: number; count: number; x: number; w: number }[] {
  const out: { category: number; count: number; x: number; w: number }[] = [];
  let x = 0;
  for (const c of BAR_ORDER) {
    const n = row[String(c)] ?? 0;
    if (!n) continue;
    const w = max > 0 ? (n / max) * width : 0;
    out.push({ category: c, count: n, x, w });
    x += w;
  }
  return out;
}

export class DiscussionAnalysisView {
  readonly element = h('div', { class: 'tf-discussion-analysis' });
  private readonly progressLine = h('div', { class: 'tf-coding-progress', 'aria-live': 'polite' });
  private ctx: ViewContext | undefined;
  private coding: PanelCodingProgress | undefined;

  render(ctx: ViewContext): void {
    this.ctx = ctx;
    const d = ctx.state.discussion;
    if (d?.coding) this.coding = d.coding;
    else if (this.coding && (!this.coding.active || this.coding.runId !== d?.runId)) this.coding = undefined;
    replaceChildren(this.element);
    if (!ctx.state.run || !d) return;
    this.element.append(
      section('tf-discussion-analysis', 'Discussion analysis', this.toolbar(ctx, d), this.progressLine, ...this.body(ctx, d)),
    );
    this.renderProgress();
  }

  onProgress(p: PanelCodingProgress): void {
    this.coding = p;
    if (this.ctx) this.render(this.ctx);
  }

  private toolbar(ctx: ViewContext, d: PanelDiscussionAnalysis): HTMLElement {
    const { state, host } = ctx;
    const active = this.coding?.active === true;
    const code = h(
      'vscode-button',
      {
        id: 'tf-code-discussion',
        disabled: !state.trusted || active,
        title: state.trusted
          ? 'Give every message of this run one Bales category (codes already in analysis.json are kept)'
          : 'Not in an untrusted workspace: nothing is sent to a model',
        onclick: () => host.post({ type: 'codeDiscussion', runId: d.runId }),
      },
      'Code discussion',
    );
    const again = d.analysis
      ? h(
          'vscode-button',
          {
            id: 'tf-code-again',
            secondary: true,
            disabled: !state.trusted || active,
            onclick: () => host.post({ type: 'codeDiscussion', runId: d.runId, force: true }),
          },
          'Code again from scratch',
        )
      : null;
    const cancel = active
      ? h('vscode-button', { id: 'tf-cancel-coding', secondary: true, onclick: () => host.post({ type: 'cancelCoding' }) }, 'Cancel')
      : null;
    return h(
      'div',
      { class: 'tf-actions' },
      code,
      again,
      cancel,
      state.trusted ? null : h('span', { class: 'tf-muted' }, 'Restricted mode: coding is off (nothing is sent to a model).'),
    );
  }

  private renderProgress(): void {
    const p = this.coding;
    if (!p || (!p.active && !p.message)) return replaceChildren(this.progressLine);
    replaceChildren(
      this.progressLine,
      p.active ? h('vscode-progress-ring', { class: 'tf-ring', 'aria-hidden': 'true' }) : null,
      h('span', {}, p.active && p.total ? `${p.coded} of ${p.total} coded. ${p.message}` : p.message),
    );
  }

  private body(ctx: ViewContext, d: PanelDiscussionAnalysis): (HTMLElement | null)[] {
    const out: (HTMLElement | null)[] = [];
    if (d.error) out.push(h('p', { class: 'tf-notice tf-notice-error', role: 'alert' }, d.error));
    const a = d.analysis;
    if (!a) {
      out.push(muted('Not coded yet. "Code discussion" gives every message one of Bales\' categories (analysis.json in the run folder).'));
    } else {
      const cost = a.usage.costUsd === undefined ? 'cost unknown' : `about $${a.usage.costUsd.toFixed(4)}`;
      out.push(
        h(
          'p',
          { class: 'tf-muted', id: 'tf-coding-summary' },
          `${a.bales.length} messages coded by ${a.model} (${a.requests} requests, ${cost}${a.mode !== 'direct' ? `, ${a.mode}` : ''}${a.runStatus === 'running' ? '; the run was still running' : ''}).`,
        ),
      );
      if (a.uncoded.length)
        out.push(h('p', { class: 'tf-notice tf-notice-warning' }, `Uncoded (no valid code after the retries): ${a.uncoded.join(', ')}.`));
      if (a.batch)
        out.push(
          h('p', { class: 'tf-notice' }, `Batch ${a.batch.id} is ${a.batch.status}; "Code discussion" collects it when it is done.`),
        );
      if (a.batchProblem) out.push(h('p', { class: 'tf-notice tf-notice-warning' }, a.batchProblem));
      out.push(
        h(
          'div',
          { class: 'tf-grid-2' },
          this.bars(ctx, a.byDesigner),
          this.teamLine(a.rounds, a.bales.length, a.possiblyTooCompliant, a.bales.filter((b) => b.category === 3).length),
        ),
      );
      out.push(legend());
    }
    out.push(this.stance(ctx, d));
    return out;
  }

  private bars(ctx: ViewContext, byDesigner: Record<string, Record<string, number>>): HTMLElement {
    const rows = Object.entries(byDesigner);
    const totals = rows.map(([, r]) => Object.values(r).reduce((s, n) => s + n, 0));
    const max = Math.max(1, ...totals);
    const labelW = 130;
    const barW = 220;
    const rowH = 26;
    const chart = svg('svg', {
      class: 'tf-bales-bars',
      id: 'tf-bales-bars',
      width: labelW + barW + 120,
      height: rows.length * rowH + 4,
      role: 'img',
      'aria-label': 'Bales categories per speaker',
    });
    rows.forEach(([speaker, row], i) => {
      const y = i * rowH + 4;
      const name = ctx.designerName(speaker);
      chart.append(svg('text', { x: 0, y: y + 14, class: 'tf-chart-label' }, name.length > 18 ? `${name.slice(0, 17)}…` : name));
      const g = svg('g', { transform: `translate(${labelW},${y})`, 'data-speaker': speaker });
      for (const s of barSegments(row, max, barW)) {
        const rect = svg('rect', {
          x: s.x.toFixed(2),
          y: 0,
          width: Math.max(1, s.w).toFixed(2),
          height: rowH - 8,
          class: `tf-cat-seg tf-cat-${s.category}`,
          'data-category': s.category,
        });
        rect.append(title(`${name}: ${BALES_CATEGORIES[s.category - 1]!.label} ${s.count}`));
        g.append(rect);
      }
      chart.append(g);
      const t = areaTotals(row);
      chart.append(
        svg(
          'text',
          { x: labelW + barW + 6, y: y + 14, class: 'tf-chart-note' },
          `task ${t['task-answer'] + t['task-question']} · social ${t.positive + t.negative}`,
        ),
      );
    });
    return h(
      'figure',
      { class: 'tf-figure' },
      h(
        'figcaption',
        {},
        'Per speaker: task area (suggestion, opinion, orientation, questions) then social area (solidarity, agrees vs disagrees, tension, antagonism)',
      ),
      chart,
    );
  }

  private teamLine(
    rounds: { iteration: number; agrees: number; disagrees: number; coded: number }[],
    coded: number,
    compliant: boolean,
    agrees: number,
  ): HTMLElement {
    const w = 320;
    const hgt = 130;
    const pad = { l: 28, r: 30, t: 10, b: 24 };
    const max = Math.max(1, ...rounds.flatMap((r) => [r.agrees, r.disagrees]));
    const x = (i: number): number =>
      pad.l + (rounds.length <= 1 ? (w - pad.l - pad.r) / 2 : (i * (w - pad.l - pad.r)) / (rounds.length - 1));
    const y = (n: number): number => pad.t + (1 - n / max) * (hgt - pad.t - pad.b);
    const chart = svg('svg', {
      class: 'tf-team-line',
      id: 'tf-team-line',
      width: w,
      height: hgt,
      role: 'img',
      'aria-label': 'Agrees and disagrees per round',
    });
    chart.append(svg('line', { x1: pad.l, y1: y(0), x2: w - pad.r, y2: y(0), class: 'tf-axis' }));
    chart.append(svg('text', { x: pad.l - 4, y: y(max) + 4, class: 'tf-chart-note', 'text-anchor': 'end' }, String(max)));
    chart.append(svg('text', { x: pad.l - 4, y: y(0) + 4, class: 'tf-chart-note', 'text-anchor': 'end' }, '0'));
    rounds.forEach((r, i) =>
      chart.append(svg('text', { x: x(i), y: hgt - 6, class: 'tf-chart-note', 'text-anchor': 'middle' }, `Round ${r.iteration}`)),
    );
    for (const [key, cls, name] of [
      ['agrees', 'tf-line-agrees', 'Agrees'],
      ['disagrees', 'tf-line-disagrees', 'Disagrees'],
    ] as const) {
      const pts = rounds.map((r, i) => `${x(i).toFixed(1)},${y(r[key]).toFixed(1)}`).join(' ');
      chart.append(svg('polyline', { points: pts, class: `tf-line ${cls}` }));
      rounds.forEach((r, i) => {
        const c = svg('circle', { cx: x(i).toFixed(1), cy: y(r[key]).toFixed(1), r: 3.5, class: `tf-dot ${cls}` });
        c.append(title(`Round ${r.iteration}: ${r[key]} ${name}`));
        chart.append(c);
      });
    }
    const share = coded ? Math.round((agrees / coded) * 100) : 0;
    return h(
      'figure',
      { class: 'tf-figure' },
      h(
        'figcaption',
        {},
        'Team: ',
        h('span', { class: 'tf-key tf-key-agrees' }, 'Agrees'),
        ' vs ',
        h('span', { class: 'tf-key tf-key-disagrees' }, 'Disagrees'),
        ' per round',
      ),
      chart,
      h(
        'p',
        { class: 'tf-muted' },
        rounds
          .map((r) => `Round ${r.iteration}: of ${count(r.coded, 'coded message')}, ${r.agrees} “Agrees” and ${r.disagrees} “Disagrees”`)
          .join(' · '),
      ),
      compliant
        ? h(
            'p',
            { class: 'tf-notice tf-notice-warning', id: 'tf-compliant' },
            `Possibly too compliant: ${share}% of the coded messages are "Agrees" (flagged at ${Math.round(COMPLIANT_SHARE * 100)}% or more).`,
          )
        : null,
    );
  }

  private stance(ctx: ViewContext, d: PanelDiscussionAnalysis): HTMLElement {
    const t = d.stance;
    const heading = h('h3', {}, 'Stance kept or yielded');
    if (!t || t.rows.length === 0)
      return h(
        'div',
        { id: 'tf-stance' },
        heading,
        muted('No stance reports in this run: the remix agent reports what each proxy backed at the end of every round (newer runs).'),
      );
    const rounds = [...new Set(t.rows.flatMap((r) => r.backed.map((b) => b.iteration)))].sort((a, b) => a - b);
    const label = (id: string | null): string => (id === null ? 'nothing' : ctx.labelOf(id));
    const head = h(
      'tr',
      {},
      h('th', {}, 'Designer'),
      h('th', {}, 'Top choice before'),
      ...rounds.map((r) => h('th', {}, `Backed after round ${r}`)),
      h('th', {}, 'Moved'),
      h('th', {}, 'Outcome'),
    );
    const body = h('tbody');
    for (const row of t.rows) {
      body.append(
        h(
          'tr',
          { 'data-designer': row.designer },
          h('th', { scope: 'row' }, ctx.designerName(row.designer)),
          h('td', {}, row.topChoice.map(label).join(', ')),
          ...rounds.map((r) => {
            const b = row.backed.find((x) => x.iteration === r);
            return h('td', {}, b ? label(b.candidate) : '—');
          }),
          h(
            'td',
            {},
            row.movedAt ? `yes: round ${row.movedAt.iteration}${row.movedAt.message ? `, after ${row.movedAt.message}` : ''}` : 'no',
          ),
          h(
            'td',
            { class: `tf-stance-${row.outcome}` },
            row.outcome === 'kept'
              ? `kept ${label(row.last)}`
              : row.outcome === 'yielded'
                ? `yielded to ${label(row.last)}`
                : 'not reported',
          ),
        ),
      );
    }
    const to = Object.entries(t.yieldedTo).map(
      ([c, ds]) => `${ds.map((x) => ctx.designerName(x)).join(', ')} → ${c === 'none' ? 'nothing' : label(c)}`,
    );
    return h(
      'div',
      { id: 'tf-stance' },
      heading,
      h('div', { class: 'tf-scroll-x' }, h('table', { class: 'tf-stance-table' }, h('thead', {}, head), body)),
      h(
        'p',
        { id: 'tf-stance-summary' },
        `${t.kept} kept their designer's top choice, ${t.yielded} yielded${to.length ? ` (${to.join('; ')})` : ''}${t.unknown ? `; ${t.unknown} not reported` : ''}.`,
      ),
    );
  }
}

function legend(): HTMLElement {
  const item = (c: number): HTMLElement =>
    h('li', {}, h('span', { class: `tf-swatch tf-cat-${c}`, 'aria-hidden': 'true' }), `${c} ${BALES_CATEGORIES[c - 1]!.label}`);
  const group = (name: string, cats: number[]): HTMLElement =>
    h('div', {}, h('strong', {}, name), h('ul', { class: 'tf-legend' }, ...cats.map(item)));
  return h(
    'div',
    { class: 'tf-legend-wrap', id: 'tf-bales-legend' },
    group(
      'Task area',
      BAR_ORDER.filter((c) => categoryArea(c).startsWith('task')),
    ),
    group(
      'Social area',
      BAR_ORDER.filter((c) => categoryArea(c) === 'positive' || categoryArea(c) === 'negative'),
    ),
    group('Other', [13]),
  );
}
