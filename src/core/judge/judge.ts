/**
 * `judge` (issue 17, item 5): a model compares a completed brief run's final revised brief with its direct baseline on four
 * dimensions, each asked twice with the order swapped (TeamFusion's shown as A, then the direct one as A); a side wins a
 * dimension only when both orders prefer it, so a verdict that flips with the order is a tie. Strict JSON answers, checked
 * with zod and repaired like the remix agent's; the cost is kept; the verdicts go to runs/<id>/judge.json, reused unless
 * forced. Nothing is sent for a run that is not a completed brief run, or when an input cannot be read.
 */
import * as path from 'node:path';
import type { ChatBackend } from '../llm/backend';
import { estimateCost, type PriceTable } from '../llm/pricing';
import { formatDiagnostic } from '../diagnostics/diagnostics';
import { loadReview, reviewAuthorship } from '../review/loadReview';
import { remakeRefusal } from '../authorship/words';
import { taskOf, type RunRecord } from '../record/record';
import { addUsage, zeroUsage } from '../kernel/usage';
import { readRunRecord } from '../record/store';
import { reviewRelative } from '../record/paths';
import { finalBriefRel, readRunBrief } from '../rerank/briefRerank';
import { StepError } from '../kernel/errors';
import { askForStructuredAnswer } from '../remix/structuredAnswer';
import { DIMENSION_NAMES, JUDGE_STRUCTURED, judgeMessages, parseJudgeAnswer, type JudgeDimension } from './judgePrompts';
import { JUDGE_CAVEAT, judgePath, readJudgeFile, writeJudgeFile, type JudgeFile, type JudgeOrder, type Side } from './judgeFile';
import { checkWritable } from '../files/reviewWrites';
import { updateUndriven } from '../record/update';
import { withEndpoint } from '../record/endpoints';

/** A side wins only when both orders prefer it; anything else (a flip, a tie in either order) is a tie. */
export function combineOrders(first: Side, second: Side): { verdict: Side; flipped: boolean } {
  if (first === second) return { verdict: first, flipped: false };
  return { verdict: 'tie', flipped: first !== 'tie' && second !== 'tie' };
}

/** What a letter means when `shownAsA` was shown as A. */
export function sideOf(answer: 'A' | 'B' | 'tie', shownAsA: 'teamfusion' | 'direct'): Side {
  if (answer === 'tie') return 'tie';
  const other = shownAsA === 'teamfusion' ? 'direct' : 'teamfusion';
  return answer === 'A' ? shownAsA : other;
}

/** Why a run cannot be judged, in one sentence; undefined when it can. */
export function unjudgeable(record: RunRecord): string | undefined {
  if (taskOf(record) !== 'brief') {
    return `Run ${record.id} is a design run; the judge compares a brief run's revised brief with its direct baseline, so there is nothing to judge.`;
  }
  if (record.status !== 'completed')
    return `Run ${record.id} is ${record.status}; only a completed brief run can be judged (resume it first).`;
  if (!finalBriefRel(record)) return `Run ${record.id} wrote no revised brief, so there is nothing to judge.`;
  if (!record.baseline)
    return `Run ${record.id} has no direct baseline (baseline.md), so there is nothing to compare its revised brief with.`;
  return undefined;
}

export interface JudgeOptions {
  reviewRoot: string;
  runId: string;
  chat: ChatBackend;
  /** The judge's model; the run's chat model when not given. */
  model?: string;
  force?: boolean;
  prices?: PriceTable;
  signal?: AbortSignal;
  log?: (line: string) => void;
}

export interface JudgeResult {
  judge: JudgeFile;
  /** True when judge.json was there and nothing was sent. */
  reused: boolean;
}

