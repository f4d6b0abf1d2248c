/**
 * People in the discussion, in the Run tab: under the live discussion, an input where a designer (chosen like in the
 * ranking form) speaks into the run — "@id" asks someone to answer next, "Call in…" adds a guest's @mention — and, when
 * the run waits for a person who took over their proxy, a banner and that person's input ready. Pin buttons on the
 * messages come from `pinButton`. Everything people wrote is shown as text, never as markup.
 */
import { h, replaceChildren } from '../../dom';
import type { ViewContext } from '../../context';
import type { PanelRequests, PanelRunEvent, WaitingFor } from '../../../../src/protocol/panel';
import { errorMessage } from '../../../../src/protocol/shared';

interface ValueElement extends HTMLElement {
  value: string;
}

export class PeopleBox {
  readonly element = h('div', { class: 'tf-people', id: 'tf-people' });
  private ctx: ViewContext | undefined;
  private runId: string | undefined;
  private speaker = '';
  private draft = '';
  private waitingFor: WaitingFor | undefined;
  private pins = new Set<string>();
  private result: { ok: boolean; message: string; what?: string } | undefined;

  render(ctx: ViewContext): void {
    this.ctx = ctx;
    const run = ctx.state.run;
    if (run?.id !== this.runId) {
      this.runId = run?.id;
      this.result = undefined;
    }
    this.waitingFor =
      run?.status === 'waiting' ? run.waitingFor : this.waitingFor && run?.status === 'running' ? this.waitingFor : undefined;
    this.pins = new Set((run?.pins ?? []).map((p) => p.message));
    this.draw();
  }

  onEvent(ev: PanelRunEvent): void {
    if (!this.ctx || ev.runId !== this.runId) {
      if (ev.type === 'run-started' && this.ctx) {
        this.runId = ev.runId;
        this.waitingFor = undefined;
        this.draw();
      }
      return;
    }
    if (ev.type === 'waiting') {
      this.waitingFor = ev.waitingFor;
      this.speaker = ev.waitingFor.speaker;
      this.draw();
      document.getElementById('tf-say-text')?.focus();
    } else if (
      ev.type === 'turn-completed' &&
      this.waitingFor &&
      ev.message.kind === 'human' &&
      ev.message.speaker === this.waitingFor.speaker &&
      ev.message.turn === this.waitingFor.turn
    ) {
      this.waitingFor = undefined;
      this.draw();
    } else if (ev.type === 'pins-changed') {
      this.pins = new Set(ev.pins.map((p) => p.message));
      for (const b of document.querySelectorAll<HTMLElement>('.tf-pin')) markPin(b, this.pins.has(b.dataset.message ?? ''));
    } else if (ev.type === 'run-finished') {
      this.waitingFor = undefined;
      this.draw();
    }
  }

  /** Who speaks or pins: the person the run waits for, else the one chosen, else the lead-less first designer. */
  currentSpeaker(): string {
    const designers = this.ctx?.state.review?.designers ?? [];
    if (this.speaker && designers.some((d) => d.id === this.speaker)) return this.speaker;
    return designers[0]?.id ?? '';
  }

  /** A pin button for a recorded message (pins and unpins as the speaker chosen in the input). */
  pinButton(messageId: string): HTMLElement | null {
    const ctx = this.ctx;
    const run = ctx?.state.run;
    if (!ctx || !run || !ctx.state.trusted) return null;
    const button = h('vscode-button', {
      class: 'tf-pin',
      secondary: true,
      'data-message': messageId,
      onclick: () => {
        const pinned = this.pins.has(messageId);
        this.send('pin', { runId: run.id, message: messageId, as: this.currentSpeaker(), ...(pinned ? { remove: true } : {}) });
      },
    });
    markPin(button, this.pins.has(messageId));
    return button;
  }

  /** Says or pins through the host's request channel; what came of it (or that nothing answered) is shown under the input. */
  private send<K extends 'say' | 'pin'>(kind: K, params: PanelRequests[K]['params']): void {
    const host = this.ctx?.host;
    if (!host) return;
    host
      .request(kind, params)
      .then(
        (reply) => {
          if (kind === 'say' && reply.ok) this.draft = '';
          this.result = { ok: reply.ok, message: reply.message, what: kind };
        },
        (e: unknown) => (this.result = { ok: false, message: errorMessage(e), what: kind }),
      )
      .finally(() => this.draw());
  }

