/**
 * The brief review in the panel (issue 17). Overview: the members' comments on the brief, as text. Run tab: the result
 * of a brief run — per round the revised brief (Markdown through the one renderer, markdown.ts), the agreements,
 * disagreements, trade-offs and open questions, and the coverage table per member (a member with points left out
 * stands out: a badge with words and a theme colour, never colour only); "Show changes" (VS Code's diff editor) and
 * "Adopt revised brief" (the host confirms and writes). Comment text and model text go in as text nodes only.
 */
import { h, section, muted, replaceChildren } from '../../dom';
import { renderMarkdown } from '../../text/markdown';
import type { ViewContext } from '../../context';
import type { PanelState } from '../../../../src/protocol/panel';
import type { CoverageEntry, PanelBriefRound, SummaryItem } from '../../../../src/protocol/brief';
import { coverageByMember, summaryText } from '../../../../src/protocol/briefText';
import { reportedNothing } from '../../../../src/protocol/shared';

/** Members' comments on the brief (Overview), each as plain text with the member's name and role. */
export function briefCommentsView(ctx: ViewContext): HTMLElement | null {
  const comments = ctx.state.review?.comments ?? [];
  if (comments.length === 0) return null;
  const list = h('div', { class: 'tf-comments' });
  for (const c of comments) {
    list.append(
      h(
        'article',
        { class: 'tf-comment', 'data-designer': c.designer },
        h(
          'header',
          { class: 'tf-comment-head' },
          h('strong', {}, c.name),
          c.role ? h('span', { class: 'tf-muted' }, ` · ${c.role}`) : null,
          c.weight !== undefined && c.weight !== 1 ? h('span', { class: 'tf-muted' }, ` · weight ${c.weight}`) : null,
          ' ',
          h(
            'a',
            {
              href: '#',
              class: 'tf-comment-file',
              onclick: (e: Event) => (e.preventDefault(), ctx.host.post({ type: 'openFile', path: c.file })),
            },
            c.file,
          ),
        ),
        h('div', { class: 'tf-comment-body' }, c.body),
      ),
    );
  }
  return section(
    'tf-comments-section',
    `Comments on the brief (${comments.length})`,
    muted("Each member's own reading of the brief: what it asks for, what matters most, what is unclear, what they would change."),
    list,
    h(
      'div',
      { class: 'tf-actions' },
      h(
        'vscode-button',
        {
          secondary: true,
          id: 'tf-comment-on-brief',
          disabled: !ctx.state.trusted,
          onclick: () => ctx.host.post({ type: 'commentOnBrief' }),
        },
        'Comment on the Brief…',
      ),
    ),
  );
}

/** A review of the brief only: members' comments, no rankings (its face has no options, designers or ranking form). */
export function isBriefOnly(review: PanelState['review']): boolean {
  return (review?.comments?.length ?? 0) > 0 && (review?.designers.length ?? 0) === 0;
}

/** True when the review can run as a brief review (it has members' comments). */
export function canRunBrief(ctx: ViewContext): boolean {
  return (ctx.state.review?.comments?.length ?? 0) > 0;
}

/** The toolbar's brief-run button (beside Run when the review is both kinds; the only Run of a brief-only review). */
export function briefRunButton(ctx: ViewContext, label = 'Run brief review', secondary = false): HTMLElement | null {
  if (!canRunBrief(ctx)) return null;
  const { state, host } = ctx;
  return h(
    'vscode-button',
    {
      id: 'tf-run-brief',
      secondary,
      disabled: !(state.trusted && !state.running),
      onclick: () => host.post({ type: 'run', task: 'brief' }),
    },
    label,
  );
}

/** The round shown per run (the user's pick survives state updates; the latest by default). */
const chosenRound = new Map<string, number>();

function list(ctx: ViewContext, id: string, title: string, items: readonly SummaryItem[], empty: string): HTMLElement {
  return h(
    'div',
    { class: 'tf-brief-list', id },
    h('h3', {}, `${title} (${items.length})`),
    items.length
      ? h(
          'ul',
          {},
          ...items.map((x) =>
            h(
              'li',
              {},
              summaryText(x, (d) => nameOf(ctx, d)),
            ),
          ),
        )
      : muted(empty),
  );
}

function statusBadge(status: CoverageEntry['status']): HTMLElement {
  const text = status === 'left-out' ? 'left out' : status;
  return h('span', { class: `tf-cov tf-cov-${status}` }, text);
}