/** Judges a brief run (or reuses its judge.json). Throws a plain sentence (Error / ReviewFileError) before sending anything when it cannot. */
export async function judgeRun(o: JudgeOptions): Promise<JudgeResult> {
  const root = path.resolve(o.reviewRoot);
  const record = await readRunRecord(root, o.runId);
  // judge.json is read (checked as its kind) before anything else is decided: a hostile one is named, never used.
  const existing = o.force ? undefined : await readJudgeFile(root, record.id);
  // --force judges again over the judge.json there: only its maker may (a file remade by another counts for no one).
  const refused = o.force ? await remakeRefusal(await reviewAuthorship(root), judgePath(record.id), 'judges the run again') : undefined;
  if (refused) throw new Error(refused);
  const why = unjudgeable(record);
  if (why) throw new Error(why);
  if (existing) return { judge: existing, reused: true };
  // judge.json must be writable before anything is sent (a link, a folder or a read-only place there: refused now).
  await checkWritable(root, [judgePath(record.id)]);
  const files = { teamfusion: finalBriefRel(record)!, direct: reviewRelative(record.id, record.baseline!.file) };
  const texts = { teamfusion: await readRunBrief(root, record, files.teamfusion), direct: await readRunBrief(root, record, files.direct) };
  const loaded = await loadReview(root, { requireRankings: false, decodeImages: false });
  if (!loaded.review) {
    const first = loaded.diagnostics.find((d) => d.severity === 'error');
    throw new Error(`The review cannot be read, so nothing was sent${first ? `: ${formatDiagnostic(first)}` : '.'}`);
  }
  const chosen = record.settings.designers;
  const comments = loaded.review.comments.filter((c) => !chosen || chosen.includes(c.designer));
  const model = o.model ?? record.settings.chatModel;

  const usage = zeroUsage();
  let requests = 0;
  const dimensions = {} as Record<JudgeDimension, Side>;
  const orders = {} as Record<JudgeDimension, [JudgeOrder, JudgeOrder]>;
  const flipped: JudgeDimension[] = [];
  for (const dimension of DIMENSION_NAMES) {
    const pair: JudgeOrder[] = [];
    for (const shownAsA of ['teamfusion', 'direct'] as const) {
      const shownAsB = shownAsA === 'teamfusion' ? 'direct' : 'teamfusion';
      const answer = await askForStructuredAnswer({
        chat: o.chat,
        model,
        signal: o.signal,
        base: judgeMessages({ dimension, brief: loaded.review.brief, comments, a: texts[shownAsA], b: texts[shownAsB] }),
        structured: JUDGE_STRUCTURED,
        parse: parseJudgeAnswer,
        onAttempt: (a) => {
          requests++;
          addUsage(usage, a.answer.usage);
        },
        onRepair: (problem, attempt, of) =>
          o.log?.(`The judge's answer on ${dimension} was not usable (${problem}); asking it to repair (${attempt} of ${of}).`),
        giveUp: (problem, attempts) =>
          new StepError(
            `The judge gave no usable answer on ${dimension} after ${attempts} attempts (last problem: ${problem}); nothing was written.`,
          ),
      });
      pair.push({ shownAsA, answer: answer.better, prefers: sideOf(answer.better, shownAsA), reason: answer.reason });
    }
    const c = combineOrders(pair[0]!.prefers, pair[1]!.prefers);
    dimensions[dimension] = c.verdict;
    orders[dimension] = [pair[0]!, pair[1]!];
    if (c.flipped) flipped.push(dimension);
  }
  const costUsd = o.chat.priced ? estimateCost(usage, { chatModel: model, imageModel: '' }, o.prices) : undefined;
  const judge: JudgeFile = {
    runId: record.id,
    model,
    at: new Date().toISOString(),
    dimensions,
    orders,
    flipped,
    files,
    requests,
    usage: { inputTokens: usage.inputTokens, cachedInputTokens: usage.cachedInputTokens, outputTokens: usage.outputTokens },
    ...(costUsd !== undefined ? { costUsd } : {}),
    caveat: JUDGE_CAVEAT,
    ...(o.chat.scripted ? { scripted: true as const } : {}),
  };
  await writeJudgeFile(root, judge);
  // run.json says where the judge's answers came from (endpoints.judge), beside its chat and images.
  await updateUndriven(root, record.id, (now) => withEndpoint(now, 'judge', { host: o.chat.host, scripted: o.chat.scripted }));
  return { judge, reused: false };
}
