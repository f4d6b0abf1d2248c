/**
 * "Add / Edit my ranking": an ordered list of the options (drag and drop, or Alt+↑/↓ and buttons), a justification
 * per option, optional ties, the designer's name and role. Saving asks the host, which validates with the same rules
 * as `teamfusion validate` and writes rankings/<id>.yaml; its diagnostics are shown next to the form.
 * The draft survives the panel being hidden (persisted with setState) and state updates from the host.
 */
import { h, section, replaceChildren } from '../../dom';
import type { ViewContext } from '../../context';
import type { PanelDiagnostic } from '../../../../src/protocol/panel';
import {
  readDraft,
  draftAs,
  draftFollowsMe,
  draftFromDesigner,
  draftProblems,
  emptyDraft,
  moveItem,
  normalizeDraft,
  ranksOf,
  toRanking,
  type Draft,
} from '../../rankingDraft';
import { thumb } from './thumb';
import { isBriefOnly } from '../brief/briefReview';
import { errorMessage } from '../../../../src/protocol/shared';

interface ValueElement extends HTMLElement {
  value: string;
}
interface CheckElement extends HTMLElement {
  checked: boolean;
}

const NEW = '__new__';

export class RankingForm {
  readonly element = h('div', { class: 'tf-ranking-form' });
  private draft: Draft | undefined;
  private optionKey = '';
  private designersKey = '';
  private ctx: ViewContext | undefined;
  private readonly list = h('ol', {
    class: 'tf-rank-list',
    id: 'tf-rank-list',
    'data-view-group': '',
    'aria-label': 'Your ranking, best first',
  });
  private readonly feedback = h('div', { class: 'tf-form-feedback', id: 'tf-rk-feedback', 'aria-live': 'polite' });
  private readonly pickerSlot = h('div', { class: 'tf-field' });
  private nameField: ValueElement | undefined;
  private roleField: ValueElement | undefined;
  private saving = false;
  /** The member the form last followed, and the draft it started them with. */
  private me: string | undefined;
  private meDraft: Draft | undefined;
  private persistTimer: ReturnType<typeof setTimeout> | undefined;
  private dragFrom = -1;

  render(ctx: ViewContext): void {
    this.ctx = ctx;
    const review = ctx.state.review;
    if (!review) {
      replaceChildren(
        this.element,
        section('tf-ranking', 'My ranking', h('p', { class: 'tf-muted' }, 'The review has errors; fix them before adding a ranking.')),
      );
      this.optionKey = '';
      return;
    }
    if (isBriefOnly(review)) {
      replaceChildren(
        this.element,
        section(
          'tf-ranking',
          'My ranking',
          h(
            'p',
            { class: 'tf-muted', id: 'tf-rk-brief-only' },
            'This review is of the brief: nobody ranks options here. Members comment on the brief instead (Comment on the Brief… in the Overview).',
          ),
        ),
      );
      this.optionKey = '';
      return;
    }
    const optionIds = review.options.map((o) => o.id);
    const optionKey = optionIds.join('\u0000');
    const designersKey = review.designers.map((d) => `${d.id}:${d.name}`).join('\u0000');
    if (!this.draft) {
      const saved = readDraft(ctx.host.state?.draft);
      this.draft = saved ? normalizeDraft(saved, optionIds) : emptyDraft(optionIds);
    }
    // The person at the panel ("I am") ranks as themselves: the form follows them while it holds nothing of its own.
    if (ctx.me !== this.me) {
      this.me = ctx.me;
      // A blind set's form names who ranks (and who has): it is drawn again for the member chosen.
      if (ctx.state.blindSet) this.optionKey = '';
      const member = ctx.members.find((m) => m.id === ctx.me);
      if (member && draftFollowsMe(this.draft, this.meDraft)) {
        this.draft = draftAs(
          member,
          review.designers.find((d) => d.id === member.id),
          optionIds,
        );
        this.meDraft = this.draft;
        this.optionKey = '';
      }
    }
    if (ctx.state.blindSet && designersKey !== this.designersKey) this.optionKey = '';
    if (optionKey === this.optionKey && this.element.childElementCount > 0) {
      if (designersKey !== this.designersKey) this.renderPicker();
      this.designersKey = designersKey;
      return;
    }
    this.optionKey = optionKey;
    this.designersKey = designersKey;
    this.draft = normalizeDraft(this.draft, optionIds);
    this.build();
  }

