/**
 * How the Run tab's "Agreements and decisions" speaks of decision points (issues 10 and 33): who holds which position is
 * not named beside a point its round forked until that fork is decided (the vote on it is blind: the Forks section shows
 * the holders to a member once they have voted), and a settled point reads as later prompts read it ("Decided by the
 * team: … → cold palette, 3 to 1."), naming the lead when the lead or their proxy settled it.
 */
import { decisionSentence } from '../../../../src/protocol/shared';
import type { PanelRun } from '../../../../src/protocol/panel';
import { decidedForks } from '../../../../src/protocol/nextSteps';
import { h, section } from '../../dom';
import type { ViewContext } from '../../context';
import { standingDecision } from '../../../../src/protocol/shared';

type Iteration = PanelRun['iterations'][number];
type Decision = NonNullable<Iteration['decisions']>[number];
type DecisionPoint = NonNullable<Iteration['decisionPoints']>[number];

/** Whether the holders of `point` (a decision point of `it`) may be named: not while it is a fork still to be voted on (also once reopened). */
export function holdersShown(it: Pick<Iteration, 'remixes' | 'decisions'>, point: Pick<DecisionPoint, 'question'>): boolean {
  const forked = (it.remixes ?? []).some((m) => m.fork?.question === point.question);
  return !forked || standingDecision(it, point.question) !== undefined;
}

/** "Decided by the team: Warm or cold palette? → cold palette, 3 to 1." / "Decided by the lead: … → serif. (Ana Ruiz's proxy: reason)" */
export function decisionLine(d: Decision, nameOf: (id: string) => string, teamSize?: number): string {
  const who = d.by === 'team' ? '' : `${nameOf(d.by)}${d.via === 'proxy' ? "'s proxy" : ''}`;
  const after = [who, d.reason].filter(Boolean).join(': ');
  const sentence = decisionSentence(d, teamSize);
  const line = after ? `${sentence} (${after})` : sentence;
  return d.reopened ? `${line} Reopened by ${nameOf(d.reopened.by)}; kept as history.` : line;
}

/** "Set aside: remix r1a, remix r1c (not the side chosen on "Warm or cold palette?" in round 1)." — one sentence per decision (issue 38). */
export function setAsideLines(it: Pick<Iteration, 'setAside'>, labelOf: (id: string) => string = (id) => id): string[] {
  const by = new Map<string, { question: string; decidedIn: number; ids: string[] }>();
  for (const s of it.setAside ?? []) {
    const key = `${s.decidedIn}\n${s.question}`;
    const g = by.get(key) ?? { question: s.question, decidedIn: s.decidedIn, ids: [] };
    g.ids.push(s.id);
    by.set(key, g);
  }
  return [...by.values()].map(
    (g) => `Set aside: ${g.ids.map(labelOf).join(', ')} (not the side chosen on "${g.question}" in round ${g.decidedIn}).`,
  );
}

/**
 * The Overview's "Decisions" (issue 40): every decision of the run shown, in round order, as later prompts read it, each
 * forked one with the sides it set aside. Null when the run has made none.
 */
export function decisionsOverview(ctx: ViewContext): HTMLElement | null {
  const run = ctx.state.run;
  const made = (run?.iterations ?? []).flatMap((it) => (it.decisions ?? []).map((d) => ({ it: it.index, d })));
  if (!run || made.length === 0) return null;
  const names = { person: (id: string) => ctx.designerName(id), image: (id: string) => ctx.labelOf(id) };
  const forks = decidedForks(ctx.state.forks?.runId === run.id ? ctx.state.forks : undefined, names);
  return section(
    'tf-decisions',
    `Decisions of run ${run.id}`,
    h(
      'ul',
      { class: 'tf-decisions' },
      ...made.map(({ it, d }) => {
        const aside = forks.find((f) => f.iteration === it && f.question === d.question)?.setAside ?? [];
        return h(
          'li',
          { 'data-iteration': String(it) },
          decisionLine(d, names.person, ctx.state.forks?.runId === run.id ? ctx.state.forks.team.length : undefined),
          aside.length ? h('span', { class: 'tf-muted' }, ` Set aside: ${aside.join('; ')}.`) : null,
        );
      }),
    ),
  );
}
