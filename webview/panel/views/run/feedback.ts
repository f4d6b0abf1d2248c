/**
 * The designer's own feedback on a run, in the Run tab: rating controls (1–5, "this is what I would have said") next to
 * each message of the chosen designer's own proxy (never a guest's or another designer's), and the live study's three
 * questions. The designer is the member at the panel ("I am", chosen once at the top of the panel). Saving goes through the host,
 * which validates with the same rules as `teamfusion compare`.
 */
import { h, muted, replaceChildren, section } from '../../dom';
import type { ViewContext } from '../../context';
import type { PanelFeedback, SaveFeedbackReply } from '../../../../src/protocol/panel';
import {
  RATING_WORDING,
  SURVEY_QUESTIONS,
  SURVEY_WORDING,
  type SurveyQuestion,
  errorMessage,
  ownFidelitySentence,
} from '../../../../src/protocol/shared';
import { CoverageConfirm } from '../brief/coverageConfirm';

interface ValueElement extends HTMLElement {
  value: string;
}

/** A row of five toggle buttons 1–5; `onPick` gets the score. */
function scale(
  label: string,
  current: number | undefined,
  enabled: boolean,
  onPick: (score: number) => void,
  idPrefix: string,
): HTMLElement {
  const group = h('div', { class: 'tf-scale', role: 'group', 'aria-label': label });
  for (let s = 1; s <= 5; s++) {
    group.append(
      h(
        'button',
        {
          type: 'button',
          class: s === current ? 'tf-scale-btn tf-scale-on' : 'tf-scale-btn',
          id: `${idPrefix}-${s}`,
          'aria-pressed': s === current ? 'true' : 'false',
          disabled: !enabled,
          title: `${s} of 5`,
          onclick: () => onPick(s),
        },
        String(s),
      ),
    );
  }
  return group;
}

export class FeedbackPanel {
  /** What to rate and the save status, above the discussion. */
  readonly pickerBox = h('div', { class: 'tf-rate-as', id: 'tf-rate-as' });
  /** The three questions, after the run's results. */
  readonly surveyBox = h('div', { class: 'tf-survey-box' });
  private status = h('p', { class: 'tf-muted', 'aria-live': 'polite', id: 'tf-feedback-status' });
  private surveyDraft: Partial<Record<SurveyQuestion, number>> & { comment?: string } = {};
  private surveyKey = '';
  private readonly coverage = new CoverageConfirm();

  render(ctx: ViewContext, discussion: HTMLElement): void {
    const run = ctx.state.run;
    if (!run || run.status === 'running' || ctx.state.running || ctx.members.length === 0) {
      replaceChildren(this.pickerBox);
      replaceChildren(this.surveyBox);
      return;
    }
    // The member at the panel ("I am", chosen once at the top): the one whose proxy's messages they rate.
    const me = ctx.me;
    const fb = ctx.state.feedback?.runId === run.id ? ctx.state.feedback : undefined;
    replaceChildren(
      this.pickerBox,
      muted(
        me
          ? `As ${ctx.designerName(me)}, next to each message of your proxy: ${RATING_WORDING}`
          : 'Choose who you are (I am, at the top) to rate your own proxy’s messages and answer three questions about this run.',
      ),
      ...this.fidelity(ctx, me),
      this.status,
      ...(fb?.problems ?? []).map((p) => h('p', { class: 'tf-error-text' }, p)),
    );
    this.decorate(ctx, discussion, me, fb);
    this.renderSurvey(ctx, me, fb);
  }

  /**
   * The chosen member's proxy fidelity: the host sends a row only once that member's own blind answer is saved — their
   * re-ranking (design run, "Did it help?") or their preference between the two briefs (brief run, the brief's state).
   */
  private fidelity(ctx: ViewContext, me: string | undefined): HTMLElement[] {
    const runId = ctx.state.run?.id;
    if (!me || !runId) return [];
    const e = ctx.state.evaluation;
    const b = ctx.state.brief;
    const row = (e?.runId === runId ? e.fidelity?.[me] : undefined) ?? (b?.runId === runId ? b.fidelity?.[me] : undefined);
    return row ? [muted(ownFidelitySentence(row))] : [];
  }

