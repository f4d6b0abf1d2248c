/**
 * People in the discussion, in the Run tab: under the live discussion, an input where a designer (chosen like in the
 * ranking form) speaks into the run — "@id" asks someone to answer next, "Call in…" adds a guest's @mention — and, when
 * the run waits for a person who took over their proxy, a banner and that person's input ready. Pin buttons on the
 * messages come from `pinButton`. Everything people wrote is shown as text, never as markup.
 */
import { h, placeChildren } from '../../dom';
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
      // The input becomes the waited-for person's, unless someone is in the middle of a message (it stays theirs).
      if (!this.draft.trim()) this.speaker = ev.waitingFor.speaker;
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

  /**
   * The input (who speaks, the message, Send), made once and updated in place: a state that comes in while someone types
   * or presses Send (a pull from the team's remote, a turn) redraws the banner and the result around it, never the input
   * itself, so its text, focus and a click under way stay. The picker and "Call in…" are made again only when the people
   * they list change.
   */
  private form:
    | {
        row: HTMLElement;
        label: HTMLElement;
        picker: ValueElement | null;
        pickerKey: string;
        callIn: ValueElement | null;
        callInKey: string;
        text: ValueElement;
        send: HTMLElement;
        actions: HTMLElement;
      }
    | undefined;

  private inputs(): NonNullable<PeopleBox['form']> {
    if (this.form) return this.form;
    const text = h('vscode-textarea', {
      id: 'tf-say-text',
      rows: 2,
      resize: 'vertical',
      maxlength: 4000,
      'aria-label': 'Your message to the discussion',
    }) as ValueElement;
    text.addEventListener('input', () => (this.draft = text.value));
    text.addEventListener('keydown', (e: KeyboardEvent) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) this.submit();
    });
    const send = h('vscode-button', { id: 'tf-say-send', onclick: () => this.submit() }, 'Send');
    const row = h('div', { class: 'tf-say-row' });
    this.form = {
      row,
      label: h('label', { class: 'tf-picker-label' }, 'Speak as '),
      picker: null,
      pickerKey: '',
      callIn: null,
      callInKey: '',
      text,
      send,
      actions: h('div', { class: 'tf-actions' }, send),
    };
    return this.form;
  }

  /** Sends what the input holds, as the speaker chosen, into the run shown. */
  private submit(): void {
    const run = this.ctx?.state.run;
    const value = this.form?.text.value.trim() ?? '';
    if (!run || !value) return;
    this.send('say', { runId: run.id, as: this.currentSpeaker(), text: value });
  }

  private draw(): void {
    const ctx = this.ctx;
    const run = ctx?.state.run;
    const designers = ctx?.state.review?.designers ?? [];
    if (!ctx || !run || run.status === 'completed' || designers.length === 0) {
      // Nobody speaks in a completed run, but a pin still goes to its inbox (a refine takes it in): say what became of it.
      const pinned = run?.status === 'completed' && this.result?.what === 'pin' ? this.result : undefined;
      placeChildren(
        this.element,
        pinned
          ? h('p', { class: pinned.ok ? 'tf-muted' : 'tf-notice tf-notice-error', id: 'tf-say-result', role: 'status' }, pinned.message)
          : null,
      );
      return;
    }
    if (this.waitingFor && !this.draft.trim()) this.speaker = this.waitingFor.speaker;
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

    const form = this.inputs();
    const pickerKey = JSON.stringify([designers.map((d) => [d.id, d.name]), speaker]);
    if (pickerKey !== form.pickerKey) {
      const picker = h('vscode-single-select', { id: 'tf-say-as', 'aria-label': 'Speak as' }) as ValueElement;
      for (const d of designers) picker.append(h('vscode-option', { value: d.id, selected: d.id === speaker }, d.name));
      picker.addEventListener('change', () => (this.speaker = picker.value));
      if (form.picker) form.picker.replaceWith(picker);
      else form.label.append(picker);
      form.picker = picker;
      form.pickerKey = pickerKey;
    }
    const guests = ctx.state.review?.guests ?? [];
    const callInKey = JSON.stringify(guests.map((g) => [g.id, g.name, g.role]));
    if (callInKey !== form.callInKey) {
      form.callIn = guests.length ? this.callIn(guests, form.text) : null;
      form.callInKey = callInKey;
    }
    placeChildren(form.row, form.label, form.callIn);
    form.text.setAttribute(
      'placeholder',
      waitingName ? `${waitingName}'s message (or /pass)` : 'Say something to the team… (@id asks someone to answer next)',
    );
    if (form.text.value !== this.draft) form.text.value = this.draft;
    form.send.toggleAttribute('disabled', !ctx.state.trusted);

    const result = this.result
      ? h(
          'p',
          { class: this.result.ok ? 'tf-muted' : 'tf-notice tf-notice-error', id: 'tf-say-result', role: 'status' },
          this.result.message,
        )
      : null;
    const why = ctx.state.trusted ? null : h('p', { class: 'tf-why' }, 'This workspace is not trusted, so nothing is written.');
    placeChildren(this.element, banner, form.row, form.text, form.actions, result, why);
  }

  /** "Call in…": a guest's @mention added to the message. */
  private callIn(guests: readonly { id: string; name: string; role?: string }[], text: ValueElement): ValueElement {
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
    return select;
  }
}

function markPin(button: HTMLElement, pinned: boolean): void {
  button.textContent = pinned ? 'Unpin' : 'Pin';
  button.setAttribute('aria-pressed', pinned ? 'true' : 'false');
  button.title = pinned ? 'Unpin: later prompts stop carrying this message' : 'Pin: every later prompt of the run carries this message';
  button.closest('.tf-msg')?.classList.toggle('tf-pinned', pinned);
}