  private build(): void {
    if (this.ctx?.state.blindSet) {
      this.buildBlind(this.ctx.state.blindSet);
      return;
    }
    const draft = this.draft!;
    this.nameField = h('vscode-textfield', {
      id: 'tf-rk-name',
      'aria-label': 'Your name',
      placeholder: 'Your name, e.g. Designer E',
    }) as ValueElement;
    this.roleField = h('vscode-textfield', {
      id: 'tf-rk-role',
      'aria-label': 'Your role (optional)',
      placeholder: 'Role (optional)',
    }) as ValueElement;
    this.nameField.value = draft.designer;
    this.roleField.value = draft.role;
    this.nameField.addEventListener('input', () => this.change({ designer: this.nameField!.value }));
    this.roleField.addEventListener('input', () => this.change({ role: this.roleField!.value }));
    this.renderPicker();
    this.renderList();
    const save = h('vscode-button', { id: 'tf-rk-save', onclick: () => void this.save() }, 'Save ranking');
    replaceChildren(
      this.element,
      section(
        'tf-ranking',
        'My ranking',
        h(
          'p',
          { class: 'tf-muted' },
          'Order the options best first: drag them, or focus one and press Alt+↑ / Alt+↓. Tick "tie" to share the rank of the option above. Every option needs a justification.',
        ),
        h(
          'div',
          { class: 'tf-form-grid' },
          this.pickerSlot,
          h('label', { class: 'tf-field' }, h('span', {}, 'Name'), this.nameField),
          h('label', { class: 'tf-field' }, h('span', {}, 'Role'), this.roleField),
        ),
        this.list,
        this.feedback,
        h('div', { class: 'tf-actions' }, save),
      ),
    );
  }

  /**
   * A blind re-rank set's form: the run's team ranks it, each member as themselves — the member chosen under "I am" (the
   * team to pick from), never a typed name — with the way back to the run.
   */
  private buildBlind(blind: NonNullable<ViewContext['state']['blindSet']>): void {
    const ctx = this.ctx!;
    const me = blind.team.find((m) => m.id === ctx.me);
    const ranked = new Set((ctx.state.review?.designers ?? []).map((d) => d.id));
    this.nameField = undefined;
    this.roleField = undefined;
    this.renderList();
    const save = h(
      'vscode-button',
      { id: 'tf-rk-save', disabled: !me, title: me ? '' : 'Choose who you are first (I am, at the top).', onclick: () => void this.save() },
      'Save ranking',
    );
    replaceChildren(
      this.element,
      section(
        'tf-ranking',
        `Blind re-rank of run ${blind.runId}`,
        h(
          'p',
          { class: 'tf-muted' },
          'Order the pictures best first: drag them, or focus one and press Alt+↑ / Alt+↓. Tick "tie" to share the rank of the one above. Every picture needs a justification. The letters say nothing about where a picture came from.',
        ),
        h(
          'p',
          { id: 'tf-rk-as' },
          me
            ? `Ranking as ${me.name}${ranked.has(me.id) ? ' (saved; saving again replaces it)' : ''}.`
            : "Choose who you are (I am, at the top): the run's team ranks it, each as themselves.",
        ),
        h(
          'p',
          { class: 'tf-muted', id: 'tf-rk-team' },
          `Ranked so far: ${blind.team.filter((m) => ranked.has(m.id)).length} of ${blind.team.length} (${blind.team.map((m) => `${m.name}${ranked.has(m.id) ? ' ✓' : ''}`).join(', ') || 'no team found'}).`,
        ),
        this.list,
        this.feedback,
        h('div', { class: 'tf-actions' }, save, backToRun(ctx, blind.runId)),
      ),
    );
  }

