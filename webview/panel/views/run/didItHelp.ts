/**
 * The Run tab's "Did it help?" section, once the run has a blind re-rank set: the team's numbers beside the published
 * study's, and the same sentences `teamfusion compare` prints (with its pools of directions and checklist, issue 41).
 * Everything goes in as text.
 */
import { h, muted, section } from '../../dom';
import type { PanelEvaluation, PanelSideBySide } from '../../../../src/protocol/panel';
import { conditionsView } from './conditions';
import {
  comparisonSentences,
  f2,
  poolCheckSentences,
  verdictFirst,
  SCRIPTED_RUN_SENTENCE,
  REFERENCE,
} from '../../../../src/protocol/shared';

function pct(x: number | null | undefined): string {
  return x === null || x === undefined ? '—' : `${Math.round(x * 100)}%`;
}

function row(label: string, team: string, study: string, title: string): HTMLElement {
  return h('tr', { title }, h('th', { scope: 'row' }, label), h('td', {}, team), h('td', {}, study));
}

/** The section: this run's numbers once it has a re-rank set, and the two conditions side by side when paired. */
export function didItHelpView(e: PanelEvaluation | undefined, sb?: PanelSideBySide): HTMLElement {
  if (!e) return section('tf-did-it-help', 'Did it help?', sb ? conditionsView(sb) : null);
  const a = e.acceptance;
  const table = h(
    'table',
    { class: 'tf-eval-table', 'aria-label': 'This team beside the published study' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, ''),
        h('th', { scope: 'col' }, 'This team'),
        h('th', { scope: 'col' }, 'Published study (reference)'),
      ),
    ),
    h(
      'tbody',
      {},
      row(
        `W before → after (n = ${e.before.designers.length} → ${e.after ? e.after.designers.length : '…'})`,
        `${f2(e.before.w)} → ${e.after ? f2(e.after.w) : '…'}`,
        `${REFERENCE.wBefore} → ${REFERENCE.wAfter}`,
        "Kendall's W of all who ranked, before the run and in the blind re-ranking",
      ),
      row(
        'Paired change',
        e.paired
          ? `${e.paired.change >= 0 ? '+' : ''}${f2(e.paired.change)} [${f2(e.paired.interval[0])}, ${f2(e.paired.interval[1])}] — ${e.paired.verdict}`
          : '…',
        '',
        'Mean Spearman after − before, designers who ranked both times, with a 90% interval',
      ),
      row(
        'Generated option top 1',
        a ? (a.top1 ? 'yes' : 'no') : '…',
        `about ${pct(REFERENCE.top1Rate)} of reviews`,
        'A remix is first in the Borda ranking of the re-rankings',
      ),
      row(
        'Generated option top 2',
        a ? (a.top2 ? 'yes' : 'no') : '…',
        `${pct(REFERENCE.top2Rate)} of reviews`,
        'A remix is within the first two positions',
      ),
      row(
        'Proxy ratings',
        e.ratings.mean === null ? '—' : `${f2(e.ratings.mean)} / 5 (n = ${e.ratings.n})`,
        `${REFERENCE.ratingsMean} / 5`,
        '"This is what I would have said", 1–5',
      ),
      row(
        `Survey, representative · clarity · satisfied (n = ${e.survey.n})`,
        e.survey.n ? `${f2(e.survey.representative)} · ${f2(e.survey.clarity)} · ${f2(e.survey.satisfied)}` : '—',
        `${REFERENCE.survey.representative} · ${REFERENCE.survey.clarity} · ${REFERENCE.survey.satisfied}`,
        'Means of representative · clarity · satisfied, 1–5',
      ),
    ),
  );
  const sentences = h(
    'ul',
    { class: 'tf-eval-sentences' },
    ...[...(e.scripted ? [SCRIPTED_RUN_SENTENCE] : []), ...comparisonSentences(e)].map((s) => h('li', {}, s)),
  );
  // The pools of directions and the final pick's checklist (issue 41), in compare's words.
  const poolLines = poolCheckSentences({ pool: e.pool ?? [], checklist: e.checklist ?? null });
  const pools = poolLines.length
    ? h(
        'ul',
        { class: 'tf-eval-sentences', 'aria-label': 'Pools of directions and the checklist' },
        ...poolLines.map((s) => h('li', {}, s)),
      )
    : null;
  return section(
    'tf-did-it-help',
    'Did it help?',
    h('p', { class: 'tf-eval-verdict' }, verdictFirst(e)),
    muted(`Blind re-rank set: ${e.folder} · ${e.rerankings} re-ranking${e.rerankings === 1 ? '' : 's'}`),
    table,
    sentences,
    pools,
    ...e.problems.map((p) => h('p', { class: 'tf-error-text' }, p)),
    sb ? conditionsView(sb) : null,
  );
}
