/**
 * The "Run" tab, read top down as a lead reads it (issue 40; the Next strip sits above the tabs): the run's actions and
 * picker with its status, then the decisions (forks, agreements), the final pick and remixes, "Did it help?", the live
 * discussion, Refine, and last the tokens, cost and settings, collapsed (RUN_TAB_ORDER). The discussion element lives
 * across state updates so streaming is never interrupted.
 */
import { h, section, muted, placeChildren, replaceChildren } from '../../dom';
import { runOptionLabel } from '../../text/format';
import type { ViewContext } from '../../context';
import type { PanelRunEvent, PanelState, SyncStateMessage } from '../../../../src/protocol/panel';
import { DiscussionView } from '../discussion/discussion';
import { PeopleBox } from '../review/people';
import { didItHelpView } from './didItHelp';
import { FeedbackPanel } from './feedback';
import { DiscussionAnalysisView } from '../discussion/discussionAnalysis';
import { outcomeView, remixGallery, timelineView, usageView } from './runOutcome';
import { poolsView } from './pools';
import { briefResultView, briefRunButton, canRunBrief } from '../brief/briefReview';
import { ForksView } from './forks';
import { remixLabel } from '../../../../src/protocol/candidateNames';

interface ValueElement extends HTMLElement {
  value: string;
}

/** The parts of the Run tab, top down (each a `[data-part]` child of the tab). */
export const RUN_TAB_ORDER = ['toolbar', 'status', 'decisions', 'results', 'evaluation', 'discussion', 'refine', 'cost'] as const;
export type RunTabPart = (typeof RUN_TAB_ORDER)[number];

export class RunTab {
  readonly element = h('div', { class: 'tf-run-tab' });
  private readonly discussion = new DiscussionView();
  readonly people = new PeopleBox();
  private readonly feedback = new FeedbackPanel();
  readonly analysis = new DiscussionAnalysisView();
  private readonly toolbar = h('div', { class: 'tf-toolbar', role: 'toolbar', 'aria-label': 'Run actions' });
  private readonly notices = h('div', { class: 'tf-notices', 'aria-live': 'polite' });
  /** Why the run shown failed; belongs to that run only, so it is rebuilt on every state. */
  private readonly runError = h('div', { class: 'tf-run-error', id: 'tf-run-error' });
  private shownRunId: string | undefined;
  private readonly agreement = h('div', { class: 'tf-rerank', id: 'tf-rerank-agreement' });
  private readonly broken = h('div', { class: 'tf-broken-runs', id: 'tf-broken-runs' });
  private readonly progress = h('div', { class: 'tf-progress' });
  /** "live from origin/main · last sync 14:02:11" when the review goes through the team's git remote. */
  private readonly live = h('div', { class: 'tf-live', id: 'tf-live', role: 'status' });
  private readonly results = h('div', { class: 'tf-results' });
  private readonly forks = new ForksView();
  private readonly refineBox = h('div', { class: 'tf-refine' });
  /** The run's "Agreements and decisions", under its forks. */
  private readonly outcome = h('div', { class: 'tf-outcome-box' });
  /** Tokens, cost and the run's settings: collapsed (closed by default; kept open or closed across updates). */
  private readonly costBody = h('div', { class: 'tf-cost-body' });
  private readonly cost = h('details', { class: 'tf-cost', id: 'tf-cost' }, h('summary', {}, 'Tokens, cost and settings'), this.costBody);
  private feedbackDraft = '';
  private ctx: ViewContext | undefined;
  /** Whether a new run is the next step (the Next strip says): else Run is a secondary button. */
  runIsNext = true;

  constructor() {
    const parts: Record<RunTabPart, HTMLElement[]> = {
      toolbar: [this.toolbar],
      status: [this.broken, this.runError, this.live, this.notices, this.progress],
      decisions: [this.forks.element, this.outcome],
      results: [this.results],
      evaluation: [this.agreement, this.feedback.surveyBox],
      discussion: [
        section('tf-discussion-section', 'Discussion', this.feedback.pickerBox, this.discussion.element, this.people.element),
        this.analysis.element,
      ],
      refine: [this.refineBox],
      cost: [this.cost],
    };
    for (const part of RUN_TAB_ORDER)
      this.element.append(h('div', { class: `tf-part tf-part-${part}`, 'data-part': part }, ...parts[part]));
  }