  private renderPicker(): void {
    const ctx = this.ctx!;
    const picker = h('vscode-single-select', { id: 'tf-rk-picker', 'aria-label': 'Ranking to edit' });
    picker.append(h('vscode-option', { value: NEW, selected: !this.draft?.designerId }, 'New ranking'));
    for (const d of ctx.state.review?.designers ?? []) {
      picker.append(h('vscode-option', { value: d.id, selected: this.draft?.designerId === d.id }, `Edit ${d.name}`));
    }
    picker.addEventListener('change', () => this.pick((picker as ValueElement).value));
    replaceChildren(this.pickerSlot, h('span', {}, 'Ranking'), picker);
  }

  private pick(value: string): void {
    const review = this.ctx?.state.review;
    if (!review) return;
    const optionIds = review.options.map((o) => o.id);
    const d = review.designers.find((x) => x.id === value);
    this.draft = d ? draftFromDesigner(d, optionIds) : emptyDraft(optionIds);
    replaceChildren(this.feedback);
    this.build();
    this.persist();
  }

  private change(patch: Partial<Draft>): void {
    this.draft = { ...this.draft!, ...patch };
    // A complaint about the form goes away once the form is edited (saving checks again).
    if (this.feedback.querySelector('[role=alert]')) replaceChildren(this.feedback);
    this.persist();
  }

  private persist(): void {
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = setTimeout(() => this.ctx?.host.persist({ draft: this.draft }), 300);
  }

  private move(from: number, to: number, focus = true): void {
    const items = this.draft!.items;
    const next = moveItem(items, from, to);
    if (next === items) return;
    const moved = items[from]!.option;
    this.draft = { ...this.draft!, items: next };
    this.renderList();
    this.persist();
    if (focus) this.list.querySelector<HTMLElement>(`li[data-option="${CSS.escape(moved)}"]`)?.focus();
  }

  private renderList(): void {
    const ctx = this.ctx!;
    const items = this.draft!.items;
    const ranks = ranksOf(items);
    const n = items.length;
    const rows = items.map((it, i) => {
      const label = ctx.labelOf(it.option);
      const justification = h('vscode-textarea', {
        rows: 2,
        resize: 'vertical',
        class: 'tf-rk-just',
        'data-option': it.option,
        'aria-label': `Why ${label} is ranked ${ranks[i]}`,
        placeholder: 'Why here?',
      }) as ValueElement;
      justification.value = it.justification;
      justification.addEventListener('input', () => {
        const idx = this.draft!.items.findIndex((x) => x.option === it.option);
        if (idx < 0) return;
        const next = [...this.draft!.items];
        next[idx] = { ...next[idx]!, justification: justification.value };
        this.change({ items: next });
      });
      const tie =
        i > 0
          ? (h('vscode-checkbox', {
              class: 'tf-rk-tie',
              label: 'tie',
              'aria-label': `${label} ties with the option above`,
            }) as CheckElement)
          : null;
      if (tie) {
        tie.checked = it.tiedWithAbove;
        tie.addEventListener('change', () => {
          const next = [...this.draft!.items];
          const idx = next.findIndex((x) => x.option === it.option);
          next[idx] = { ...next[idx]!, tiedWithAbove: tie.checked };
          this.draft = { ...this.draft!, items: next };
          this.renderList();
          this.persist();
        });
      }
      const handle = h('span', { class: 'tf-rk-handle', draggable: 'true', title: 'Drag to reorder', 'aria-hidden': 'true' }, '⠿');
      const li = h(
        'li',
        {
          tabindex: 0,
          'data-option': it.option,
          'data-index': String(i),
          'aria-label': `Rank ${ranks[i]}: ${label}. Alt+Up or Alt+Down moves it.`,
        },
        h('span', { class: 'tf-rk-pos' }, String(ranks[i])),
        handle,
        thumb(ctx, it.option, 'md'),
        h(
          'div',
          { class: 'tf-rk-move' },
          h(
            'button',
            {
              type: 'button',
              class: 'tf-icon-button',
              'aria-label': `Move ${label} up`,
              disabled: i === 0,
              onclick: () => this.move(i, i - 1, false),
            },
            '↑',
          ),
          h(
            'button',
            {
              type: 'button',
              class: 'tf-icon-button',
              'aria-label': `Move ${label} down`,
              disabled: i === n - 1,
              onclick: () => this.move(i, i + 1, false),
            },
            '↓',
          ),
          tie,
        ),
        justification,
      );
      li.addEventListener('keydown', (ev) => {
        if (!ev.altKey || ev.target !== li) return;
        if (ev.key === 'ArrowUp') {
          ev.preventDefault();
          this.move(i, i - 1);
        } else if (ev.key === 'ArrowDown') {
          ev.preventDefault();
          this.move(i, i + 1);
        }
      });
      handle.addEventListener('dragstart', (ev) => {
        this.dragFrom = i;
        ev.dataTransfer?.setData('text/plain', it.option);
        if (ev.dataTransfer) ev.dataTransfer.effectAllowed = 'move';
        ev.dataTransfer?.setDragImage(li, 12, 12);
        li.classList.add('tf-dragging');
      });
      handle.addEventListener('dragend', () => li.classList.remove('tf-dragging'));
      li.addEventListener('dragover', (ev) => {
        if (this.dragFrom < 0) return;
        ev.preventDefault();
        li.classList.add('tf-drop-target');
      });
      li.addEventListener('dragleave', () => li.classList.remove('tf-drop-target'));
      li.addEventListener('drop', (ev) => {
        ev.preventDefault();
        li.classList.remove('tf-drop-target');
        const from = this.dragFrom;
        this.dragFrom = -1;
        if (from >= 0) this.move(from, i, false);
      });
      return li;
    });
    replaceChildren(this.list, ...rows);
  }

