/**
 * A fork of the run (issue 33): its question and its sides side by side (each the remix that takes one position), a toggle
 * to flip between them at full size, and the member's blind vote. Blind: who holds which side, who voted for what and the
 * tally are shown to the member voting only once they have voted (or the point is decided) — `forkSight` says what may be
 * seen. A vote goes to the host (`vote` request → the core's castVote, their own votes file); an untrusted workspace
 * writes nothing (the button is off, and the host refuses too). The lead ("I am") may reopen a recorded decision (`reopen`:
 * the host confirms, then the core's reopenDecision).
 */
import { h, muted, replaceChildren, section } from '../../dom';
import type { ViewContext } from '../../context';
import type { PanelFork, PanelForks } from '../../../../src/protocol/votes';
import { thumb } from '../review/thumb';
import { errorMessage } from '../../../../src/protocol/shared';
import { howDecided } from '../../../../src/protocol/nextSteps';

/** What the member `me` may see of a fork now. */
export interface ForkSight {
  /** The remix id `me` voted for, if they have. */
  mine?: string;
  /** Holders, voters and the tally are shown (they voted, or the point is decided). */
  revealed: boolean;
  /** Per side (in order): who holds it — empty while blind. */
  holders: string[][];
  /** Per side: who voted for it — empty while blind. */
  voters: string[][];
  /** "warm palette 2 · cool palette 1" once revealed and any vote is in. */
  tally?: string;
}

export function forkSight(fork: PanelFork, me: string | undefined): ForkSight {
  const mine = me ? fork.votes[me] : undefined;
  const revealed = mine !== undefined || fork.decision !== undefined;
  const counts = fork.decision?.counts ?? fork.counts;
  const anyVote = Object.values(counts).some((n) => n > 0);
  return {
    ...(mine !== undefined ? { mine } : {}),
    revealed,
    holders: fork.sides.map((s) => (revealed ? s.holders : [])),
    voters: fork.sides.map((s) => (revealed ? Object.keys(fork.votes).filter((d) => fork.votes[d] === s.id) : [])),
    ...(revealed && anyVote ? { tally: fork.sides.map((s) => `${s.position} ${counts[s.position] ?? 0}`).join(' · ') } : {}),
  };
}

/**
 * Who is voting: the member chosen in the panel (kept across reloads) if they are on the run's team; nobody until one
 * is chosen, so the panel shows nobody's view of a blind vote by default and casts no vote in anyone's name.
 */
export function voterOf(forks: Pick<PanelForks, 'team'>, chosen: string | undefined): string | undefined {
  return chosen !== undefined && forks.team.includes(chosen) ? chosen : undefined;
}

/**
 * Whether "Reopen this decision…" is offered on `fork`: its decision is recorded in run.json (not only counted from the
 * votes) and the one at the panel ("I am") is the run's lead. The core refuses anyone else anyway.
 */
export function canReopen(forks: Pick<PanelForks, 'lead'>, fork: Pick<PanelFork, 'decision'>, me: string | undefined): boolean {
  return me !== undefined && forks.lead === me && fork.decision?.recorded === true;
}

/**
 * "Decided: cold palette (by the team's vote, 3 to 1)." / "Decided: warm palette (by Ana Ruiz in person)." — the count only
 * for the team's vote (a lead deciding in person may overrule it); a lead's close says how many of the team (`teamSize`)
 * had voted: "Decided: warm palette (the lead, Ana Ruiz, closed it with 1 of 3 votes)."
 */
export function decidedText(d: NonNullable<PanelFork['decision']>, nameOf: (id: string) => string, teamSize?: number): string {
  return `Decided: ${d.decision} (${howDecided(d, { person: nameOf, image: (id) => id }, teamSize)}).`;
}

/** A side of a decided fork: the one chosen, or set aside; undefined while the fork is open. */
export function sideFate(
  fork: Pick<PanelFork, 'decision'>,
  side: Pick<PanelFork['sides'][number], 'position'>,
): 'chosen' | 'set-aside' | undefined {
  if (!fork.decision) return undefined;
  return side.position === fork.decision.decision ? 'chosen' : 'set-aside';
}