/** The coverage table: one group per member (those with points left out first), each point with its status and quote. */
export function coverageTable(ctx: ViewContext, coverage: readonly CoverageEntry[]): HTMLElement {
  const by = coverageByMember(coverage);
  const members = [...by.entries()].sort(
    (a, b) => b[1].leftOut - a[1].leftOut || ctx.designerName(a[0]).localeCompare(ctx.designerName(b[0])),
  );
  const body = h('tbody');
  for (const [designer, m] of members) {
    const name = nameOf(ctx, designer);
    const flagged = m.leftOut > 0;
    const head = h(
      'tr',
      { class: `tf-cov-member${flagged ? ' tf-cov-flagged' : ''}`, 'data-designer': designer },
      h(
        'th',
        { scope: 'rowgroup', colspan: 3 },
        flagged ? h('span', { class: 'tf-cov-alert', role: 'img', 'aria-label': 'warning' }, '⚠') : null,
        ' ',
        name,
        ' ',
        h('span', { class: 'tf-muted' }, `${m.kept} kept · ${m.changed} changed · `),
        flagged
          ? h(
              'vscode-badge',
              { class: 'tf-cov-badge', title: `${m.leftOut} of ${name}'s points are not in the revised brief` },
              `${m.leftOut} left out`,
            )
          : h('span', { class: 'tf-muted' }, '0 left out'),
      ),
    );
    body.append(head);
    for (const e of m.entries) {
      body.append(
        h(
          'tr',
          { class: `tf-cov-row tf-cov-row-${e.status}`, 'data-designer': designer },
          h('td', {}, e.point),
          h('td', {}, statusBadge(e.status)),
          h('td', { class: 'tf-cov-quote' }, quoteText(e)),
        ),
      );
    }
  }
  // A member who commented and has no point at all is said in words, never left out of the table.
  const silent = (ctx.state.review?.comments ?? []).filter((c) => !by.has(c.designer));
  for (const c of silent) {
    body.append(
      h(
        'tr',
        { class: 'tf-cov-member tf-cov-flagged tf-cov-unreported', 'data-designer': c.designer },
        h(
          'th',
          { scope: 'rowgroup', colspan: 3 },
          h('span', { class: 'tf-cov-alert', role: 'img', 'aria-label': 'warning' }, '⚠'),
          ' ',
          c.name,
          ' ',
          h('span', {}, `— ${reportedNothing(c.name)}`),
        ),
      ),
    );
  }
  const table = h(
    'table',
    { class: 'tf-cov-table', id: 'tf-coverage', 'aria-label': "Coverage: each member's key points in the revised brief" },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Point'),
        h('th', { scope: 'col' }, 'Status'),
        h('th', { scope: 'col' }, 'Where the revised brief carries it'),
      ),
    ),
    body,
  );
  const leftOut = members.filter(([, m]) => m.leftOut > 0).map(([d]) => nameOf(ctx, d));
  return h(
    'div',
    { class: 'tf-coverage' },
    h('h3', {}, 'Coverage per member'),
    leftOut.length
      ? h(
          'p',
          { class: 'tf-notice tf-notice-warning', id: 'tf-coverage-leftout', role: 'status' },
          `Points left out for ${leftOut.join(', ')}: check them before the brief goes to the client.`,
        )
      : coverage.length
        ? muted("Every member's points are kept or changed in the revised brief.")
        : muted('The remix agent gave no coverage for this round.'),
    silent.length
      ? h(
          'p',
          { class: 'tf-notice tf-notice-warning', id: 'tf-coverage-unreported', role: 'status' },
          `${silent.map((c) => reportedNothing(c.name)).join('; ')}.`.replace(/^t/, 'T'),
        )
      : null,
    coverage.length || silent.length ? h('div', { class: 'tf-scroll-x' }, table) : null,
  );
}

/** Where the revised brief carries a point: its quote, and whether the brief really holds it. */
function quoteText(e: CoverageEntry): string {
  if (e.status === 'left-out') return e.quote ? `“${e.quote}”` : '— not in the revised brief';
  if (!e.quote) return '— no quote (not verified)';
  return e.verified === false ? `“${e.quote}” — not found in the revised brief` : `“${e.quote}”`;
}

function nameOf(ctx: ViewContext, id: string): string {
  const c = ctx.state.review?.comments?.find((x) => x.designer === id);
  return c?.name ?? ctx.designerName(id);
}

