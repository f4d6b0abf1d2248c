/** What a run produced: the timeline of iterations, remixes beside their sources, directions and decisions, usage. */
import {
  costPerRemix,
  discussionFacts,
  forkSideText,
  remixesOf,
  remixesWithDirections,
  remixOfLetter,
} from '../../../../src/protocol/shared';
import { h, section, muted } from '../../dom';
import { integer, usd } from '../../text/format';
import type { ViewContext } from '../../context';
import type { PanelRun } from '../../../../src/protocol/panel';
import { thumb } from '../review/thumb';
import { decisionLine, holdersShown, setAsideLines } from './decisions';
import { remixSources } from '../../../../src/protocol/candidateNames';
import { MAX_COMPARE } from './compare';

type Iteration = PanelRun['iterations'][number];

export function timelineView(ctx: ViewContext, run: PanelRun): HTMLElement {
  const list = h('ol', { class: 'tf-timeline' });
  for (const it of run.iterations) {
    list.append(
      h(
        'li',
        { class: it.error ? 'tf-step tf-step-error' : 'tf-step', 'data-iteration': String(it.index) },
        h('div', { class: 'tf-step-title' }, it.final ? `${it.index}. Final pick` : `${it.index}. ${it.candidates.length} candidates`),
        h('div', { class: 'tf-step-row' }, ...it.candidates.map((c) => thumb(ctx, c))),
        ...setAsideLines(it, ctx.labelOf).map((line) => h('div', { class: 'tf-muted tf-set-aside' }, line)),
        it.ranking?.length ? h('div', { class: 'tf-muted' }, `Consensus: ${it.ranking.map((id) => ctx.labelOf(id)).join(' › ')}`) : null,
        remixesOf(it).length
          ? h(
              'div',
              {},
              `→ ${remixesOf(it)
                .map((m) => ctx.labelOf(m.id))
                .join(', ')}`,
            )
          : null,
        it.error ? h('div', { class: 'tf-error-text' }, it.error) : null,
      ),
    );
  }
  if (run.finalPick) {
    list.append(
      h('li', { class: 'tf-step tf-step-final' }, h('div', { class: 'tf-step-title' }, 'Final pick'), thumb(ctx, run.finalPick, 'md')),
    );
  }
  return section('tf-timeline', 'Iterations', run.iterations.length ? list : muted('No iteration has finished yet.'));
}

/**
 * A remix card's sources: what "made from" shows is what "Compare with its sources" opens (one list, remixSources), the
 * remix first; a remix of more sources than the compare holds says how many it shows.
 */
export function compareOf(
  it: Pick<Iteration, 'ranking'>,
  remix: { id: string; from?: string[] },
): { from: string[]; compared: string[]; button: string } {
  const from = remixSources(it, remix);
  const compared = [remix.id, ...from].slice(0, MAX_COMPARE);
  const shown = compared.length - 1;
  const button =
    from.length === 1
      ? 'Compare with its source'
      : shown === from.length
        ? 'Compare with its sources'
        : `Compare with ${shown} of its ${from.length} sources`;
  return { from, compared, button };
}