/** The side shown at full size (`undefined`: side by side) after a flip from `current`. */
export function flipped(current: number | undefined, sides: number): number | undefined {
  if (current === undefined) return 0;
  return current + 1 < sides ? current + 1 : undefined;
}

/**
 * A side's body: a brief fork's passage as plain text (never markup: it is the model's writing), else the remix image —
 * a thumbnail side by side, the image itself at full size.
 */
function sideBody(ctx: ViewContext, s: PanelFork['sides'][number], full: boolean): HTMLElement {
  if (s.passage !== undefined)
    return h(
      'div',
      {
        class: full ? 'tf-fork-passage tf-fork-passage-full' : 'tf-fork-passage',
        tabindex: '0',
        role: 'region',
        'aria-label': `Passage ${s.id}: ${s.position}`,
      },
      s.passage,
    );
  if (s.passageError !== undefined) return h('p', { class: 'tf-error-text' }, s.passageError);
  return full
    ? h('img', { class: 'tf-fork-full', src: ctx.imageOf(s.id) ?? '', alt: `${ctx.labelOf(s.id)}: ${s.position}` })
    : thumb(ctx, s.id, 'lg');
}

/**
 * A side's caption: a remix side by its one label and the position it takes ("remix r1d: Image 1 leads"); a brief fork's
 * passage by its side letter ("A: …"), which names no picture.
 */
export function sideCaption(
  ctx: Pick<ViewContext, 'labelOf'>,
  s: Pick<PanelFork['sides'][number], 'id' | 'letter' | 'position' | 'passage' | 'passageError'>,
): string {
  const passage = s.passage !== undefined || s.passageError !== undefined;
  return `${passage ? (s.letter ?? s.id).toUpperCase() : ctx.labelOf(s.id)}: ${s.position}`;
}

export class ForksView {
  readonly element = h('div', { class: 'tf-forks-box' });
  /** Per fork ("iteration/point"): the side at full size, or side by side. */
  private readonly full = new Map<string, number | undefined>();
  private status = '';
  /** Who the status was said to. */
  private voter: string | undefined;

  render(ctx: ViewContext): void {
    const forks = ctx.state.forks;
    if (!forks || forks.runId !== ctx.state.run?.id || forks.forks.length === 0) {
      replaceChildren(this.element);
      return;
    }
    const me = voterOf(forks, ctx.me);
    const open = forks.forks.some((f) => !f.decision);
    if (me !== this.voter) this.status = '';
    this.voter = me;
    replaceChildren(
      this.element,
      section(
        'tf-forks',
        open ? 'Forks: the team decides' : 'Forks: decided',
        open
          ? muted(
              'Each side of a decision point made its own way (a remix, or a passage of the brief). Vote for the one you prefer; who holds which side is shown once you have voted.',
            )
          : muted('Each side of a decision point was made its own way; the team has chosen one side of each.'),
        ctx.me && !me && open ? muted(`${ctx.designerName(ctx.me)} is not on this run's team: only its members vote.`) : null,
        // The forks still to vote on first, then the decided ones.
        ...[...forks.forks]
          .sort((a, b) => Number(Boolean(a.decision)) - Number(Boolean(b.decision)))
          .map((f) => this.forkView(ctx, forks, f, me)),
        forks.problems.length
          ? h('ul', { class: 'tf-vote-problems' }, ...forks.problems.map((p) => h('li', { class: 'tf-error-text' }, p)))
          : null,
        h('p', { class: 'tf-vote-status', role: 'status' }, this.status),
      ),
    );
  }

