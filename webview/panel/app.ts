/**
 * The review panel app: receives the host's state and run events, renders three tabs (Overview, Run, My ranking) and
 * remembers the chosen tab and run. Rendering is plain DOM; every string goes in as text.
 */
import { galleryView } from './views/review/gallery';
import { append, h, releaseImages, replaceChildren } from './dom';
import { HostConnection } from './host';
import { makeContext, type ViewContext } from './context';
import type { HostMessage, PanelState } from '../../src/protocol/panel';
import { briefView } from './views/brief/brief';
import { briefCommentsView, isBriefOnly } from './views/brief/briefReview';
import { criteriaView } from './views/review/criteria';
import { authorshipView } from './views/review/authorship';
import { Heatmap } from './views/review/heatmap';
import { consensusView, kendallView } from './views/review/agreement';
import { RunTab } from './views/run/runTab';
import { RankingForm } from './views/review/rankingForm';
import { ImageViewer, viewGroup } from './views/review/viewer';
import { ThumbPeek } from './views/review/peek';
import { count } from './text/format';
import { NextStrip } from './views/run/nextStrip';
import { decisionsOverview } from './views/run/decisions';

const TABS = ['overview', 'run', 'ranking'] as const;
type Tab = (typeof TABS)[number];

class App {
  private readonly host: HostConnection;
  private readonly root: HTMLElement;
  private readonly header = h('header', { class: 'tf-header' });
  private readonly overview = h('div', { class: 'tf-overview' });
  private readonly runTab = new RunTab();
  private readonly form = new RankingForm();
  private readonly viewer = new ImageViewer();
  private readonly heatmap = new Heatmap();
  private readonly next = new NextStrip();
  private readonly tabs: HTMLElement;
  /** The tab in view. */
  private tab: Tab;
  /** Tabs not yet drawn from the last state: the one in view is drawn at once, these right after (see render). */
  private readonly stale = new Set<Tab>();
  private ctx: ViewContext | undefined;
  /** The last state drawn (drawn again when the person at the panel says who they are). */
  private last: PanelState | undefined;
  private drawMs = 0;
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** What of the overview follows the first paint: below the grid, and the rest of a large grid (drawn by flush). */
  private overviewRest: (() => void) | undefined;

