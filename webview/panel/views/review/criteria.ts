/**
 * The team's criteria in the Overview (issue 34): members × criteria and, for a design review, options × criteria, the
 * most controversial criterion first. A stance is a colour AND a word (theme chart colours; the word carries it alone in
 * any theme and to a screen reader); each cell is focusable and its quote is its title and, on focus or hover, the text
 * of a live line under the table. A criteria.json that is not current is one sentence instead. Everything goes in as text.
 */
import { h, muted, section } from '../../dom';
import { readableTime } from '../../text/format';
import type { ViewContext } from '../../context';
import type { PanelCriteria, PanelCriteriaCell } from '../../../../src/protocol/criteria';

type Current = Extract<PanelCriteria, { state: 'current' }>;
type Row = Current['criteria'][number];

const WORDS: Record<string, string> = {
  values: 'values',
  against: 'against',
  'no-position': 'no position',
  strong: 'strong',
  weak: 'weak',
  'not-mentioned': 'not mentioned',
};

/** The word a cell shows (a stance not counted because its quote was not found says so). */
export function cellWord(c: PanelCriteriaCell | undefined): string {
  if (!c) return WORDS['no-position']!;
  const word = WORDS[c.value] ?? c.value;
  return c.verified === false && c.claimed ? `${word} (said ${WORDS[c.claimed] ?? c.claimed}, quote not found)` : word;
}

/** What focus or hover tells about a cell: who, on what, and the quote with its file. */
export function cellQuote(who: string, criterion: string, c: PanelCriteriaCell | undefined): string {
  const head = `${who} on "${criterion}": ${cellWord(c)}`;
  if (!c?.quote) return `${head}.`;
  return `${head} — "${c.quote}"${c.file ? ` (${c.file}${c.verified === false ? ', not found there' : ''})` : ''}`;
}

function matrix(
  caption: string,
  rows: Row[],
  cols: { id: string; name: string }[],
  pick: (r: Row) => Record<string, PanelCriteriaCell>,
  quoteLine: HTMLElement,
): HTMLElement {
  const show = (text: string) => () => {
    quoteLine.textContent = text;
  };
  const head = h(
    'tr',
    {},
    h('th', { scope: 'col' }, 'Criterion'),
    h('th', { scope: 'col' }, 'Controversy'),
    ...cols.map((c) => h('th', { scope: 'col' }, c.name)),
  );
  const body = h('tbody', {});
  for (const r of rows) {
    const tr = h('tr', {}, h('th', { scope: 'row', title: r.description }, r.name), h('td', { class: 'tf-num' }, r.controversy.toFixed(2)));
    for (const col of cols) {
      const c = pick(r)[col.id];
      const text = cellQuote(col.name, r.name, c);
      tr.append(
        h(
          'td',
          {
            class: `tf-crit tf-crit-${c?.value ?? 'no-position'}${c?.verified === false ? ' tf-crit-unverified' : ''}`,
            tabindex: 0,
            title: text,
            onfocus: show(text),
            onmouseenter: show(text),
          },
          cellWord(c),
        ),
      );
    }
    body.append(tr);
  }
  return h(
    'div',
    { class: 'tf-scroll-x' },
    h('table', { class: 'tf-criteria-table' }, h('caption', {}, caption), h('thead', {}, head), body),
  );
}

/** The criteria section, or null when the review has no criteria.json. */
export function criteriaView(ctx: ViewContext): HTMLElement | null {
  const cr = ctx.state.criteria;
  if (!cr) return null;
  if (cr.state !== 'current')
    return section('tf-criteria', "The team's criteria", h('p', { class: 'tf-muted', id: 'tf-criteria-stale' }, cr.why));
  const quoteLine = h('p', { class: 'tf-criteria-quote', 'aria-live': 'polite' }, 'Focus or hover a cell to read the quote it rests on.');
  const members = cr.members.map((m) => ({ id: m.id, name: ctx.designerName(m.id) === m.id ? m.name : ctx.designerName(m.id) }));
  return section(
    'tf-criteria',
    "The team's criteria",
    muted(`Found ${readableTime(cr.at)}; most controversial first. A stance counts only when its quote is in that member's own file.`),
    matrix('Members × criteria', cr.criteria, members, (r) => r.stances, quoteLine),
    cr.options.length
      ? matrix(
          'Options × criteria',
          cr.criteria,
          cr.options.map((o) => ({ id: o, name: `Option ${o}` })),
          (r) => r.options,
          quoteLine,
        )
      : null,
    quoteLine,
  );
}