/** The Run tab's result of a brief run: round picker, revised brief, summary, coverage, and the two actions. */
export function briefResultView(ctx: ViewContext): HTMLElement | null {
  const brief = ctx.state.brief;
  const run = ctx.state.run;
  if (!brief || !run || brief.runId !== run.id) return null;
  if (brief.rounds.length === 0)
    return section(
      'tf-brief-result',
      'Revised brief',
      muted('No round has finished yet: the revised brief appears here after the first round.'),
    );
  const latest = brief.rounds[brief.rounds.length - 1] as PanelBriefRound;
  const wanted = chosenRound.get(run.id);
  const round = brief.rounds.find((r) => r.iteration === wanted) ?? latest;
  const container = h('div', { class: 'tf-brief-round' });

  const picker = h('vscode-single-select', { id: 'tf-brief-round', 'aria-label': 'Round to show' });
  for (const r of brief.rounds) {
    picker.append(
      h(
        'vscode-option',
        { value: String(r.iteration), selected: r.iteration === round.iteration },
        `Round ${r.iteration}${r === latest ? ' (latest)' : ''}`,
      ),
    );
  }
  picker.addEventListener('change', (e) => {
    const v = Number((e.target as HTMLElement & { value: string }).value);
    if (!Number.isInteger(v)) return;
    chosenRound.set(run.id, v);
    const next = briefResultView(ctx);
    const here = document.getElementById('tf-brief-result');
    if (next && here) here.replaceWith(next);
  });

  const diff = h(
    'vscode-button',
    {
      id: 'tf-brief-diff',
      secondary: true,
      onclick: () => ctx.host.post({ type: 'showBriefChanges', runId: run.id, iteration: round.iteration }),
    },
    'Show changes',
  );
  // Forks still open: the revised brief holds the contested passages each way until the team votes; adopting waits (it is
  // a secondary button, and says why).
  const openForks = ctx.state.forks?.runId === run.id ? ctx.state.forks.forks.filter((f) => !f.decision).length : 0;
  const adopt = h(
    'vscode-button',
    {
      id: 'tf-brief-adopt',
      secondary: openForks > 0,
      disabled: !ctx.state.trusted || round.text === undefined,
      title: ctx.state.trusted
        ? 'Write this revised brief to brief.md (you confirm first)'
        : 'Nothing is written in an untrusted workspace.',
      onclick: () => ctx.host.post({ type: 'adoptBrief', runId: run.id, iteration: round.iteration }),
    },
    'Adopt revised brief…',
  );

  const text = h('div', { class: 'tf-markdown tf-revised-brief', id: 'tf-revised-brief' });
  if (round.text !== undefined) text.append(renderMarkdown(round.text, ctx.state.base));
  else text.append(h('p', { class: 'tf-error-text' }, round.error ?? 'The revised brief cannot be read.'));

  replaceChildren(
    container,
    h(
      'div',
      { class: 'tf-toolbar tf-brief-toolbar' },
      h('label', { class: 'tf-picker-label' }, 'Round: ', picker),
      h('span', { class: 'tf-spacer' }),
      diff,
      adopt,
    ),
    openForks
      ? h(
          'p',
          { class: 'tf-notice tf-notice-warning', id: 'tf-brief-open-forks' },
          `${openForks === 1 ? 'A fork is' : `${openForks} forks are`} still open: vote on ${openForks === 1 ? 'it' : 'them'} (Forks, below) before adopting this revised brief.`,
        )
      : null,
    h('p', { class: 'tf-muted' }, round.path, brief.baseline ? ` · the direct baseline is in ${brief.baseline}` : ''),
    h('vscode-collapsible', { title: `Revised brief, round ${round.iteration}`, open: true, class: 'tf-brief-box' }, text),
    h(
      'div',
      { class: 'tf-brief-summary' },
      list(ctx, 'tf-brief-agreements', 'Agreements', round.agreements, 'None recorded.'),
      list(ctx, 'tf-brief-disagreements', 'Disagreements', round.disagreements, 'None recorded.'),
      list(ctx, 'tf-brief-tradeoffs', 'Trade-offs', round.tradeOffs, 'None recorded.'),
      list(ctx, 'tf-brief-questions', 'Open questions for the client', round.openQuestions, 'None.'),
    ),
    coverageTable(ctx, round.coverage),
  );
  return section('tf-brief-result', 'Revised brief', container);
}