  private forkView(ctx: ViewContext, forks: PanelForks, f: PanelFork, me: string | undefined): HTMLElement {
    const key = `${f.iteration}/${f.decisionPoint}`;
    const sight = forkSight(f, me);
    const full = this.full.get(key);
    const names = (ids: string[]) => ids.map((id) => ctx.designerName(id)).join(', ');
    const side = (i: number) => {
      const s = f.sides[i]!;
      const fate = sideFate(f, s);
      // A decided fork takes no vote: its sides say which was chosen and which set aside.
      const voteButton = fate
        ? h('p', { class: `tf-fork-fate tf-fork-fate-${fate}` }, fate === 'chosen' ? '✓ Chosen' : 'Set aside')
        : h(
            'vscode-button',
            {
              class: 'tf-vote',
              secondary: sight.mine !== s.id,
              disabled: !ctx.state.trusted || !me,
              title: !ctx.state.trusted
                ? 'This workspace is not trusted, so nothing is written.'
                : !me
                  ? 'Choose who you are first (I am, at the top): each member votes as themselves.'
                  : '',
              onclick: () => void (me && this.vote(ctx, forks.runId, f, s.id, me)),
            },
            sight.mine === s.id ? 'Your vote' : 'Vote for this side',
          );
      return h(
        'figure',
        { class: fate ? `tf-fork-side tf-fork-${fate}` : 'tf-fork-side', 'data-remix': s.id, ...(fate ? { 'data-fate': fate } : {}) },
        sideBody(ctx, s, full === i),
        h('figcaption', {}, h('strong', {}, sideCaption(ctx, s))),
        sight.revealed
          ? h(
              'p',
              { class: 'tf-muted tf-fork-holders' },
              `Held by ${names(sight.holders[i] ?? []) || 'nobody named'}; voted for by ${names(sight.voters[i] ?? []) || 'nobody yet'}`,
            )
          : null,
        voteButton,
      );
    };
    const flip = h(
      'vscode-button',
      { class: 'tf-fork-flip', secondary: true, onclick: () => (this.full.set(key, flipped(full, f.sides.length)), this.render(ctx)) },
      full === undefined
        ? 'Flip through at full size'
        : flipped(full, f.sides.length) === undefined
          ? 'Side by side'
          : 'Flip to the next side',
    );
    const shown = full === undefined ? f.sides.map((_, i) => i) : [full];
    return h(
      'div',
      { class: 'tf-fork', 'data-fork': key },
      h('div', { class: 'tf-fork-head' }, h('h3', {}, `${f.question} (iteration ${f.iteration})`), flip),
      f.decision
        ? h(
            'p',
            { class: 'tf-fork-decided' },
            decidedText(f.decision, (id) => ctx.designerName(id), forks.team.length),
          )
        : null,
      canReopen(forks, f, ctx.me)
        ? h(
            'vscode-button',
            {
              class: 'tf-fork-reopen',
              secondary: true,
              disabled: !ctx.state.trusted,
              title: ctx.state.trusted
                ? 'Kept in its round as history; the votes are kept and the team may decide again.'
                : 'This workspace is not trusted, so nothing is written.',
              onclick: () =>
                ctx.me &&
                ctx.host.post({ type: 'reopen', runId: forks.runId, as: ctx.me, iteration: f.iteration, decisionPoint: f.decisionPoint }),
            },
            'Reopen this decision…',
          )
        : null,
      h('div', { class: full === undefined ? 'tf-fork-sides' : 'tf-fork-sides tf-fork-one' }, ...shown.map(side)),
      sight.tally
        ? h(
            'p',
            { class: 'tf-fork-tally' },
            `Votes: ${sight.tally}${f.missing.length && !f.decision ? ` (waiting for ${names(f.missing)})` : ''}`,
          )
        : null,
      !sight.revealed
        ? muted(
            `${me ? '' : 'Choose who you are (I am, at the top) to vote. '}Blind until you vote: who holds which side and the votes so far are hidden.`,
          )
        : null,
    );
  }

  private async vote(ctx: ViewContext, runId: string, f: PanelFork, choice: string, me: string): Promise<void> {
    this.status = 'Saving your vote…';
    this.render(ctx);
    try {
      const reply = await ctx.host.request('vote', { runId, as: me, iteration: f.iteration, decisionPoint: f.decisionPoint, choice });
      this.status = reply.message;
    } catch (e) {
      this.status = `Not saved: ${errorMessage(e)}`;
    }
    this.render(ctx);
  }
}