  private showDiagnostics(diagnostics: PanelDiagnostic[], ok: boolean, file?: string): void {
    const items = diagnostics.map((d) =>
      h(
        'li',
        { class: `tf-diag tf-diag-${d.severity}` },
        `${d.file}${d.line ? `:${d.line}:${d.column}` : ''}: ${d.severity}: ${d.message}`,
      ),
    );
    replaceChildren(
      this.feedback,
      ok ? h('p', { class: 'tf-saved', role: 'status' }, `Saved ${file ?? 'the ranking'}. The analysis updates in a moment.`) : null,
      items.length ? h('ul', { role: ok ? 'status' : 'alert', class: 'tf-diagnostics' }, ...items) : null,
    );
  }

  private async save(): Promise<void> {
    if (this.saving || !this.ctx || !this.draft) return;
    // A blind set is ranked by the member chosen under "I am", under the team's name for them.
    const member = this.ctx.state.blindSet?.team.find((m) => m.id === this.ctx?.me);
    const draft = member ? { ...this.draft, designer: member.name } : this.draft;
    const problems = draftProblems(draft);
    if (problems.length) {
      replaceChildren(
        this.feedback,
        h('ul', { role: 'alert', class: 'tf-diagnostics' }, ...problems.map((p) => h('li', { class: 'tf-diag tf-diag-error' }, p))),
      );
      return;
    }
    this.saving = true;
    replaceChildren(this.feedback, h('p', { class: 'tf-muted' }, 'Saving…'));
    try {
      const reply = await this.ctx.host.request('saveRanking', {
        ...(draft.designerId ? { designerId: draft.designerId } : {}),
        ...(this.ctx.state.blindSet && this.ctx.me ? { member: this.ctx.me } : {}),
        designer: draft.designer.trim(),
        ...(draft.role.trim() ? { role: draft.role.trim() } : {}),
        ranking: toRanking(draft.items),
      });
      this.showDiagnostics(reply.diagnostics, reply.ok, reply.file);
      if (reply.ok && reply.designerId) {
        this.draft = { ...this.draft, designerId: reply.designerId };
        this.designersKey = '';
        this.persist();
      }
    } catch (e) {
      // No answer from the extension (or one that does not answer this save): said like a refusal, the draft kept.
      this.showDiagnostics([{ file: 'rankings', line: 0, column: 0, severity: 'error', message: errorMessage(e) }], false);
    } finally {
      this.saving = false;
    }
  }
}

/** "Back to run <id>": from a blind re-rank set to its run, in the panel of the review it was made from. */
export function backToRun(ctx: ViewContext, runId: string): HTMLElement {
  return h(
    'vscode-button',
    { class: 'tf-back-to-run', secondary: true, onclick: () => ctx.host.post({ type: 'backToRun' }) },
    `Back to run ${runId}`,
  );
}