  constructor(root: HTMLElement) {
    this.root = root;
    this.host = new HostConnection((m) => this.onMessage(m));
    const saved = this.host.state?.tab;
    const index = Math.max(0, TABS.indexOf((saved ?? 'overview') as Tab));
    this.tab = TABS[index] ?? 'overview';
    this.tabs = h(
      'vscode-tabs',
      { 'selected-index': index, id: 'tf-tabs' },
      h('vscode-tab-header', { slot: 'header', 'data-tab': 'overview' }, 'Overview'),
      h('vscode-tab-panel', {}, this.overview),
      h('vscode-tab-header', { slot: 'header', 'data-tab': 'run' }, 'Run'),
      h('vscode-tab-panel', {}, this.runTab.element),
      h('vscode-tab-header', { slot: 'header', 'data-tab': 'ranking' }, 'My ranking'),
      h('vscode-tab-panel', {}, this.form.element),
    );
    this.tabs.addEventListener('vsc-tabs-select', (e) => {
      const i = (e as CustomEvent<{ selectedIndex: number }>).detail.selectedIndex;
      this.tab = TABS[i] ?? 'overview';
      this.flush();
      this.host.persist({ tab: this.tab });
    });
    this.wireImages();
    window.addEventListener('error', (e) => this.host.log('error', `${e.message} (${e.filename}:${e.lineno})`));
    window.addEventListener('unhandledrejection', (e) => this.host.log('error', String(e.reason)));
    // The first state comes with the page and is drawn before the host hears `ready` (it then sends only a newer one),
    // at the page's load: VS Code shows a webview at its load, so drawing before it would only hold the panel back (the
    // layout of a large grid ran before the load, and the first frame waited for both); drawn in the load event, the
    // panel is shown and drawn in one frame.
    const start = () => {
      const first = this.host.pageState();
      if (first) {
        performance.mark('tf:state');
        this.render(first);
      }
      performance.mark('tf:ready');
      this.host.post({ type: 'ready' });
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
  }

  private onMessage(m: HostMessage): void {
    // What a message changes lands on tabs drawn from the latest state.
    if (m.type !== 'state') this.flush();
    switch (m.type) {
      case 'state':
        if (!document.body.dataset.ready) performance.mark('tf:state');
        this.render(m.state);
        return;
      case 'runEvent':
        this.runTab.onEvent(m.event);
        return;
      case 'notice':
        this.runTab.notice(m.level, m.message);
        return;
      case 'codingProgress':
        this.runTab.analysis.onProgress(m.progress);
        return;
      case 'syncState':
        this.runTab.syncState(m);
        return;
    }
  }

  /**
   * Draws a state. The first one (the panel opening): the header and the tab in view at once (body data-drawn; of a large
   * rankings grid its first rows, the rest of it and what the overview shows below it following), the rest of the grid and the other tabs right after the next paint, or sooner when one is chosen or a message comes; body data-ready once every tab is
   * drawn. Every later state: all of it at once. body data-render-ms: the time drawing a state's tabs took.
   */
  private render(state: PanelState): void {
    const started = performance.now();
    this.host.persist({ root: state.root, ...(state.run ? { runId: state.run.id } : {}) });
    const ctx = makeContext(state, this.host);
    this.ctx = ctx;
    this.last = state;
    if (state.thumbSize) document.documentElement.style.setProperty('--tf-thumb', `${state.thumbSize}px`);
    this.renderHeader(ctx);
    const steps = this.next.render(
      ctx,
      (tab, selector) => this.goTo(tab, selector),
      () => this.last && this.render(this.last),
    );
    this.runTab.runIsNext = steps.runIsNext;
    for (const t of TABS) this.stale.add(t);
    this.draw(this.tab);
    this.viewer.update(ctx);
    if (this.tabs.parentElement !== this.root) {
      replaceChildren(this.root, this.header, this.next.element, this.tabs);
      document.body.append(this.viewer.element);
      this.root.removeAttribute('aria-busy');
    }
    this.drawMs = performance.now() - started;
    if (state.analysis && performance.getEntriesByName('tf:analysis').length === 0) performance.mark('tf:analysis');
    if (document.body.dataset.ready === 'true') {
      this.flush();
      return;
    }
    if (!document.body.dataset.drawn) {
      performance.mark('tf:rendered');
      // After the next frame: what drawing the first state cost the page beyond building it (components, styles, layout).
      requestAnimationFrame(() =>
        setTimeout(() => {
          performance.mark('tf:painted');
          publishMarks();
          releaseImages();
        }, 0),
      );
      window.addEventListener(
        'load',
        () => {
          performance.mark('tf:loaded');
          publishMarks();
        },
        { once: true },
      );
    }
    document.body.dataset.drawn = 'true';
    publishMarks();
    if (this.flushTimer === undefined) {
      // After the next frame is painted (the timer alone where frames do not come: a page VS Code keeps hidden).
      const later = () => {
        if (this.flushTimer === undefined) return;
        clearTimeout(this.flushTimer);
        this.flushTimer = undefined;
        this.flush();
      };
      this.flushTimer = setTimeout(later, 100);
      requestAnimationFrame(() => setTimeout(later, 0));
    }
  }

  /** Draws `tab` from the latest state, if it is not drawn from it yet. */
  private draw(tab: Tab): void {
    const ctx = this.ctx;
    if (!ctx || !this.stale.delete(tab)) return;
    if (tab === 'overview') {
      // A brief review has no rankings: no agreement or rankings grid.
      const briefOnly = isBriefOnly(ctx.state.review);
      replaceChildren(
        this.overview,
        diagnosticsView(ctx),
        authorshipView(ctx),
        decisionsOverview(ctx),
        briefOnly ? null : kendallView(ctx),
        briefOnly ? null : this.heatmap.view(ctx),
      );
      const rest = () =>
        append(this.overview, consensusView(ctx), criteriaView(ctx), briefView(ctx), galleryView(ctx), briefCommentsView(ctx));
      // On opening, what the overview shows below the rankings grid (the consensus, criteria, brief, gallery: the first
      // screen holds the agreement and the grid) follows the first paint (flush), as does the rest of a large grid drawn
      // in part; the brief of a brief review, its face, is drawn at once, and so is all of it in every later state.
      this.overviewRest = undefined;
      if (this.heatmap.partial() || (!briefOnly && document.body.dataset.drawn !== 'true')) this.overviewRest = rest;
      else rest();
    } else if (tab === 'run') {
      this.runTab.render(ctx);
    } else {
      this.form.render(ctx);
    }
    performance.mark(`tf:${tab === 'run' ? 'runTab' : tab === 'ranking' ? 'form' : tab}`);
  }

  /** Draws every tab not yet drawn from the latest state; then the page is ready. */
  private flush(): void {
    if (this.stale.size === 0) return;
    const started = performance.now();
    for (const t of TABS) this.draw(t);
    // Then the rest of a large grid and of the overview below it, also when the overview was drawn just now (another
    // tab was in view).
    this.heatmap.finish();
    const rest = this.overviewRest;
    this.overviewRest = undefined;
    rest?.();
    this.drawMs += performance.now() - started;
    document.body.dataset.renderMs = String(Math.round(this.drawMs));
    publishMarks();
    document.body.dataset.ready = 'true';
  }

  /** Shows `tab` and brings the first element matching `selector` there into view (focused when it can be). */
  private goTo(tab: Tab, selector: string): void {
    const index = TABS.indexOf(tab);
    (this.tabs as HTMLElement & { selectedIndex: number }).selectedIndex = index;
    this.tab = tab;
    this.flush();
    this.host.persist({ tab });
    const target = this.root.querySelector<HTMLElement>(selector);
    target?.scrollIntoView({ block: 'start' });
    target?.focus({ preventScroll: true });
  }

  /** Any image button (`data-view`) opens the large viewer; a `data-compare` button opens the compare of its ids. */
  private wireImages(): void {
    document.body.append(new ThumbPeek(this.root).element);
    this.root.addEventListener('click', (ev) => {
      const target = ev.target as HTMLElement;
      const view = target.closest<HTMLElement>('[data-view]');
      if (view?.dataset.view) {
        ev.preventDefault();
        const ids = viewGroup(view);
        this.viewer.open(ids, ids.indexOf(view.dataset.view), view);
        return;
      }
      const compare = target.closest<HTMLElement>('[data-compare]');
      if (compare?.dataset.compare) this.viewer.compare(compare.dataset.compare.split('\n'), compare);
    });
  }

  private renderHeader(ctx: ViewContext): void {
    const { state } = ctx;
    const review = state.review;
    // A brief review's face: its members (who commented), not options and designers.
    const facts = !review
      ? ''
      : isBriefOnly(review)
        ? `${count(review.comments?.length ?? 0, 'member')} commenting on the brief · ${count(state.runs.length, 'run')}`
        : `${count(review.options.length, 'option')} · ${count(review.designers.length, 'designer')} · ${count(state.runs.length, 'run')}`;
    replaceChildren(
      this.header,
      h('h1', { id: 'tf-title' }, state.title),
      h('p', { class: 'tf-muted tf-path' }, state.root),
      facts ? h('p', { class: 'tf-facts' }, facts) : null,
      state.trusted
        ? null
        : h(
            'p',
            { class: 'tf-notice tf-notice-warning', role: 'status' },
            'Restricted mode: this workspace is not trusted, so runs are off and nothing is sent to a model. Analysis still works.',
          ),
      state.running
        ? h(
            'p',
            { class: 'tf-running' },
            h('vscode-progress-ring', { class: 'tf-ring', 'aria-hidden': 'true' }),
            ' A run is in progress — see the Run tab.',
          )
        : null,
    );
  }
}

/**
 * The panel's timing marks (performance.mark, named tf:…) as wall-clock milliseconds in body data-marks, with `origin`
 * (when this document began loading): the vsix stage reports from them where the time of an open goes.
 */
function publishMarks(): void {
  const marks: Record<string, number> = { origin: Math.round(performance.timeOrigin) };
  // The app's script and stylesheet: asked for and received (what is left until `script` is compiling the bundle).
  for (const r of performance.getEntriesByType('resource')) {
    const name = /\/panel\.js(\?|$)/.test(r.name) ? 'js' : /\/panel\.css(\?|$)/.test(r.name) ? 'css' : undefined;
    if (!name || r.startTime === 0) continue;
    marks[`${name}Asked`] = Math.round(performance.timeOrigin + r.startTime);
    marks[`${name}Received`] = Math.round(performance.timeOrigin + (r as PerformanceResourceTiming).responseEnd);
  }
  for (const m of performance.getEntriesByType('mark')) {
    const name = m.name.startsWith('tf:') ? m.name.slice(3) : undefined;
    if (name && marks[name] === undefined) marks[name] = Math.round(performance.timeOrigin + m.startTime);
  }
  document.body.dataset.marks = JSON.stringify(marks);
}

function diagnosticsView(ctx: ViewContext): HTMLElement | null {
  const diags = ctx.state.diagnostics;
  if (diags.length === 0) return null;
  const errors = diags.filter((d) => d.severity === 'error').length;
  const list = h('ul', { class: 'tf-diagnostics' });
  for (const d of diags.slice(0, 100)) {
    list.append(
      h(
        'li',
        { class: `tf-diag tf-diag-${d.severity}` },
        h(
          'a',
          { href: '#', onclick: (e: Event) => (e.preventDefault(), ctx.host.post({ type: 'openFile', path: d.file })) },
          `${d.file}${d.line ? `:${d.line}:${d.column}` : ''}`,
        ),
        `: ${d.severity}: ${d.message}`,
      ),
    );
  }
  return h(
    'section',
    { class: 'tf-section', id: 'tf-problems' },
    h(
      'h2',
      {},
      errors ? `${errors} error${errors === 1 ? '' : 's'} in the review` : `${diags.length} warning${diags.length === 1 ? '' : 's'}`,
    ),
    list,
  );
}

export function startApp(): void {
  const root = document.getElementById('app');
  if (!root) return;
  new App(root);
}