  /** Adds the 1–5 controls to the chosen designer's own proxy messages (and removes stale ones). */
  private decorate(ctx: ViewContext, discussion: HTMLElement, me: string | undefined, fb: PanelFeedback | undefined): void {
    for (const old of discussion.querySelectorAll('.tf-rating')) old.remove();
    if (!me) return;
    const run = ctx.state.run!;
    const mine = fb?.ratings[me] ?? {};
    for (const article of discussion.querySelectorAll<HTMLElement>('article.tf-msg')) {
      const id = article.dataset.messageId;
      if (!id || article.dataset.kind !== 'proxy' || article.dataset.speaker !== me) continue;
      const box = h(
        'div',
        { class: 'tf-rating', 'data-message-id': id },
        h('span', { class: 'tf-muted' }, 'What I would have said? '),
        scale(
          `Rate message ${id}: ${RATING_WORDING}`,
          mine[id]?.score,
          ctx.state.trusted,
          (score) => void this.saveRating(ctx, run.id, me, id, score),
          `tf-rate-${id}`,
        ),
      );
      article.append(box);
    }
  }

  private async saveRating(ctx: ViewContext, runId: string, me: string, messageId: string, score: number): Promise<void> {
    const current = ctx.state.feedback?.runId === runId ? (ctx.state.feedback.ratings[me] ?? {}) : {};
    const merged = { ...current, [messageId]: { ...current[messageId], score } };
    const ratings = Object.entries(merged).map(([message, r]) => ({
      message,
      score: r.score,
      ...(r.comment ? { comment: r.comment } : {}),
    }));
    this.status.textContent = 'Saving…';
    this.status.textContent = await saved(ctx.host.request('saveRatings', { runId, designer: me, ratings }));
  }

  private renderSurvey(ctx: ViewContext, me: string | undefined, fb: PanelFeedback | undefined): void {
    const run = ctx.state.run!;
    if (!me || run.status !== 'completed') {
      replaceChildren(this.surveyBox);
      return;
    }
    const key = `${run.id}|${me}|${JSON.stringify(fb?.survey[me] ?? {})}`;
    if (key !== this.surveyKey) {
      this.surveyKey = key;
      this.surveyDraft = { ...(fb?.survey[me] ?? {}) };
    }
    const rows = SURVEY_QUESTIONS.map((q) =>
      h(
        'div',
        { class: 'tf-survey-q', 'data-question': q },
        h('p', {}, h('strong', {}, `${q[0]!.toUpperCase()}${q.slice(1)}: `), SURVEY_WORDING[q]),
        scale(
          `${q}: 1 = strongly disagree, 5 = strongly agree`,
          this.surveyDraft[q],
          ctx.state.trusted,
          (s) => {
            this.surveyDraft[q] = s;
            this.renderSurvey(ctx, me, fb);
          },
          `tf-survey-${q}`,
        ),
      ),
    );
    const comment = h('vscode-textarea', {
      id: 'tf-survey-comment',
      rows: 2,
      resize: 'vertical',
      placeholder: 'Optional: anything else about this run?',
      'aria-label': 'Survey comment',
    }) as ValueElement;
    comment.value = this.surveyDraft.comment ?? '';
    comment.addEventListener('input', () => (this.surveyDraft.comment = comment.value));
    const save = h(
      'vscode-button',
      {
        id: 'tf-survey-save',
        disabled: !ctx.state.trusted || SURVEY_QUESTIONS.every((q) => this.surveyDraft[q] === undefined),
        onclick: async () => {
          this.status.textContent = 'Saving…';
          const d = this.surveyDraft;
          this.status.textContent = await saved(
            ctx.host.request('saveSurvey', {
              runId: run.id,
              designer: me,
              ...(d.representative ? { representative: d.representative } : {}),
              ...(d.clarity ? { clarity: d.clarity } : {}),
              ...(d.satisfied ? { satisfied: d.satisfied } : {}),
              ...(d.comment?.trim() ? { comment: d.comment } : {}),
            }),
          );
        },
      },
      'Save answers',
    );
    replaceChildren(
      this.surveyBox,
      section(
        'tf-survey',
        'Your view of this run',
        muted(`As ${ctx.designerName(me)}; 1 = strongly disagree, 5 = strongly agree.`),
        ...rows,
        comment,
        h('div', { class: 'tf-actions' }, save),
      ),
      this.coverage.render(ctx, me, fb, saved),
    );
  }
}

/** What became of a save of ratings or answers, in words: the file written, or why not (no answer is a why not too). */
async function saved(reply: Promise<SaveFeedbackReply>): Promise<string> {
  try {
    const r = await reply;
    return r.ok ? `Saved ${r.file ?? ''}.` : `Not saved: ${r.message ?? ''}`;
  } catch (e) {
    return `Not saved: ${errorMessage(e)}`;
  }
}