  render(ctx: ViewContext): void {
    this.ctx = ctx;
    const { state } = ctx;
    const run = state.run;
    this.renderToolbar(ctx);
    this.renderAgreement(state);
    this.renderBroken(state);
    this.people.render(ctx);
    this.discussion.pinFor = (id) => this.people.pinButton(id);
    this.discussion.render(ctx, run);
    this.feedback.render(ctx, this.discussion.element);
    replaceChildren(this.results);
    replaceChildren(this.outcome);
    replaceChildren(this.costBody);
    // A brief run's result is its revised brief (briefReview.ts); a design run's, its final pick and remixes.
    if (run && state.brief) this.results.append(briefResultView(ctx) ?? '');
    else if (run) {
      this.outcome.append(outcomeView(ctx, run));
      this.results.append(remixGallery(ctx, run), poolsView(ctx, run) ?? '', timelineView(ctx, run));
    }
    if (run) this.costBody.append(usageView(run));
    this.cost.hidden = !run;
    this.forks.render(ctx);
    this.analysis.render(ctx);
    this.renderRefine(ctx);
    // Notices (warnings, errors of live events) are about the run they came with: another run picked, they go.
    if (run?.id !== this.shownRunId) replaceChildren(this.notices);
    this.shownRunId = run?.id;
    replaceChildren(
      this.runError,
      run?.status === 'failed' && run.error
        ? h('div', { class: 'tf-notice tf-notice-error', role: 'alert' }, `Run ${run.id} failed: ${run.error}`)
        : null,
    );
  }

  onEvent(ev: PanelRunEvent): void {
    this.discussion.onEvent(ev);
    this.people.onEvent(ev);
    if (ev.type === 'notice') this.notice(ev.level, ev.message);
    if (ev.type === 'run-started') {
      replaceChildren(this.notices);
      this.shownRunId = ev.runId;
      this.setProgress('Run started…');
    }
    if (ev.type === 'turn-started') {
      this.setProgress(
        ev.phase === 'independent' || ev.phase === 'separate'
          ? `Iteration ${ev.iteration}: each proxy writes its own assessment, without seeing the others (turn ${ev.turn})…`
          : ev.kind === 'guest'
            ? `Iteration ${ev.iteration}: ${ev.speakerName} (guest) is writing…`
            : `Iteration ${ev.iteration}: ${ev.speakerName}'s proxy is writing (${ev.turn === null ? 'asked to speak' : `turn ${ev.turn}`})…`,
      );
    }
    if (ev.type === 'waiting') this.setProgress(`Iteration ${ev.waitingFor.iteration}: waiting for ${ev.speakerName} to answer below…`);
    const name = (id: string) => this.ctx?.labelOf(id) ?? id;
    if (ev.type === 'remix-agent-completed')
      this.setProgress(`Iteration ${ev.iteration.index}: the remix agent picked ${(ev.iteration.ranking ?? []).map(name).join(', ')}.`);
    if (ev.type === 'image-edit-started')
      this.setProgress(`Making ${ev.remixId ? remixLabel(ev.remixId) : 'a remix'} from ${ev.from.map(name).join(', ')}…`);
    if (ev.type === 'remix-created') this.setProgress(`Made ${remixLabel(ev.remixId)}.`);
    if (ev.type === 'run-finished') {
      this.setProgress(ev.status === 'completed' ? '' : `Run ${ev.status}${ev.error ? `: ${ev.error}` : '.'}`);
    }
  }

