/** evaluation.md: the study's table for many reviews, in sentences and tables, beside the published reference values. */
import type { Evaluation } from './evaluate';
import { CHART_FILES } from '../charts';
import { f2 } from '../format';
import { escapeMarkdown } from '../../files/markdown';
import { REFERENCE } from './reference';
import { AGREEMENT_BANDS } from '../../stats/agreement/kendallW';
import { bandWords } from '../../stats/summary/sentence';
import { mixWords } from '../../analysis/evaluationMix';
import { conditionsSentences } from './baseline';
import { scriptedSentences } from '../checks/scripted';
import { briefMeasureRows, briefRunTable, briefSentences } from './briefEvaluation';
import { acceptanceRows, acrossRunsSentences, bandRows, groupRows, groupSentence, markdownTable } from './acrossRunsText';

/** evaluation.md's section of measures across runs: Fig. 3 and Fig. 4 as text bars, coverage, grounding, forks, groups. */
function acrossRunsSection(e: Evaluation): string[] {
  const lines = [
    '## Across runs',
    '',
    "Re-ranked runs by the agreement band of W before and after (the paper's Fig. 3):",
    '',
    ...markdownTable(bandRows(e.wBands), cell),
    '',
  ];
  lines.push(
    "A generated option in the blind top 1 / top 2, by team size (the paper's Fig. 4):",
    '',
    ...markdownTable(acceptanceRows(e.overall.acceptanceByTeamSize), cell),
    '',
  );
  lines.push(...acrossRunsSentences(e.overall).flatMap((x) => [cell(x), '']));
  if (e.groups && e.by)
    lines.push(cell(groupSentence(e.by, e.groups.length)), '', ...(e.groups.length ? markdownTable(groupRows(e.groups), cell) : []), '');
  return lines;
}

function pct(x: number | null): string {
  return x === null ? '—' : `${Math.round(x * 100)}%`;
}

function usd(x: number | null): string {
  return x === null ? '—' : `$${x.toFixed(2)}`;
}

/** Markdown table cell: file-controlled text escaped by the one Markdown escape (no pipes, line breaks, HTML or links). */
const cell = escapeMarkdown;

function hours(h: number | null): string {
  return h === null ? '—' : h < 48 ? `${h.toFixed(1)} h` : `${(h / 24).toFixed(1)} days`;
}

