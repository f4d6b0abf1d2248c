/**
 * The "Next" strip at the top of the panel, above the tabs (issue 40): for the review's latest run what happened, what is
 * open and who it waits for, the decisions made, and the one next action as the primary button. What it says is computed
 * by src/protocol/nextSteps.ts from the state; every text goes in as text.
 */
import { h, replaceChildren } from '../../dom';
import type { ViewContext } from '../../context';
import { nextSteps, type NextAction, type NextSteps } from '../../../../src/protocol/nextSteps';

/** Where an action takes the person: a tab, and the element to bring into view there. */
export type GoTo = (tab: 'overview' | 'run' | 'ranking', selector: string) => void;

/** The strip's steps for the state in `ctx`. */
export function stepsOf(ctx: ViewContext): NextSteps {
  return nextSteps(ctx.state, ctx.me, { person: (id) => ctx.designerName(id), image: (id) => ctx.labelOf(id) });
}

interface ValueElement extends HTMLElement {
  value: string;
}

/**
 * "I am": the one place the person at the panel says who they are, for rating, voting, confirming and ranking (kept in
 * the page and, through the host, for the workspace). `changed` redraws the panel as that member.
 */
function iAm(ctx: ViewContext, changed: () => void): HTMLElement | null {
  if (ctx.members.length === 0) return null;
  const picker = h('vscode-single-select', { id: 'tf-i-am', 'aria-label': 'I am' }) as ValueElement;
  picker.append(h('vscode-option', { value: '', selected: !ctx.me }, 'Choose who you are…'));
  for (const m of ctx.members) picker.append(h('vscode-option', { value: m.id, selected: m.id === ctx.me }, m.name));
  picker.addEventListener('change', () => {
    const member = picker.value;
    ctx.host.persist({ me: member });
    ctx.host.post({ type: 'setMe', ...(member ? { member } : {}) });
    changed();
  });
  return h('label', { class: 'tf-picker-label tf-i-am' }, 'I am: ', picker);
}

export class NextStrip {
  readonly element = h('section', { class: 'tf-next', id: 'tf-next', 'aria-labelledby': 'tf-next-title' });

  render(ctx: ViewContext, go: GoTo, meChanged: () => void): NextSteps {
    const steps = stepsOf(ctx);
    const primary = steps.primary ? this.button(ctx, steps.primary, go) : null;
    replaceChildren(
      this.element,
      h('div', { class: 'tf-next-head' }, h('h2', { id: 'tf-next-title', class: 'tf-next-title' }, 'Next'), iAm(ctx, meChanged)),
      h('p', { class: 'tf-next-happened' }, steps.happened),
      steps.error ? h('p', { class: 'tf-error-text tf-next-error', role: 'alert' }, steps.error) : null,
      steps.open.length
        ? h('ul', { class: 'tf-next-open', 'aria-label': 'Open' }, ...steps.open.map((o) => h('li', { 'data-open': o.kind }, o.text)))
        : null,
      steps.decided.length
        ? h(
            'ul',
            { class: 'tf-next-decided', 'aria-label': 'Decided' },
            ...steps.decided.map((d) =>
              h(
                'li',
                {},
                `Decided ${d.how}: ${d.question} → ${d.chosen}`,
                d.setAside.length ? h('span', { class: 'tf-muted' }, ` (set aside: ${d.setAside.join('; ')})`) : null,
              ),
            ),
          )
        : null,
      h(
        'div',
        { class: 'tf-actions tf-next-actions' },
        primary,
        ...(steps.secondary ?? []).map((a) => this.button(ctx, a, go, true)),
        !primary && steps.waiting ? h('p', { class: 'tf-muted tf-next-waiting', role: 'status' }, `Waiting for ${steps.waiting}.`) : null,
      ),
    );
    return steps;
  }

  private button(ctx: ViewContext, a: NextAction, go: GoTo, secondary = false): HTMLElement {
    const { host, state } = ctx;
    const writes = a.kind === 'run' || a.kind === 'resume' || a.kind === 'adoptBrief' || a.kind === 'reopen';
    const briefOnly = (state.review?.comments?.length ?? 0) > 0 && (state.review?.designers.length ?? 0) === 0;
    const act = (): void => {
      switch (a.kind) {
        case 'openFile':
          return host.post({ type: 'openFile', path: a.path! });
        case 'showLatest':
          return host.post({ type: 'openRun', runId: a.runId! });
        case 'resume':
          return host.post({ type: 'run', resume: a.runId! });
        case 'run':
          return host.post({ type: 'run', ...(briefOnly ? { task: 'brief' as const } : {}) });
        case 'adoptBrief':
          return host.post({ type: 'adoptBrief', runId: a.runId! });
        case 'rerank':
          return host.post({ type: 'openRerank', runId: a.runId! });
        case 'chooseMe':
          return void this.element.querySelector<HTMLElement>('#tf-i-am')?.focus();
        case 'answer':
          return go('run', '#tf-people');
        case 'vote':
          return go('run', `[data-fork="${a.iteration}/${a.decisionPoint}"]`);
        case 'coverage':
          return go('run', '#tf-coverage-confirm');
        case 'rate':
          return go('run', '#tf-discussion-section');
        case 'rank':
          return go('ranking', '#tf-ranking');
        case 'backToRun':
          return host.post({ type: 'backToRun' });
        case 'reopen':
          // The host asks the lead to confirm before anything is written.
          return void (
            ctx.me && host.post({ type: 'reopen', runId: a.runId!, as: ctx.me, iteration: a.iteration!, decisionPoint: a.decisionPoint! })
          );
      }
    };
    return h(
      'vscode-button',
      {
        ...(secondary ? { class: 'tf-next-secondary', secondary: true } : { id: 'tf-next-primary' }),
        'data-action': a.kind,
        disabled: writes && (!state.trusted || state.running),
        title: writes && !state.trusted ? 'This workspace is not trusted, so nothing is run or written.' : '',
        onclick: act,
      },
      a.label,
    );
  }
}