  /** The review's sync with the team's remote (the host tells after every pull or push, and when one fails). */
  syncState(m: SyncStateMessage): void {
    const when = m.lastSyncAt ? new Date(m.lastSyncAt).toLocaleTimeString() : undefined;
    replaceChildren(
      this.live,
      m.remote ? h('span', { class: 'tf-live-remote' }, `live from ${m.remote}`) : null,
      when ? h('span', { class: 'tf-live-time' }, ` · last sync ${when}`) : null,
      m.problem ? h('span', { class: 'tf-live-problem' }, `${m.remote || when ? ' · ' : ''}not synced: ${m.problem}`) : null,
    );
  }

  notice(level: 'info' | 'warning' | 'error', message: string, replace = false): void {
    const el = h('div', { class: `tf-notice tf-notice-${level}`, role: level === 'error' ? 'alert' : 'status' }, message);
    if (replace) replaceChildren(this.notices, el);
    else this.notices.append(el);
    while (this.notices.childElementCount > 5) this.notices.firstElementChild?.remove();
  }

  private setProgress(text: string): void {
    replaceChildren(
      this.progress,
      text ? h('vscode-progress-ring', { class: 'tf-ring', 'aria-hidden': 'true' }) : null,
      text ? h('span', {}, text) : null,
    );
  }

  private renderToolbar(ctx: ViewContext): void {
    const { state, host } = ctx;
    const canRun = state.trusted && !state.running && Boolean(state.review) && (state.review?.designers.length ?? 0) >= 2;
    // A brief review without rankings: its Run is the brief run.
    const briefOnly = canRunBrief(ctx) && (state.review?.designers.length ?? 0) === 0;
    const why = !state.trusted
      ? 'This workspace is not trusted, so TeamFusion sends nothing to a model. Trust the workspace to run.'
      : !state.review
        ? 'Fix the problems in the review first (see the Problems view).'
        : briefOnly
          ? undefined
          : (state.review.designers.length ?? 0) < 2
            ? "A run needs at least two designers' rankings."
            : undefined;
    const runButton = h(
      'vscode-button',
      { id: 'tf-run', secondary: !this.runIsNext, disabled: !canRun, onclick: () => host.post({ type: 'run' }) },
      'Run',
    );
    const cancelButton = state.running
      ? h(
          'vscode-button',
          {
            id: 'tf-cancel',
            secondary: true,
            onclick: () => host.post({ type: 'cancel', ...(state.run?.status === 'running' ? { runId: state.run.id } : {}) }),
          },
          'Cancel',
        )
      : null;
    const keyButton = h('vscode-button', { secondary: true, onclick: () => host.post({ type: 'setApiKey' }) }, 'Set API Key…');
    let picker: HTMLElement | null = null;
    if (state.runs.length > 0) {
      picker = h('vscode-single-select', { id: 'tf-run-picker', 'aria-label': 'Run to show' });
      for (const r of state.runs) {
        picker.append(h('vscode-option', { value: r.id, selected: r.id === state.run?.id }, runOptionLabel(r)));
      }
      picker.addEventListener('change', (e) => {
        const value = (e.target as ValueElement).value;
        if (value && value !== state.run?.id) host.post({ type: 'openRun', runId: value });
      });
    }
    const status = state.run
      ? h(
          'span',
          { class: 'tf-run-status' },
          state.run.interrupted
            ? h(
                'vscode-badge',
                { class: 'tf-status-interrupted', title: 'No process drives this run any more (it was stopped); resume it to continue.' },
                'interrupted',
              )
            : h('vscode-badge', { class: `tf-status-${state.run.status}` }, state.run.status),
          state.run.scripted || state.run.partlyScripted ? ' ' : null,
          state.run.scripted
            ? h(
                'vscode-badge',
                {
                  class: 'tf-status-scripted',
                  title:
                    "Answered by TeamFusion's bundled scripted server, not a model: its cost and measures are left out of every total.",
                },
                'scripted',
              )
            : state.run.partlyScripted
              ? h(
                  'vscode-badge',
                  { class: 'tf-status-scripted', title: `${state.run.partlyScripted} Its cost and measures are left out of every total.` },
                  'partly scripted',
                )
              : null,
          ' ',
          h('code', {}, state.run.id),
        )
      : null;
    replaceChildren(
      this.toolbar,
      briefOnly ? null : runButton,
      briefRunButton(ctx, briefOnly ? 'Run' : 'Run brief review', !briefOnly || !this.runIsNext),
      cancelButton,
      keyButton,
      h('span', { class: 'tf-spacer' }),
      status,
      picker ? h('label', { class: 'tf-picker-label' }, 'Run: ', picker) : null,
    );
    if (why) this.toolbar.append(h('p', { class: 'tf-why', id: 'tf-run-why' }, why));
    if (state.running && this.progress.childElementCount === 0) this.setProgress('A run is in progress…');
    if (!state.running && state.run?.status !== 'running') this.setProgress('');
  }

