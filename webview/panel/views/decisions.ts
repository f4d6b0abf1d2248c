/**
 * How the Run tab's "Agreements and decisions" speaks of decision points (issues 10 and 33): who holds which position is
 * not named beside a point its round forked until that fork is decided (the vote on it is blind: the Forks section shows
 * the holders to a member once they have voted), and a settled point reads as later prompts read it ("Decided by the
 * team: … → cold palette, 3 to 1."), naming the lead when the lead or their proxy settled it.
 */
import { decisionSentence } from '../../../src/protocol/shared';
import type { PanelRun } from '../../../src/protocol/panel';

type Iteration = PanelRun['iterations'][number];
type Decision = NonNullable<Iteration['decisions']>[number];
type DecisionPoint = NonNullable<Iteration['decisionPoints']>[number];

/** Whether the holders of `point` (a decision point of `it`) may be named: not while it is a fork still to be voted on. */
export function holdersShown(it: Pick<Iteration, 'remixes' | 'decisions'>, point: Pick<DecisionPoint, 'question'>): boolean {
  const forked = (it.remixes ?? []).some((m) => m.fork?.question === point.question);
  return !forked || (it.decisions ?? []).some((d) => d.question === point.question);
}

/** "Decided by the team: Warm or cold palette? → cold palette, 3 to 1." / "Decided by the lead: … → serif. (Ana Ruiz's proxy: reason)" */
export function decisionLine(d: Decision, nameOf: (id: string) => string): string {
  const who = d.by === 'team' ? '' : `${nameOf(d.by)}${d.via === 'proxy' ? "'s proxy" : ''}`;
  const after = [who, d.reason].filter(Boolean).join(': ');
  return after ? `${decisionSentence(d)} (${after})` : decisionSentence(d);
}
