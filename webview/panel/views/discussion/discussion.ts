/**
 * The proxies' discussion, live: one colour per proxy (theme chart colours), a separator per iteration, streamed
 * text appended as text nodes while a turn is being written. Rebuilt from the run record when a new record arrives,
 * keeping any turn still streaming.
 */
import { h, muted, replaceChildren } from '../../dom';
import { speakerColor } from '../../colors';
import type { ViewContext } from '../../context';
import type { PanelRun, PanelRunEvent } from '../../../../src/protocol/panel';
import { typedWords } from '../../../../src/protocol/shared';
import { namedPieces } from '../../../../src/protocol/candidateNames';

const key = (iteration: number, speaker: string, turn: number | null): string => `${iteration}|${speaker}|${turn}`;

export class DiscussionView {
  readonly element = h('div', {
    class: 'tf-discussion',
    role: 'log',
    'aria-live': 'polite',
    'aria-label': 'Discussion',
    id: 'tf-discussion',
  });
  private readonly messages = new Map<string, { el: HTMLElement; body: HTMLElement; streaming: boolean }>();
  private readonly iterations = new Map<number, HTMLElement>();
  private ctx: ViewContext | undefined;
  private runId: string | undefined;
  /** The run streaming now (from its run-started event until run-finished): the view follows it. */
  private liveRunId: string | undefined;
  /** A pin button for a recorded message (people.ts), when pinning is possible. */
  pinFor: ((messageId: string) => HTMLElement | null) | undefined;

  /** Rebuilds from the record (or clears when there is none), keeping streaming turns of the same run. */
  render(ctx: ViewContext, run: PanelRun | undefined): void {
    this.ctx = ctx;
    // The host's state may still name an older run while the live one has written no record yet: keep streaming.
    if (this.liveRunId && run?.id !== this.liveRunId) return;
    const streaming = run && run.id === this.runId ? [...this.messages.entries()].filter(([, m]) => m.streaming) : [];
    this.messages.clear();
    this.iterations.clear();
    this.runId = run?.id;
    replaceChildren(this.element);
    if (!run || run.iterations.every((it) => it.messages.length === 0)) {
      if (streaming.length === 0)
        this.element.append(muted(run ? 'The discussion starts in a moment…' : 'No run yet. Press Run to let the proxies discuss.'));
    }
    for (const it of run?.iterations ?? []) {
      this.separator(it.index, it.candidates, it.final ?? false, it.feedback);
      for (const m of it.messages) {
        const shown = this.message(it.index, m.speaker, m.turn, m.content, false, undefined, m.id, m.kind ?? 'proxy', m.phase, m.typedBy);
        markMessage(shown.el, m);
      }
    }
    for (const [k, m] of streaming) {
      if (this.messages.has(k)) continue;
      const [iteration] = k.split('|');
      this.iterationBox(Number(iteration)).append(m.el);
      this.messages.set(k, m);
    }
    this.pending(run);
  }

  /**
   * What people said or pinned that the run has not taken in yet (entries waiting in its inbox): a message shows after the
   * discussion as pending, a pin as a note on its message — until the driver takes them in and they become the record's.
   */
  private pending(run: PanelRun | undefined): void {
    const ctx = this.ctx!;
    const entries = run?.pending ?? [];
    if (!run || entries.length === 0) return;
    const note = run.status === 'completed' ? 'taken in if the run goes on (refine)' : 'not taken in by the run yet';
    for (const e of entries) {
      const name = ctx.designerName(e.person);
      if (e.type === 'pin') {
        const target = this.messages.get(`id:${e.message}`);
        if (!target) continue;
        target.el.classList.add('tf-pin-pending');
        target.el
          .querySelector('header')
          ?.append(
            h(
              'span',
              { class: 'tf-muted tf-pending-note', 'data-pending': e.name },
              `${e.remove ? 'unpin' : 'pin'} by ${name} pending · ${note}`,
            ),
          );
        continue;
      }
      const last = run.iterations.at(-1);
      const el = h(
        'article',
        {
          class: 'tf-msg tf-pending',
          'data-speaker': e.person,
          'data-kind': 'pending',
          'data-pending': e.name,
          'aria-label': `${name}, pending`,
        },
        h('header', {}, h('span', { class: 'tf-speaker' }, name), h('span', { class: 'tf-muted' }, `pending · ${note}`)),
        h('div', { class: 'tf-msg-body' }, e.pass ? '(passes: their proxy speaks)' : e.content),
      );
      el.style.setProperty('--tf-speaker', speakerColor(ctx.designerIndex(e.person)));
      (last ? this.iterationBox(last.index) : this.element).append(el);
    }
  }

