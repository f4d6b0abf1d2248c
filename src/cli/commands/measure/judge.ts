/**
 * `teamfusion judge <review> <run-id> [--json] [--force] [--model M]`: a model compares a completed brief run's revised
 * brief with its direct baseline on four dimensions, each asked twice with the order swapped (a flip is a tie), and
 * writes runs/<run-id>/judge.json; an existing one is reused (nothing sent) unless --force. Exit 0 judged or reused, 1
 * refused (not a brief run, not completed, an unreadable file) or failed, 2 usage, 130 cancelled.
 */
import * as path from 'node:path';
import { judgeRun } from '../../../core/judge/judge';
import { JUDGE_DIMENSIONS, DIMENSION_NAMES } from '../../../core/judge/judgePrompts';
import { judgePath, type JudgeFile } from '../../../core/judge/judgeFile';
import { UsageError, exactPositionals } from '../../usage';
import { safeJson, writeLine } from '../../output';
import { parseStrict } from '../validate';
import { SCRIPTED_SERVER, answeredBy } from '../../../core/llm/scripted';
import { exitForRefusal, lazyChatBackend, pricesOrSay, withCtrlC } from '../../modelCommand';

const SIDE_WORDS = { teamfusion: "TeamFusion's revised brief", direct: 'the direct revision', tie: 'tie' } as const;

/** The verdicts in sentences. */
export function judgeLines(j: JudgeFile, reused: boolean): string[] {
  const out = [
    ...(j.scripted ? [`Scripted: these verdicts came from ${SCRIPTED_SERVER}; they show the pipeline, not a judgement.`] : []),
    `The judge (${answeredBy(j.model, j.scripted)}) on run ${j.runId}, each dimension asked twice with the order swapped; a verdict that flips with the order is a tie:`,
  ];
  for (const d of DIMENSION_NAMES) {
    out.push(
      `  ${JUDGE_DIMENSIONS[d].label}: ${SIDE_WORDS[j.dimensions[d]]}${j.flipped.includes(d) ? ' (it flipped with the order)' : ''}`,
    );
  }
  const cost = j.costUsd === undefined ? 'cost unknown (model not in the price table)' : `estimated cost $${j.costUsd.toFixed(4)}`;
  out.push(
    reused
      ? `Reused ${judgePath(j.runId)} (judged ${j.at}; ${j.requests} requests then, ${cost}); nothing sent. --force judges again.`
      : `${j.requests} requests, ${j.usage.inputTokens} input and ${j.usage.outputTokens} output tokens, ${cost}. Written: ${judgePath(j.runId)}`,
  );
  out.push(j.caveat);
  return out;
}

export async function runJudge(args: string[]): Promise<number> {
  const { positionals, values } = parseStrict(args, { json: { type: 'boolean' }, force: { type: 'boolean' }, model: { type: 'string' } });
  const [review, runId] = exactPositionals(
    positionals,
    2,
    'give the review folder and the run id, e.g. teamfusion judge samples/lumen-brief 2026-11-21T22-40-05Z-3f9c',
  );
  if (values.model !== undefined && !/^[\w.:/-]{1,200}$/.test(String(values.model))) throw new UsageError('--model needs a model name.');
  const prices = await pricesOrSay();
  if (prices === false) return 1;
  try {
    const { judge, reused } = await withCtrlC('nothing is written', (signal) =>
      judgeRun({
        reviewRoot: path.resolve(review),
        runId,
        chat: lazyChatBackend(),
        ...(values.model !== undefined ? { model: String(values.model) } : {}),
        force: values.force === true,
        prices,
        signal,
        log: (line) => writeLine(process.stderr, line),
      }),
    );
    if (values.json === true) process.stdout.write(`${safeJson({ ...judge, reused })}\n`);
    else for (const line of judgeLines(judge, reused)) writeLine(process.stdout, line);
    return 0;
  } catch (err) {
    return exitForRefusal(err, { command: 'judge', request: 'The judge', again: 'judge again later' });
  }
}
