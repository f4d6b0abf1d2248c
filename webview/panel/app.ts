/**
 * The review panel app: receives the host's state and run events, renders three tabs (Overview, Run, My ranking) and
 * remembers the chosen tab and run. Rendering is plain DOM; every string goes in as text.
 */
import { galleryView } from './views/gallery';
import { h, replaceChildren } from './dom';
import { HostConnection } from './host';
import { makeContext, type ViewContext } from './context';
import type { HostMessage, PanelState } from '../../src/protocol/panel';
import { briefView } from './views/brief';
import { briefCommentsView } from './views/briefReview';
import { heatmapView } from './views/heatmap';
import { consensusView, kendallView } from './views/agreement';
import { RunTab } from './views/runTab';
import { RankingForm } from './views/rankingForm';
import { ImageViewer, viewGroup } from './views/viewer';
import { ThumbPeek } from './views/peek';

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
  private readonly tabs: HTMLElement;

  constructor(root: HTMLElement) {
    this.root = root;
    this.host = new HostConnection((m) => this.onMessage(m));
    const saved = this.host.state?.tab;
    const index = Math.max(0, TABS.indexOf((saved ?? 'overview') as Tab));
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
      this.host.persist({ tab: TABS[i] ?? 'overview' });
    });
    this.wireImages();
    window.addEventListener('error', (e) => this.host.log('error', `${e.message} (${e.filename}:${e.lineno})`));
    window.addEventListener('unhandledrejection', (e) => this.host.log('error', String(e.reason)));
    this.host.post({ type: 'ready' });
  }

  private onMessage(m: HostMessage): void {
    switch (m.type) {
      case 'state':
        this.render(m.state);
        return;
      case 'runEvent':
        this.runTab.onEvent(m.event);
        return;
      case 'notice':
        this.runTab.notice(m.level, m.message);
        return;
      case 'saveRankingResult':
        return;
      case 'codingProgress':
        this.runTab.analysis.onProgress(m.progress);
        return;
      case 'peopleResult':
        this.runTab.people.onResult(m);
        return;
      case 'syncState':
        this.runTab.syncState(m);
        return;
    }
  }

  private render(state: PanelState): void {
    const started = performance.now();
    this.host.persist({ root: state.root, ...(state.run ? { runId: state.run.id } : {}) });
    const ctx = makeContext(state, this.host);
    if (state.thumbSize) document.documentElement.style.setProperty('--tf-thumb', `${state.thumbSize}px`);
    this.renderHeader(ctx);
    replaceChildren(this.overview, diagnosticsView(ctx), kendallView(ctx), heatmapView(ctx), consensusView(ctx), briefView(ctx), galleryView(ctx), briefCommentsView(ctx));
    this.runTab.render(ctx);
    this.form.render(ctx);
    this.viewer.update(ctx);
    if (this.tabs.parentElement !== this.root) {
      replaceChildren(this.root, this.header, this.tabs);
      document.body.append(this.viewer.element);
      this.root.removeAttribute('aria-busy');
    }
    document.body.dataset.renderMs = String(Math.round(performance.now() - started));
    document.body.dataset.ready = 'true';
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
    const facts = review ? `${review.options.length} options · ${review.designers.length} designers · ${state.runs.length} runs` : '';
    replaceChildren(
      this.header,
      h('h1', { id: 'tf-title' }, state.title),
      h('p', { class: 'tf-muted tf-path' }, state.root),
      facts ? h('p', { class: 'tf-facts' }, facts) : null,
      state.trusted ? null : h('p', { class: 'tf-notice tf-notice-warning', role: 'status' }, 'Restricted mode: this workspace is not trusted, so runs are off and nothing is sent to a model. Analysis still works.'),
      state.running ? h('p', { class: 'tf-running' }, h('vscode-progress-ring', { class: 'tf-ring', 'aria-hidden': 'true' }), ' A run is in progress — see the Run tab.') : null,
    );
  }
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
        h('a', { href: '#', onclick: (e: Event) => (e.preventDefault(), ctx.host.post({ type: 'openFile', path: d.file })) }, `${d.file}${d.line ? `:${d.line}:${d.column}` : ''}`),
        `: ${d.severity}: ${d.message}`,
      ),
    );
  }
  return h(
    'section',
    { class: 'tf-section', id: 'tf-problems' },
    h('h2', {}, errors ? `${errors} error${errors === 1 ? '' : 's'} in the review` : `${diags.length} warning${diags.length === 1 ? '' : 's'}`),
    list,
  );
}

export function startApp(): void {
  const root = document.getElementById('app');
  if (!root) return;
  new App(root);
}