  onEvent(ev: PanelRunEvent): void {
    if (!this.ctx) return;
    switch (ev.type) {
      case 'run-finished':
        if (ev.runId === this.liveRunId) this.liveRunId = undefined;
        return;
      case 'run-started':
        this.liveRunId = ev.runId;
        if (ev.runId !== this.runId) {
          this.runId = ev.runId;
          this.messages.clear();
          this.iterations.clear();
          replaceChildren(this.element, muted('The discussion starts in a moment…'));
        }
        return;
      case 'iteration-started':
        if (ev.runId !== this.runId) return;
        this.separator(ev.iteration, ev.candidates, ev.final);
        return;
      case 'turn-started':
        if (ev.runId !== this.runId) return;
        this.message(ev.iteration, ev.speaker, ev.turn, '', true, ev.speakerName, undefined, ev.kind ?? 'proxy', ev.phase);
        return;
      case 'turn-delta': {
        if (ev.runId !== this.runId) return;
        const m = this.messages.get(key(ev.iteration, ev.speaker, ev.turn)) ?? this.message(ev.iteration, ev.speaker, ev.turn, '', true);
        m.body.append(document.createTextNode(ev.text));
        this.scrollIfAtEnd();
        return;
      }
      case 'turn-completed': {
        if (ev.runId !== this.runId) return;
        const msg = ev.message;
        // A streamed turn becomes the recorded message (keyed by its id from now on); a person's message arrives whole.
        const streamingKey = key(ev.iteration, msg.speaker, msg.turn);
        const streamed = msg.kind === 'human' ? undefined : this.messages.get(streamingKey);
        if (streamed && msg.id) {
          this.messages.delete(streamingKey);
          this.messages.set(`id:${msg.id}`, streamed);
          streamed.el.dataset.messageId = msg.id;
          const pin = this.pinFor?.(msg.id);
          if (pin) streamed.el.querySelector('header')?.append(pin);
        }
        const m =
          streamed ??
          this.message(ev.iteration, msg.speaker, msg.turn, '', false, undefined, msg.id, msg.kind ?? 'proxy', undefined, msg.typedBy);
        replaceChildren(m.body, ...withNames(this.ctx!, msg.content));
        markMessage(m.el, msg);
        m.streaming = false;
        m.el.classList.remove('tf-streaming');
        return;
      }
      default:
        return;
    }
  }

  private scrollIfAtEnd(): void {
    const scroller = document.scrollingElement;
    if (!scroller) return;
    const nearEnd = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 120;
    if (nearEnd) scroller.scrollTop = scroller.scrollHeight;
  }

  private iterationBox(index: number): HTMLElement {
    return this.iterations.get(index) ?? this.separator(index, [], false);
  }

  private separator(index: number, candidates: string[], final: boolean, feedback?: string): HTMLElement {
    const existing = this.iterations.get(index);
    if (existing) return existing;
    this.element.querySelector(':scope > p.tf-muted')?.remove();
    const ctx = this.ctx!;
    const box = h(
      'div',
      { class: 'tf-iteration', 'data-iteration': String(index) },
      h(
        'div',
        { class: 'tf-iteration-sep', role: 'separator' },
        h('span', {}, final ? `Iteration ${index} · final pick` : `Iteration ${index}`),
        candidates.length ? h('span', { class: 'tf-muted' }, `candidates: ${candidates.map((c) => ctx.labelOf(c)).join(', ')}`) : null,
      ),
      feedback ? h('p', { class: 'tf-feedback' }, h('strong', {}, 'Feedback: '), feedback) : null,
    );
    this.iterations.set(index, box);
    this.element.append(box);
    return box;
  }

