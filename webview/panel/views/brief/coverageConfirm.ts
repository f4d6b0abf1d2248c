/**
 * A member's check of the coverage of their own points (issue 32, item 2), below the survey of a completed brief run:
 * for each of their points in the last revised brief's coverage, whether the agent's status is right, and when it is
 * not, the status they see and an optional comment. Saved as runs/<id>/coverage/<designer-id>.yaml through the host,
 * which validates it as `teamfusion compare` reads it. Every text is set as text.
 */
import { h, muted, section } from '../../dom';
import type { ViewContext } from '../../context';
import type { CoverageEntry } from '../../../../src/protocol/brief';
import type { PanelFeedback, SaveFeedbackReply } from '../../../../src/protocol/panel';

type Status = CoverageEntry['status'];
interface Draft {
  agree?: boolean;
  status?: Status;
  comment?: string;
}
interface ValueElement extends HTMLElement {
  value: string;
}

const STATUS_WORDS: Record<Status, string> = { kept: 'kept', changed: 'changed', 'left-out': 'left out' };

export class CoverageConfirm {
  private drafts = new Map<string, Draft>();
  private key = '';
  private readonly status = h('p', { class: 'tf-muted', 'aria-live': 'polite', id: 'tf-coverage-status' });

  /** The section for `me`, or null when the run shown is not a brief run or `me` has no point in its last revised brief. */
  render(
    ctx: ViewContext,
    me: string,
    fb: PanelFeedback | undefined,
    inWords: (reply: Promise<SaveFeedbackReply>) => Promise<string>,
  ): HTMLElement | null {
    const run = ctx.state.run;
    const brief = ctx.state.brief;
    if (!run || !brief || brief.runId !== run.id) return null;
    const last = brief.rounds[brief.rounds.length - 1];
    const mine = (last?.coverage ?? []).filter((c) => c.designer === me);
    if (mine.length === 0) return null;
    const saved = fb?.coverage?.[me] ?? [];
    const key = `${run.id}|${me}|${JSON.stringify(saved)}`;
    if (key !== this.key) {
      this.key = key;
      this.drafts = new Map(
        saved.map((s) => [
          s.point,
          { agree: s.agree, ...(s.status ? { status: s.status } : {}), ...(s.comment ? { comment: s.comment } : {}) },
        ]),
      );
    }
    const rows = mine.map((c, i) => this.row(ctx, c, i));
    const button = h(
      'vscode-button',
      {
        id: 'tf-coverage-save',
        disabled: !ctx.state.trusted,
        onclick: () => {
          const points = mine.flatMap((c) => {
            const d = this.drafts.get(c.point);
            if (d?.agree === undefined) return [];
            return [
              {
                point: c.point,
                agree: d.agree,
                ...(!d.agree && d.status && d.status !== c.status ? { status: d.status } : {}),
                ...(d.comment?.trim() ? { comment: d.comment } : {}),
              },
            ];
          });
          this.status.textContent = 'Saving…';
          void inWords(ctx.host.request('saveCoverage', { runId: run.id, designer: me, points })).then(
            (words) => (this.status.textContent = words),
          );
        },
      },
      'Save my check',
    );
    return section(
      'tf-coverage-confirm',
      'Your points in the revised brief',
      muted(
        `As ${ctx.designerName(me)}: is the agent right about what became of each of your points? Leave a point unanswered to skip it.`,
      ),
      h('div', { class: 'tf-cov-confirm-rows' }, ...rows),
      h('div', { class: 'tf-actions' }, button),
      this.status,
    );
  }

  private row(ctx: ViewContext, c: CoverageEntry, i: number): HTMLElement {
    const d = this.drafts.get(c.point) ?? {};
    const answer = h('vscode-single-select', {
      id: `tf-cov-agree-${i}`,
      'aria-label': `Is "${c.point}" ${STATUS_WORDS[c.status]}?`,
      disabled: !ctx.state.trusted,
    }) as ValueElement;
    for (const [value, words] of [
      ['', 'Not answered'],
      ['yes', `Yes, ${STATUS_WORDS[c.status]}`],
      ['no', 'No'],
    ] as const) {
      answer.append(h('vscode-option', { value, selected: (d.agree === undefined ? '' : d.agree ? 'yes' : 'no') === value }, words));
    }
    const correction = h('vscode-single-select', {
      id: `tf-cov-status-${i}`,
      'aria-label': `What became of "${c.point}"`,
      disabled: !ctx.state.trusted || d.agree !== false,
    }) as ValueElement;
    correction.append(h('vscode-option', { value: '', selected: !d.status }, 'What I see…'));
    for (const s of ['kept', 'changed', 'left-out'] as const)
      if (s !== c.status) correction.append(h('vscode-option', { value: s, selected: d.status === s }, STATUS_WORDS[s]));
    const comment = h('vscode-textfield', {
      id: `tf-cov-comment-${i}`,
      placeholder: 'Optional comment',
      'aria-label': `Comment on "${c.point}"`,
      disabled: !ctx.state.trusted,
    }) as ValueElement;
    comment.value = d.comment ?? '';
    const update = (): void => {
      const agree = answer.value === '' ? undefined : answer.value === 'yes';
      const status = correction.value === '' ? undefined : (correction.value as Status);
      this.drafts.set(c.point, {
        ...(agree !== undefined ? { agree } : {}),
        ...(status && agree === false ? { status } : {}),
        ...(comment.value ? { comment: comment.value } : {}),
      });
      correction.toggleAttribute('disabled', !ctx.state.trusted || agree !== false);
    };
    answer.addEventListener('change', update);
    correction.addEventListener('change', update);
    comment.addEventListener('input', update);
    return h(
      'div',
      { class: 'tf-cov-confirm', 'data-point': String(i) },
      h('p', {}, h('strong', {}, c.point), ' — the agent says ', h('span', { class: `tf-cov tf-cov-${c.status}` }, STATUS_WORDS[c.status])),
      h('div', { class: 'tf-cov-confirm-controls' }, answer, correction, comment),
    );
  }
}