export function remixGallery(ctx: ViewContext, run: PanelRun): HTMLElement {
  // Every remix of every round (several a round: r1a, r1b, … each with its own sources and directions), oldest first.
  const made = run.iterations.flatMap((it: Iteration) => remixesWithDirections(it).map((remix) => ({ it, remix })));
  if (made.length === 0) return section('tf-remixes', 'Remixes', muted('No remix yet.'));
  const cards = made.map(({ it, remix }) => {
    const { from, compared, button } = compareOf(it, remix);
    return h(
      'figure',
      { class: 'tf-remix-card', 'data-remix': remix.id, 'data-view-group': '' },
      h(
        'div',
        { class: 'tf-compare' },
        h('div', { class: 'tf-compare-main' }, thumb(ctx, remix.id, 'lg')),
        from.length
          ? h('div', { class: 'tf-compare-from' }, h('div', { class: 'tf-muted' }, 'made from'), ...from.map((c) => thumb(ctx, c, 'md')))
          : null,
      ),
      h(
        'figcaption',
        {},
        h('strong', { class: 'tf-remix-name' }, ctx.labelOf(remix.id)),
        ` · iteration ${it.index}`,
        run.finalPick === remix.id ? h('vscode-badge', {}, 'final pick') : null,
      ),
      remix.fork
        ? h('p', { class: 'tf-remix-fork' }, forkSideText(remix.fork))
        : remix.idea
          ? h('p', { class: 'tf-remix-idea' }, remix.idea)
          : null,
      remix.editingDirections ? h('p', { class: 'tf-directions' }, remix.editingDirections) : null,
      h(
        'div',
        { class: 'tf-actions' },
        from.length
          ? h('vscode-button', { class: 'tf-compare-sources', secondary: true, 'data-compare': compared.join('\n') }, button)
          : null,
        h(
          'vscode-button',
          { secondary: true, onclick: () => ctx.host.post({ type: 'openFile', path: `runs/${run.id}/${remix.file}` }) },
          'Open image',
        ),
      ),
    );
  });
  // A round whose edits are not all made yet says which proposals are still to come.
  for (const it of run.iterations) {
    const pending = (it.proposals ?? []).filter((p) => !remixOfLetter(it, p.letter));
    if (pending.length) {
      cards.push(
        h(
          'figure',
          { class: 'tf-remix-card tf-remix-pending', 'data-remix-pending': `${it.index}${pending.map((p) => p.letter).join('')}` },
          h(
            'figcaption',
            {},
            h(
              'strong',
              {},
              `Iteration ${it.index}: ${pending.length === 1 ? 'remix' : 'remixes'} ${pending.map((p) => p.letter).join(', ')} not made yet`,
            ),
          ),
          ...pending.map((p) => h('p', { class: 'tf-directions' }, `${p.letter}) ${p.idea ? `${p.idea}: ` : ''}${p.editingDirections}`)),
        ),
      );
    }
  }
  return section('tf-remixes', 'Remixes', h('div', { class: 'tf-remix-grid' }, ...cards));
}

export function outcomeView(ctx: ViewContext, run: PanelRun): HTMLElement {
  const last = [...run.iterations]
    .reverse()
    .find((it) => it.agreements || it.disagreements || it.decisionPoints || it.editingDirections || it.proposals);
  if (!last) return section('tf-outcome', 'Agreements and decisions', muted('The remix agent has not summarised the discussion yet.'));
  const list = (title: string, items: string[] | undefined) =>
    items && items.length ? h('div', {}, h('h3', {}, title), h('ul', {}, ...items.map((t) => h('li', {}, t)))) : null;
  const withReasons = [...run.iterations].reverse().find((it) => it.reasons?.length);
  const leadDecisions = [...run.iterations].reverse().find((it) => it.decisions?.length);
  const decisions = last.decisionPoints?.length
    ? h(
        'div',
        {},
        h('h3', {}, 'Decision points'),
        ...last.decisionPoints.map((d) =>
          h(
            'div',
            { class: 'tf-decision' },
            h('p', {}, h('strong', {}, d.question)),
            h(
              'ul',
              {},
              ...d.positions.map((p) =>
                h(
                  'li',
                  {},
                  p.position,
                  holdersShown(last, d)
                    ? h('span', { class: 'tf-muted' }, ` — ${p.heldBy.map((x) => ctx.designerName(x)).join(', ')}`)
                    : null,
                ),
              ),
            ),
            holdersShown(last, d) ? null : muted('A fork: who holds which side is shown in Forks once you have voted.'),
          ),
        ),
      )
    : null;
  return section(
    'tf-outcome',
    `Agreements and decisions (iteration ${last.index})`,
    last.editingDirections
      ? h('div', {}, h('h3', {}, 'Editing directions'), h('p', { class: 'tf-directions' }, last.editingDirections))
      : null,
    last.proposals?.length
      ? h(
          'div',
          {},
          h('h3', {}, `Editing directions of the ${last.proposals.length} remixes`),
          ...last.proposals.map((p) =>
            h(
              'div',
              { class: 'tf-proposal' },
              h('p', {}, h('strong', {}, remixOfProposal(last, p.letter, ctx)), p.idea ? ` — ${p.idea}` : ''),
              h('p', { class: 'tf-directions' }, p.editingDirections),
            ),
          ),
        )
      : null,
    h('div', { class: 'tf-grid-2' }, list('Agreements', last.agreements), list('Disagreements', last.disagreements)),
    decisions,
    leadDecisions
      ? list(
          `Decisions (iteration ${leadDecisions.index})`,
          leadDecisions.decisions!.map((d) =>
            decisionLine(
              d,
              (id) => ctx.designerName(id),
              ctx.state.forks?.runId === ctx.state.run?.id ? ctx.state.forks?.team.length : undefined,
            ),
          ),
        )
      : null,
    withReasons
      ? list(
          `Why the remix agent ranked them so (iteration ${withReasons.index})`,
          withReasons.reasons!.map((r) => `${ctx.labelOf(r.candidate)}: ${r.reason}`),
        )
      : null,
  );
}

