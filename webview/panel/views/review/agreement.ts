/**
 * The team's agreement: Kendall's W with its band and tests, the Borda and Schulze consensus, contested options, the outlier and
 * the pairwise Kendall tau-b matrix.
 */
import { h, section, muted } from '../../dom';
import { fixed, pValue, agreementSentence } from '../../text/format';
import { tauColor } from '../../colors';
import type { ViewContext } from '../../context';
import type { PanelAnalysis } from '../../../../src/protocol/panel';
import { thumb } from './thumb';

/** Kendall's W, its band, the tests and the plain sentence: the headline of the overview. */
export function kendallView(ctx: ViewContext): HTMLElement {
  const a = ctx.state.analysis;
  if (!a) return section('tf-agreement', 'Agreement', muted(ctx.state.analysisError ?? 'No analysis yet.'));
  return section('tf-agreement', 'Agreement', kendallBlock(a));
}

/** Consensus, contested options, the outlier and the pairwise matrix. */
export function consensusView(ctx: ViewContext): HTMLElement | null {
  const a = ctx.state.analysis;
  if (!a) return null;
  return section(
    'tf-consensus',
    'Consensus',
    h('div', { class: 'tf-grid-3' }, bordaBlock(ctx, a), contestedBlock(ctx, a), h('div', {}, outlierBlock(ctx, a))),
    tauBlock(ctx, a),
  );
}

function stat(label: string, value: string, id?: string, hint?: string): HTMLElement {
  return h(
    'div',
    { class: 'tf-stat', title: hint },
    h('div', { class: 'tf-stat-value', id }, value),
    h('div', { class: 'tf-stat-label' }, label),
  );
}

function kendallBlock(a: PanelAnalysis): HTMLElement {
  const k = a.kendall;
  const sentence = k.sentence ?? agreementSentence(k.w, k.band, k.pPermutation ?? k.pValue, a.designers.length);
  return h(
    'div',
    { class: 'tf-kendall' },
    h(
      'div',
      { class: 'tf-stats' },
      h(
        'div',
        { class: 'tf-stat tf-stat-main' },
        h('div', { class: 'tf-stat-value', id: 'tf-w', 'data-w': String(k.w) }, fixed(k.w, 3)),
        h(
          'div',
          { class: 'tf-stat-label' },
          "Kendall's W ",
          h('vscode-badge', { class: `tf-band tf-band-${k.band}` }, k.band.replace(/-/g, ' ')),
        ),
      ),
      stat('χ²', `${fixed(k.chiSquare, 2)}`, undefined, 'm (n − 1) W'),
      stat('df', String(k.df)),
      stat('p (χ²)', pValue(k.pValue), 'tf-p'),
      k.pPermutation !== undefined
        ? stat(
            'p (permutation)',
            pValue(k.pPermutation),
            'tf-pperm',
            k.permutations ? `${k.permutations} permutations, seed ${k.seed ?? ''}` : undefined,
          )
        : null,
      k.wUncorrected !== undefined ? stat('W without tie correction', fixed(k.wUncorrected, 3)) : null,
    ),
    h('p', { class: 'tf-sentence', id: 'tf-sentence' }, sentence),
  );
}

function bordaBlock(ctx: ViewContext, a: PanelAnalysis): HTMLElement {
  const weighted = a.weightedBorda && a.designers.some((d) => d.weight !== 1) ? a.weightedBorda : undefined;
  const list = h('ol', { class: 'tf-borda', 'aria-label': 'Borda consensus, best first' });
  for (const b of a.borda) {
    list.append(
      h(
        'li',
        {},
        h('span', { class: 'tf-borda-pos' }, `#${b.position}`),
        thumb(ctx, b.option),
        h('span', { class: 'tf-muted' }, `${fixed(b.points, 1)} points`),
      ),
    );
  }
  return h(
    'div',
    {},
    h('h3', {}, 'Borda ranking'),
    list,
    weighted
      ? h('p', { class: 'tf-muted' }, `Weighted by designer weight: ${weighted.map((b) => ctx.labelOf(b.option)).join(' › ')}`)
      : null,
    schulzeBlock(ctx, a),
  );
}

