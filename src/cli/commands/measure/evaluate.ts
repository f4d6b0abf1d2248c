/**
 * `teamfusion evaluate <folder> [--json] [--out <dir>] [--by <what>]`: the study's table for every review below a folder. --out writes
 * evaluation.md, evaluation.json and SVG charts into <dir> (created when missing; inside or outside <folder>, never through
 * a link or into a review's own folders, an existing file replaced only with --force: evaluateOut.ts). Exit 0, 1 when any
 * review or run was
 * skipped (the rest is still evaluated), 2 usage.
 */
import { allCharts } from '../../../core/evaluation/charts';
import { evaluateFolder, type Evaluation } from '../../../core/evaluation/evaluate/evaluate';
import { GROUP_BY, isGroupBy } from '../../../core/evaluation/evaluate/groupBy';
import {
  acceptanceRows,
  acrossRunsSentences,
  bandRows,
  groupRows,
  groupSentence,
  textTable,
} from '../../../core/evaluation/evaluate/acrossRunsText';
import { conditionsSentences } from '../../../core/evaluation/evaluate/baseline';
import { f2 } from '../../../core/evaluation/format';
import { evaluationMarkdown } from '../../../core/evaluation/evaluate/report';
import { briefSentences } from '../../../core/evaluation/evaluate/briefEvaluation';
import { scriptedSentences } from '../../../core/evaluation/checks/scripted';
import { printable } from '../../../core/kernel/text';
import { writeEvaluationOut } from '../../evaluateOut';
import { UsageError, exactPositionals } from '../../usage';
import { safeJson } from '../../output';
import { parseStrict } from '../validate';

export async function runEvaluate(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, {
    json: { type: 'boolean' },
    out: { type: 'string' },
    force: { type: 'boolean' },
    by: { type: 'string' },
  });
  const [folder] = exactPositionals(
    positionals,
    1,
    'give one folder that holds reviews, e.g. teamfusion evaluate samples --out samples/evaluation',
  );
  if (values.out !== undefined && (typeof values.out !== 'string' || values.out.trim() === ''))
    throw new UsageError('--out needs a folder.');
  if (values.force === true && values.out === undefined) throw new UsageError('--force goes with --out.');
  const by = values.by;
  if (by !== undefined && (typeof by !== 'string' || !isGroupBy(by))) throw new UsageError(`--by takes one of ${GROUP_BY.join(', ')}.`);
  const e = await evaluateFolder(folder, {
    onProgress: (rel) => process.stderr.write(`evaluating ${printable(rel)}\n`),
    ...(by ? { by } : {}),
  });
  for (const s of e.skipped) process.stderr.write(`skipped ${printable(s.path)}: ${printable(s.reason)}\n`);
  const json = `${JSON.stringify(e, null, 2)}\n`;
  if (typeof values.out === 'string') {
    await writeEvaluationOut(
      values.out,
      { 'evaluation.md': evaluationMarkdown(e), 'evaluation.json': json, ...allCharts(e) },
      values.force === true,
    );
    // A success line: on stdout, unless stdout is the JSON.
    (values.json === true ? process.stderr : process.stdout).write(
      `Wrote evaluation.md, evaluation.json and ${Object.keys(allCharts(e)).length} charts to ${printable(values.out)}\n`,
    );
  }
  if (values.json === true) process.stdout.write(`${safeJson(e)}\n`);
  else {
    const o = e.overall;
    process.stdout.write(
      `${[
        `${plural(o.reviews, 'review')}: mean W ${f2(o.meanW)}; ${o.notSignificantShare === null ? '—' : Math.round(o.notSignificantShare * 100)}% not significant.`,
        `${plural(o.runs, 'run')}, ${plural(o.remixes, 'remix', 'remixes')}, ${o.rerankedRuns} re-ranked: W ${f2(o.meanWBefore)} → ${f2(o.meanWAfter)}; converged ${o.verdicts.converged}, diverged ${o.verdicts.diverged}, no evidence ${o.verdicts['no evidence']}.`,
        `Generated option top 1: ${o.top1Rate === null ? '—' : `${Math.round(o.top1Rate * 100)}%`}, top 2: ${o.top2Rate === null ? '—' : `${Math.round(o.top2Rate * 100)}%`}; ratings ${f2(o.ratingsMean)} / 5 (n = ${o.ratingsN}).`,
        `Cost ${o.totalCostUsd === null ? '—' : `$${o.totalCostUsd.toFixed(2)}`}; per remixed image ${o.costPerRemixUsd === null ? '—' : `$${o.costPerRemixUsd.toFixed(3)}`}.`,
        ...(o.timeToDecisionNote ? [`Time to decision: ${o.timeToDecisionNote}`] : []),
        ...scriptedSentences(e.scripted).map(printable),
        ...briefSentences(o.brief),
        ...conditionsSentences(e.conditions).map(printable),
        ...acrossRunsLines(e),
      ].join('\n')}\n`,
    );
  }
  return e.skipped.length ? 1 : 0;
}

/** Fig. 3 and Fig. 4 as text bars, coverage, grounding and forks, and with --by the grouped table. */
function acrossRunsLines(e: Evaluation): string[] {
  const lines = ['', 'Re-ranked runs by agreement band of W, before and after:', ...textTable(bandRows(e.wBands), printable)];
  lines.push(
    '',
    'A generated option in the blind top 1 / top 2, by team size:',
    ...textTable(acceptanceRows(e.overall.acceptanceByTeamSize), printable),
  );
  lines.push('', ...acrossRunsSentences(e.overall).map(printable));
  if (e.groups && e.by)
    lines.push('', printable(groupSentence(e.by, e.groups.length)), ...(e.groups.length ? textTable(groupRows(e.groups), printable) : []));
  return lines;
}

/** `1 review`, `2 reviews`. */
function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
