/**
 * "Did it help?" beside the team's usual way (issue 19): this TeamFusion review's team and its usual-way review(s) in the
 * same parent folder, paired as `evaluate` pairs them — survey means Q1–Q3, decision time and the workflow each person
 * would choose, side by side with the paired difference and the study's values. A table of text (theme colours from the
 * shared table style, so it reads in dark, light and high-contrast themes); nothing is told by colour alone.
 */
import { h, muted } from '../../dom';
import type { PanelSideBySide } from '../../../../src/protocol/panel';

const n2 = (x: number | null): string => (x === null ? '—' : x.toFixed(2));
const signed = (x: number | null, digits = 2): string => (x === null ? '—' : `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(digits)}`);
const minutes = (x: number | null): string => (x === null ? '—' : `${x.toFixed(1)} min`);

function diff(d: { diff: number | null; low: number | null; high: number | null }, digits = 2): string {
  if (d.diff === null) return '—';
  return d.low !== null && d.high !== null
    ? `${signed(d.diff, digits)} [${signed(d.low, digits)}, ${signed(d.high, digits)}]`
    : signed(d.diff, digits);
}

function row(label: string, title: string, ...cells: string[]): HTMLElement {
  return h('tr', { title }, h('th', { scope: 'row' }, label), ...cells.map((c) => h('td', {}, c)));
}

export function conditionsView(sb: PanelSideBySide): HTMLElement {
  const c = sb.conditions;
  const tf = c.teamfusion;
  const us = c.usual;
  const ref = c.reference;
  const w = c.workflow;
  const table = h(
    'table',
    { class: 'tf-eval-table tf-conditions-table', 'aria-label': 'TeamFusion beside the usual way, for this team' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, ''),
        h('th', { scope: 'col' }, 'TeamFusion'),
        h('th', { scope: 'col' }, 'Usual way'),
        h('th', { scope: 'col' }, 'Difference (TeamFusion − usual)'),
        h('th', { scope: 'col' }, 'Study (TeamFusion)'),
      ),
    ),
    h(
      'tbody',
      {},
      row('Reviews', 'Reviews of this team in each condition', String(tf.reviews), String(us.reviews), '', ''),
      row(
        'Q1 Representative',
        '"The final output reflects my key preferences and reasoning", mean 1–5',
        n2(tf.survey.representative),
        n2(us.survey.representative),
        diff(c.paired.representative),
        String(ref.survey.representative),
      ),
      row(
        'Q2 Clarity',
        '"It was clear what the main agreements, disagreements and trade-offs were, and why", mean 1–5',
        n2(tf.survey.clarity),
        n2(us.survey.clarity),
        diff(c.paired.clarity),
        String(ref.survey.clarity),
      ),
      row(
        'Q3 Satisfied',
        '"I am satisfied with the design decision our team reached", mean 1–5',
        n2(tf.survey.satisfied),
        n2(us.survey.satisfied),
        diff(c.paired.satisfied),
        String(ref.survey.satisfied),
      ),
      row('Survey answers', 'People who answered the survey in each condition', `n = ${tf.survey.n}`, `n = ${us.survey.n}`, '', ''),
      row(
        'Decision time',
        'TeamFusion: run start → Commit Run; usual way: decidedAt − startedAt (decision.yaml)',
        minutes(tf.decisionMinutes),
        minutes(us.decisionMinutes),
        c.paired.decisionMinutes.diff === null ? '—' : `${diff(c.paired.decisionMinutes, 1)} min`,
        `${ref.decisionMinutes.teamfusion.toFixed(1)} min (usual ${ref.decisionMinutes.usual.toFixed(1)} min)`,
      ),
      row(
        'Would choose for similar tasks',
        'One vote a person (workflow: in the survey), exact two-sided sign test',
        `${w.teamfusion} ${w.teamfusion === 1 ? 'person' : 'people'}`,
        `${w.usual} ${w.usual === 1 ? 'person' : 'people'}`,
        w.signTestP === null ? 'no answers yet' : `sign test p = ${w.signTestP.toFixed(3)}`,
        '',
      ),
    ),
  );
  const notes: string[] = [];
  if (c.paired.teams > 0 && c.paired.representative.low === null)
    notes.push('One team is paired, so the differences have no interval (an interval needs two teams or more).');
  if (w.conflicting)
    notes.push(
      `${w.conflicting} ${w.conflicting === 1 ? 'person gave' : 'people gave'} both workflow answers and ${w.conflicting === 1 ? 'is' : 'are'} left out.`,
    );
  return h(
    'div',
    { id: 'tf-conditions', class: 'tf-conditions' },
    h('h3', {}, 'TeamFusion beside the usual way'),
    muted(
      `This team (${sb.team.join(', ')}) in ${sb.folder}/: ${c.teams
        .filter((t) => t.paired)
        .flatMap((t) => t.teamfusion)
        .join(', ')} with TeamFusion; ${c.teams
        .filter((t) => t.paired)
        .flatMap((t) => t.usual)
        .join(', ')} the usual way. Paired as teamfusion evaluate pairs them.`,
    ),
    table,
    ...notes.map((t) => h('p', { class: 'tf-muted' }, t)),
  );
}