/** The Schulze order beside Borda (ties as "="), and the sentence where the two differ. */
function schulzeBlock(ctx: ViewContext, a: PanelAnalysis): HTMLElement | null {
  const s = a.schulze;
  if (!s) return null;
  return h(
    'div',
    { class: 'tf-schulze' },
    h(
      'p',
      { class: 'tf-muted', title: 'Pairwise majorities and their strongest chains; designers count with their weight' },
      `Schulze: ${s.ranking.map((tier) => tier.map((id) => ctx.labelOf(id)).join(' = ')).join(' › ')}`,
    ),
    h(
      'p',
      { class: 'tf-schulze-sentence' },
      s.sentence ?? `Schulze agrees with ${a.designers.some((d) => d.weight !== 1) ? 'the weighted ' : ''}Borda.`,
    ),
  );
}

function contestedBlock(ctx: ViewContext, a: PanelAnalysis): HTMLElement {
  const contested = (a.perOption ?? []).filter((p) => p.contested);
  const box = h('div', {}, h('h3', {}, 'Contested options'));
  if (contested.length === 0) {
    box.append(muted('No option divides the team strongly.'));
    return box;
  }
  const ul = h('ul', { class: 'tf-contested-list' });
  for (const p of contested) {
    ul.append(
      h('li', {}, thumb(ctx, p.option), h('span', {}, `ranked ${p.min}–${p.max}, mean ${fixed(p.meanRank, 1)}, sd ${fixed(p.sd, 2)}`)),
    );
  }
  box.append(ul);
  return box;
}

function outlierBlock(ctx: ViewContext, a: PanelAnalysis): HTMLElement {
  const box = h('div', {}, h('h3', {}, 'Outlier'));
  if (!a.outlier) {
    box.append(muted('No designer stands apart.'));
  } else {
    box.append(
      h(
        'p',
        { id: 'tf-outlier' },
        h('strong', {}, ctx.designerName(a.outlier.designer)),
        ` agrees least with the others (mean τ-b ${fixed(a.outlier.meanTau, 2)}).`,
      ),
    );
  }
  return box;
}

function tauBlock(ctx: ViewContext, a: PanelAnalysis): HTMLElement | null {
  const pw = a.pairwise;
  if (!pw || pw.designers.length < 2) return null;
  const head = h('tr', {}, h('th', { scope: 'col' }, 'τ-b'));
  for (const d of pw.designers) head.append(h('th', { scope: 'col' }, ctx.designerName(d)));
  const body = h('tbody');
  pw.designers.forEach((d, i) => {
    const row = h('tr', {}, h('th', { scope: 'row' }, ctx.designerName(d)));
    pw.designers.forEach((e, j) => {
      const t = pw.tau[i]?.[j];
      const cell = h(
        'td',
        { class: 'tf-tau', title: `${ctx.designerName(d)} vs ${ctx.designerName(e)}` },
        t === null || t === undefined ? '–' : fixed(t, 2),
      );
      if (typeof t === 'number' && i !== j) {
        const c = tauColor(t);
        cell.style.setProperty('--tf-tau-color', `var(${c.variable})`);
        cell.style.setProperty('--tf-tau-pct', `${c.percent}%`);
      }
      row.append(cell);
    });
    body.append(row);
  });
  return h(
    'div',
    { class: 'tf-tau-box' },
    h('h3', {}, 'Pairwise agreement (Kendall τ-b)'),
    h('p', { class: 'tf-muted' }, '1 = same order, 0 = unrelated, −1 = reversed.'),
    h('div', { class: 'tf-scroll-x' }, h('table', { class: 'tf-tau-table' }, h('thead', {}, head), body)),
  );
}