  private message(
    iteration: number,
    speaker: string,
    turn: number | null,
    content: string,
    streaming: boolean,
    speakerName?: string,
    id?: string,
    kind?: string,
    phase?: string,
    typedBy?: string,
  ) {
    const k = id ? `id:${id}` : key(iteration, speaker, turn);
    const existing = this.messages.get(k);
    if (existing) return existing;
    const ctx = this.ctx!;
    const guest = ctx.state.review?.guests?.find((g) => g.id === speaker);
    const name = speakerName ?? guest?.name ?? ctx.designerName(speaker);
    // A line typed on someone else's machine for this member (issue 39) is said so, never shown as their own words.
    const person =
      kind === 'human' && typedBy !== undefined
        ? typedWords(typedBy, speaker, (id) => (id === speaker ? name : ctx.designerName(id)))
        : 'in person';
    const when =
      kind === 'human'
        ? turn === null
          ? person
          : `${person} · turn ${turn}`
        : kind === 'guest'
          ? 'called in'
          : turn === null
            ? 'asked to speak'
            : `turn ${turn}`;
    const body = h('div', { class: 'tf-msg-body' }, ...withNames(ctx, content));
    const el = h(
      'article',
      {
        class: streaming ? 'tf-msg tf-streaming' : 'tf-msg',
        'data-speaker': speaker,
        'data-message-id': id,
        'data-kind': kind,
        'aria-label': `${name}, ${when}`,
      },
      h(
        'header',
        {},
        h('span', { class: 'tf-speaker' }, kind === 'guest' ? `${name} (guest)` : kind === 'human' ? name : `${name}'s proxy`),
        // An independent or separate turn was written without seeing the others' messages of the round.
        h('span', { class: 'tf-muted' }, phase && phase !== 'together' ? `${when} · ${phase}` : when),
        id && !streaming ? this.pinFor?.(id) : null,
      ),
      body,
    );
    el.style.setProperty('--tf-speaker', speakerColor(ctx.designerIndex(speaker)));
    if (id && ctx.state.run?.pins?.some((p) => p.message === id)) el.classList.add('tf-pinned');
    this.iterationBox(iteration).append(el);
    const entry = { el, body, streaming };
    this.messages.set(k, entry);
    return entry;
  }
}

/**
 * A message the engine cut off at its length limit, or one citing an image, id or member its round did not show: said in
 * words under its header (text nodes only), never by colour alone.
 */
function markMessage(el: HTMLElement, m: { cut?: true; ungrounded?: string[] }): void {
  el.querySelectorAll(':scope > .tf-msg-mark').forEach((x) => x.remove());
  if (m.cut) el.append(h('p', { class: 'tf-msg-mark tf-msg-cut', role: 'note' }, "Cut off: the model's length limit ended this answer."));
  if (m.ungrounded?.length) {
    el.append(
      h('p', { class: 'tf-msg-mark tf-msg-ungrounded', role: 'note' }, `Cites what this round did not show: ${m.ungrounded.join(', ')}.`),
    );
  }
}

/**
 * A message's text with each remix the members named by the label they saw ("Image 10") shown by its one label ("remix
 * r1d"), the words as written in its title. Text nodes and spans only: the message stays inert.
 */
function withNames(ctx: ViewContext, content: string): (string | HTMLElement)[] {
  return namedPieces(content, ctx.names.discussionNames).map((p) =>
    typeof p === 'string' ? p : h('span', { class: 'tf-name', title: `Written as ${p.written}` }, p.name),
  );
}