/**
 * The "Tokens and cost" rows. A brief run makes no image: no image rows, only the chat model, and the direct baseline's
 * cost apart (it is not in the run's usage).
 */
export function usageRows(run: Pick<PanelRun, 'usage' | 'settings' | 'iterations' | 'task' | 'baseline' | 'scripted'>): [string, string][] {
  const rows = usageRowsOf(run);
  // A scripted run's cost is not a team's: said in words, and left out of every total (evaluation/checks/scripted.ts).
  return run.scripted
    ? rows.map(([k, v]) => (/cost/i.test(k) ? [k, `${v} (scripted run: not a real cost, left out of every total)`] : [k, v]))
    : rows;
}

function usageRowsOf(run: Pick<PanelRun, 'usage' | 'settings' | 'iterations' | 'task' | 'baseline'>): [string, string][] {
  const u = run.usage;
  const vscodeChat = run.settings.chatProvider === 'vscode';
  if (run.task === 'brief') {
    return [
      ['Input tokens', integer(u.inputTokens)],
      ['Cached input tokens', integer(u.cachedInputTokens)],
      ['Output tokens', integer(u.outputTokens)],
      ['Estimated cost', vscodeChat ? 'covered by your plan (VS Code model)' : usd(u.costUsd)],
      ...(run.baseline
        ? ([['Direct baseline (cost apart)', vscodeChat ? 'covered by your plan (VS Code model)' : usd(run.baseline.costUsd)]] as [
            string,
            string,
          ][])
        : []),
      ['Model', run.settings.chatModel],
      ...discussionFacts(run).filter(([k]) => k !== 'Remix image'),
    ];
  }
  return [
    ['Input tokens', integer(u.inputTokens)],
    ['Cached input tokens', integer(u.cachedInputTokens)],
    ['Output tokens', integer(u.outputTokens)],
    ['Images', integer(u.images)],
    [
      'Estimated cost',
      vscodeChat ? `chat covered by your plan (VS Code model)${u.images ? `; images ${usd(u.costUsd)}` : ''}` : usd(u.costUsd),
    ],
    ['Cost per remixed image', usd(costPerRemix(run))],
    ['Models', `${run.settings.chatModel} · ${run.settings.imageModel}`],
    ...discussionFacts(run),
  ];
}

export function usageView(run: PanelRun): HTMLElement {
  const rows = usageRows(run);
  return section(
    'tf-usage',
    'Tokens and cost',
    h('dl', { class: 'tf-usage' }, ...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
  );
}

/** A proposal's remix by its one label once made ("remix r1d"); a proposal not made yet by its letter. */
function remixOfProposal(it: Iteration, letter: string, ctx: ViewContext): string {
  const made = remixOfLetter(it, letter);
  return made ? ctx.labelOf(made.id) : `proposal ${letter} (not made yet)`;
}