  private draw(): void {
    const ctx = this.ctx;
    const run = ctx?.state.run;
    const designers = ctx?.state.review?.designers ?? [];
    if (!ctx || !run || run.status === 'completed' || designers.length === 0) {
      // Nobody speaks in a completed run, but a pin still goes to its inbox (a refine takes it in): say what became of it.
      const pinned = run?.status === 'completed' && this.result?.what === 'pin' ? this.result : undefined;
      replaceChildren(
        this.element,
        pinned
          ? h('p', { class: pinned.ok ? 'tf-muted' : 'tf-notice tf-notice-error', id: 'tf-say-result', role: 'status' }, pinned.message)
          : null,
      );
      return;
    }
    if (this.waitingFor) this.speaker = this.waitingFor.speaker;
    const speaker = this.currentSpeaker();
    const waitingName = this.waitingFor ? ctx.designerName(this.waitingFor.speaker) : undefined;
    const banner = this.waitingFor
      ? h(
          'div',
          { class: 'tf-waiting', id: 'tf-waiting', role: 'alert' },
          h('strong', {}, `Waiting for ${waitingName}`),
          ` — it is their turn (iteration ${this.waitingFor.iteration}, turn ${this.waitingFor.turn}). Write their message below, or /pass to let their proxy speak.`,
        )
      : null;

    const picker = h('vscode-single-select', { id: 'tf-say-as', 'aria-label': 'Speak as' }) as ValueElement;
    for (const d of designers) picker.append(h('vscode-option', { value: d.id, selected: d.id === speaker }, d.name));
    picker.addEventListener('change', () => (this.speaker = picker.value));

    const text = h('vscode-textarea', {
      id: 'tf-say-text',
      rows: 2,
      resize: 'vertical',
      maxlength: 4000,
      placeholder: waitingName ? `${waitingName}'s message (or /pass)` : 'Say something to the team… (@id asks someone to answer next)',
      'aria-label': 'Your message to the discussion',
    }) as ValueElement;
    text.value = this.draft;
    text.addEventListener('input', () => (this.draft = text.value));
    const submit = (): void => {
      const value = text.value.trim();
      if (!value) return;
      this.send('say', { runId: run.id, as: this.currentSpeaker(), text: value });
    };
    text.addEventListener('keydown', (e: KeyboardEvent) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
    });
    const send = h('vscode-button', { id: 'tf-say-send', disabled: !ctx.state.trusted, onclick: submit }, 'Send');

    const guests = ctx.state.review?.guests ?? [];
    let callIn: HTMLElement | null = null;
    if (guests.length) {
      const select = h('vscode-single-select', { id: 'tf-call-in', 'aria-label': 'Call in a guest' }) as ValueElement;
      select.append(h('vscode-option', { value: '', selected: true }, 'Call in…'));
      for (const g of guests) select.append(h('vscode-option', { value: g.id }, g.role ? `${g.name} (${g.role})` : g.name));
      select.addEventListener('change', () => {
        const id = select.value;
        if (!id) return;
        this.draft = `${this.draft.trim() ? `${this.draft.trim()} ` : ''}@${id} `;
        text.value = this.draft;
        text.focus();
      });
      callIn = select;
    }
    const result = this.result
      ? h(
          'p',
          { class: this.result.ok ? 'tf-muted' : 'tf-notice tf-notice-error', id: 'tf-say-result', role: 'status' },
          this.result.message,
        )
      : null;
    const why = ctx.state.trusted ? null : h('p', { class: 'tf-why' }, 'This workspace is not trusted, so nothing is written.');
    replaceChildren(
      this.element,
      banner,
      h('div', { class: 'tf-say-row' }, h('label', { class: 'tf-picker-label' }, 'Speak as ', picker), callIn),
      text,
      h('div', { class: 'tf-actions' }, send),
      result,
      why,
    );
  }
}

function markPin(button: HTMLElement, pinned: boolean): void {
  button.textContent = pinned ? 'Unpin' : 'Pin';
  button.setAttribute('aria-pressed', pinned ? 'true' : 'false');
  button.title = pinned ? 'Unpin: later prompts stop carrying this message' : 'Pin: every later prompt of the run carries this message';
  button.closest('.tf-msg')?.classList.toggle('tf-pinned', pinned);
}