export function evaluationMarkdown(e: Evaluation): string {
  const o = e.overall;
  const lines: string[] = [];
  lines.push('# Did it help? — evaluation', '');
  lines.push(
    `${o.reviews} review${o.reviews === 1 ? '' : 's'}, ${o.runs} run${o.runs === 1 ? '' : 's'} with ${o.remixes} remix${o.remixes === 1 ? '' : 'es'}, ${o.rerankedRuns} re-ranked blind.` +
      (e.skipped.length ? ` ${e.skipped.length} item${e.skipped.length === 1 ? ' was' : 's were'} skipped (see the end).` : ''),
    '',
    ...scriptedSentences(e.scripted).flatMap((x) => [cell(x), '']),
  );
  lines.push('| measure | these reviews | the study |', '|---|---|---|');
  lines.push(`| Mean W before (all reviews) | ${f2(o.meanW)} | ${REFERENCE.wBefore} |`);
  lines.push(`| Reviews whose agreement is not significant (p ≥ 0.05) | ${pct(o.notSignificantShare)} | |`);
  lines.push(
    `| Mean W before → after (re-ranked runs) | ${f2(o.meanWBefore)} → ${f2(o.meanWAfter)} | ${REFERENCE.wBefore} → ${REFERENCE.wAfter} |`,
  );
  lines.push(`| Mean paired change in mean Spearman | ${f2(o.meanChange)} | |`);
  lines.push(
    `| Verdicts (converged / diverged / no evidence) | ${o.verdicts.converged} / ${o.verdicts.diverged} / ${o.verdicts['no evidence']} | |`,
  );
  lines.push(`| A generated option is the blind top 1 | ${pct(o.top1Rate)} | about ${pct(REFERENCE.top1Rate)} |`);
  lines.push(`| … within the blind top 2 | ${pct(o.top2Rate)} | ${pct(REFERENCE.top2Rate)} |`);
  lines.push(
    `| Proxy ratings: mean / SD / share 4–5 (n) | ${f2(o.ratingsMean)} / ${f2(o.ratingsSd)} / ${pct(o.ratingsPositiveShare)} (${o.ratingsN}) | ${REFERENCE.ratingsMean} |`,
  );
  lines.push(`| Lowest designer mean rating | ${f2(o.lowestDesignerMean)} | |`);
  lines.push(
    `| Survey: representative / clarity / satisfied (n) | ${f2(o.survey.representative)} / ${f2(o.survey.clarity)} / ${f2(o.survey.satisfied)} (${o.survey.n}) | ${REFERENCE.survey.representative} / ${REFERENCE.survey.clarity} / ${REFERENCE.survey.satisfied} |`,
  );
  lines.push(`| Total cost / cost per remixed image | ${usd(o.totalCostUsd)} / ${usd(o.costPerRemixUsd)} | |`);
  lines.push(`| Median time to re-rankings / to Commit Run | ${hours(o.medianHoursToRerank)} / ${hours(o.medianHoursToCommit)} | |`);
  lines.push(...briefMeasureRows(o.brief), '');
  lines.push(...briefSentences(o.brief).flatMap((x) => [cell(x), '']));
  if (o.timeToDecisionNote) lines.push(`Time to decision: ${o.timeToDecisionNote}`, '');
  const sizes = Object.entries(o.wByTeamSize);
  if (sizes.length) {
    lines.push(
      'W before by team size: ' +
        sizes.map(([m, v]) => `${m} designers ${f2(v.meanW)} (${v.reviews} review${v.reviews === 1 ? '' : 's'})`).join('; ') +
        '.',
      '',
    );
  }
  lines.push(
    `![Agreement before and after](${CHART_FILES.wBeforeAfter})`,
    '',
    `![Acceptance of generated options](${CHART_FILES.acceptance})`,
    '',
    `![Ratings of proxy commentary](${CHART_FILES.ratings})`,
    '',
  );
  lines.push(
    '## Per review',
    '',
    '| review | designers | options | W | p (perm.) | runs | re-ranked | W after | change [90% interval] | verdict | top 1 | top 2 | ratings |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of e.reviews) {
    const compared = r.runs.filter((x) => x.compare);
    const last = compared[0]?.compare;
    lines.push(
      `| ${cell(r.path)} | ${r.designers} | ${r.options} | ${f2(r.w)} | ${f2(r.pPermutation)} | ${r.runs.length} | ${compared.length} | ${last ? f2(last.after!.w) : '—'} | ` +
        `${last?.paired ? `${f2(last.paired.change)} [${f2(last.paired.interval[0])}, ${f2(last.paired.interval[1])}]` : '—'} | ${last?.paired?.verdict ?? '—'} | ` +
        `${last?.acceptance ? (last.acceptance.top1 ? 'yes' : 'no') : '—'} | ${last?.acceptance ? (last.acceptance.top2 ? 'yes' : 'no') : '—'} | ${last ? f2(last.ratings.mean) : '—'} |`,
    );
  }
  lines.push('', 'When a review has several re-ranked runs, its row shows the newest; evaluation.json has every run.', '');
  lines.push(...acrossRunsSection(e));
  lines.push(
    ...briefRunTable(
      e.reviews.flatMap((r) => r.runs.flatMap((run) => (run.brief ? [{ review: r.path, run: run.id, brief: run.brief }] : []))),
      cell,
    ),
  );
  if (o.brief.runs) lines.push(`![Brief runs: blind choices and coverage](${CHART_FILES.brief})`, '');
  const modes = Object.entries(o.categoryMixByMode);
  if (modes.length) {
    lines.push(
      '## What happened in the discussions (Bales IPA)',
      '',
      'Share of each category over the coded messages (`code-discussion`), per discussion mode and per review.',
      '',
    );
    lines.push('| mode | coded runs | messages | category mix |', '|---|---|---|---|');
    for (const [mode, m] of modes) lines.push(`| ${cell(mode)} | ${m.runs} | ${m.messages} | ${cell(mixWords(m.mix))} |`);
    lines.push('', '| review | coded runs | category mix |', '|---|---|---|');
    for (const r of e.reviews)
      if (r.categoryMix) lines.push(`| ${cell(r.path)} | ${r.runs.filter((x) => x.bales).length} | ${cell(mixWords(r.categoryMix))} |`);
    lines.push('');
  }
  lines.push(
    '## TeamFusion against the usual way',
    '',
    ...conditionsSentences(e.conditions).map(cell),
    '',
    `![Paired differences](${CHART_FILES.conditions})`,
    '',
  );
  if (e.skipped.length) {
    lines.push('## Skipped', '');
    for (const s of e.skipped) lines.push(`- ${cell(s.path)}: ${cell(s.reason)}`);
    lines.push('');
  }
  lines.push(
    '## How to read it',
    '',
    "- **W** is Kendall's coefficient of concordance (0 = no agreement, 1 = everyone ranks the same); its chance level is about 1/designers, so compare W only across equal team sizes.",
    "- **Mean Spearman** = (m·W − 1)/(m − 1) is the average correlation between two designers' rankings: 0 under pure chance for any team size and number of options.",
    '- **Change** is mean Spearman after − before, only over the designers who ranked both times; its 90% interval covers chance (and, from 5 designers on, the choice of designers), and the verdict is "converged" only when the whole interval is above 0 (random rankings say "converged" in at most 5% of cases).',
    '- **Top 1 / top 2**: a generated option is first / within the first two in the Borda ranking of the blind re-rankings (ties share a position).',
    '- **Ratings**: designers rated their own proxy\'s messages, "this is what I would have said", 1 = not at all, 5 = exactly; share 4–5 is the positive share.',
    `- **Agreement bands** of W: ${AGREEMENT_BANDS.map((b, i) => `${bandWords(b.band)} ${b.from.toFixed(1)}–${AGREEMENT_BANDS[i + 1]?.from.toFixed(1) ?? '1'}`).join(', ')} (a band holds its lower end, not its upper one).`,
    '- **Groups** (`--by`): every measure over the runs of each group with its n; means with a 95% interval over runs, and a group of fewer than 5 runs is marked "too few runs".',
    '- **Cost per remixed image** = the image-edit cost recorded in run.json ÷ the number of remixes; unknown costs are shown as —, never 0.',
    "- **Brief runs**: each member chose blind between TeamFusion's revised brief and the direct revision (A/B, `rerank`); the sign test is two-sided and exact over the choices that were not ties, pooled over the brief runs; coverage counts every member's points of each run's last round.",
    '',
  );
  return lines.join('\n');
}