  /** Runs whose record cannot be used: listed with their diagnostic (as text), never offered to run or show. */
  private renderBroken(state: PanelState): void {
    const broken = state.brokenRuns ?? [];
    replaceChildren(
      this.broken,
      ...broken.map((b) =>
        h(
          'div',
          { class: 'tf-notice tf-notice-error', role: 'status' },
          h('strong', {}, `Run ${b.id} is broken and is not used: `),
          b.problem,
        ),
      ),
    );
  }

  /** "Did it help?" for a run with a blind re-rank set, and the team's usual way side by side when it is paired. */
  private renderAgreement(state: PanelState): void {
    const e = state.evaluation && state.evaluation.runId === state.run?.id ? state.evaluation : undefined;
    const sb = state.sideBySide;
    if (!e && !sb) {
      replaceChildren(this.agreement);
      return;
    }
    replaceChildren(this.agreement, didItHelpView(e, sb));
  }

  /**
   * The Refine input, made once and updated in place: a state that comes in while the lead writes feedback (a teammate's
   * vote or rating pulled from the remote) never takes the text, the focus or a click under way (as the people box's).
   */
  private refineInput: { section: HTMLElement; area: ValueElement; button: HTMLElement } | undefined;

  private refineInputs(): NonNullable<RunTab['refineInput']> {
    if (this.refineInput) return this.refineInput;
    const area = h('vscode-textarea', {
      id: 'tf-feedback',
      rows: 3,
      resize: 'vertical',
      placeholder: 'What should the next iteration change? e.g. "Keep the bottle of remix r1 but use the warmer palette of Image 3."',
      'aria-label': 'Feedback for the next iteration',
    }) as ValueElement;
    area.addEventListener('input', () => (this.feedbackDraft = area.value));
    const button = h('vscode-button', { id: 'tf-refine', onclick: () => this.refine() }, 'Refine');
    this.refineInput = {
      section: section(
        'tf-refine-section',
        'Refine',
        muted('Adds one iteration to this run, starting from its last result, with your feedback for the proxies.'),
        area,
        h('div', { class: 'tf-actions' }, button),
      ),
      area,
      button,
    };
    return this.refineInput;
  }

  /** Asks the host to refine the run shown with the feedback written. */
  private refine(): void {
    const run = this.ctx?.state.run;
    const input = this.refineInput;
    if (!run || !input || !this.ctx) return;
    this.ctx.host.post({ type: 'refine', runId: run.id, feedback: input.area.value.trim() });
    this.feedbackDraft = '';
    input.area.value = '';
  }

  private renderRefine(ctx: ViewContext): void {
    const { state } = ctx;
    const run = state.run;
    if (!run || state.running || run.status === 'running') {
      placeChildren(this.refineBox);
      return;
    }
    const input = this.refineInputs();
    if (input.area.value !== this.feedbackDraft) input.area.value = this.feedbackDraft;
    // A refinement is a paid run too: not the primary button while something of the latest run is open.
    input.button.toggleAttribute('secondary', !this.runIsNext);
    input.button.toggleAttribute('disabled', !state.trusted);
    placeChildren(this.refineBox, input.section);
  }

  get context(): ViewContext | undefined {
    return this.ctx;
  }
}
