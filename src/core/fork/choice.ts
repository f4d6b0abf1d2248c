/**
 * Which decision point a round forks (issue 33), by the run's `forks` setting: none (`off`), the first that splits the team
 * (`auto`), or the one the lead picks at the round's end (`ask`). The lead's pick is a person's turn like any other: the run
 * waits for it (status "waiting", `waitingFor.forkChoice`), and the lead answers with `teamfusion say <review> <run-id> --as
 * <lead> <n|none>` (or in VS Code); the answer is kept as the lead's message of that round, so it is asked once.
 */
import type { Iteration, Message, RunRecord, WaitingFor } from '../record/record';
import type { StepContext } from '../step/context';
import { SETTING_BOUNDS } from '../settings/settingBounds';
import { forkModeOf } from '../settings/discussionSettings';
import { forkablePoints, pointWords, roundPoints } from './points';
import { humanDecisionsBefore } from '../discussion/decisionWords';

/** The turn number of the lead's fork choice: after every turn a proxy can have (1..10), so it never meets a scheduled one. */
export const FORK_CHOICE_TURN = SETTING_BOUNDS.turnsPerAgent.max + 1;

/** What the lead answered: a point's 1-based index, "none", "/pass" (left to auto), or words that are none of these. */
export type ForkAnswer = { point: number } | { none: true } | { pass: true } | { unreadable: string };

/** Reads an answer to the fork question: `2`, `#2`, `none` (also `0`, `no`), `/pass`. */
export function readForkAnswer(text: string): ForkAnswer {
  const t = text.trim().toLowerCase().replace(/[.!]$/, '');
  if (t === '/pass') return { pass: true };
  if (t === 'none' || t === 'no' || t === '0') return { none: true };
  const m = /^#?(\d{1,3})$/.exec(t);
  if (m) return { point: Number(m[1]) };
  return { unreadable: text.trim().slice(0, 80) };
}

/** Why an answer is not one the round can take (undefined when it is): used by `say` before anything is written. */
export function forkAnswerProblem(text: string, forkable: readonly number[]): string | undefined {
  const a = readForkAnswer(text);
  if ('point' in a && !forkable.includes(a.point))
    return `Decision point ${a.point} cannot be forked in this round (${choicesWords(forkable)}).`;
  if ('unreadable' in a) return `Answer the fork question with ${choicesWords(forkable)}.`;
  return undefined;
}

/**
 * `say`'s check of the lead's answer while the run waits for their fork choice (AnswerCheck of core/people/submit.ts):
 * a number of a point this round can fork, none or /pass; any other message of theirs, or anyone else's, is not checked.
 */
export function forkChoiceCheck(
  record: Pick<RunRecord, 'status' | 'waitingFor' | 'iterations' | 'prompts'>,
  speaker: string,
  text: string,
  designers: readonly string[],
): string | undefined {
  const w = record.waitingFor;
  if (record.status !== 'waiting' || !w?.forkChoice || w.speaker !== speaker) return undefined;
  const it = record.iterations.find((x) => x.index === w.iteration);
  if (!it || leadAnswer(record, it, speaker)) return undefined;
  return forkAnswerProblem(text, forkablePoints(it, designers, decidedBefore(record.iterations, it.index)));
}

/** The questions people decided in the rounds before `index` that still stand. */
function decidedBefore(iterations: readonly Iteration[], index: number): string[] {
  return humanDecisionsBefore(iterations, index).map((d) => d.question);
}

function choicesWords(forkable: readonly number[]): string {
  return `${forkable.length ? `${forkable.join(', ')}, ` : ''}none or /pass`;
}

/**
 * The lead's recorded answer in this round, if any: their message at the fork-choice slot, or — when a resumed run took the
 * inbox in before it reached the slot (the message then has no turn) — the first message of theirs said after the round's
 * remix agent answered.
 */
export function leadAnswer(
  record: Pick<RunRecord, 'prompts'>,
  it: Pick<Iteration, 'index' | 'messages'>,
  lead: string,
): Message | undefined {
  const mine = it.messages.filter((m) => m.kind === 'human' && m.speaker === lead);
  const atSlot = mine.find((m) => m.turn === FORK_CHOICE_TURN);
  if (atSlot) return atSlot;
  const answered = record.prompts
    .filter((p) => p.iteration === it.index && (p.kind === 'remix' || p.kind === 'remix-repair') && p.error === undefined)
    .at(-1)?.at;
  return answered === undefined ? undefined : mine.find((m) => m.turn === null && m.at !== undefined && m.at > answered);
}

/** The slot the run waits at for the lead's pick. */
export function forkChoiceSlot(it: Pick<Iteration, 'index'>, lead: string): WaitingFor {
  return { speaker: lead, iteration: it.index, turn: FORK_CHOICE_TURN, forkChoice: true };
}

/**
 * Whether the round's fork question is settled without a fork still to make: off, nothing to fork, or the lead's answer
 * is none (or names no point this round can fork). Auto, a pass or a valid number leave a fork to make.
 */
export function forkSettled(ctx: Pick<StepContext, 'settings' | 'designers' | 'record'>, it: Iteration): boolean {
  const mode = forkModeOf(ctx.settings);
  if (mode === 'off') return true;
  const forkable = forkablePoints(
    it,
    ctx.designers.map((d) => d.id),
    decidedBefore(ctx.record.iterations, it.index),
  );
  if (forkable.length === 0) return true;
  const lead = ctx.settings.lead;
  if (mode === 'auto' || !lead) return false;
  const said = leadAnswer(ctx.record, it, lead);
  if (!said) return false;
  const answer = readForkAnswer(said.content);
  return !('pass' in answer) && !('point' in answer && forkable.includes(answer.point));
}

/**
 * The point this round forks (1-based in its decisionPoints), or undefined for none. Under `ask` this waits for the lead
 * (holding, or stopping the run with status "waiting" as the people driver was made).
 */
export async function chosenPoint(ctx: StepContext, it: Iteration): Promise<number | undefined> {
  const mode = forkModeOf(ctx.settings);
  if (mode === 'off') return undefined;
  const forkable = forkablePoints(
    it,
    ctx.designers.map((d) => d.id),
    decidedBefore(ctx.record.iterations, it.index),
  );
  if (forkable.length === 0) return undefined;
  if (mode === 'auto') return forkable[0];
  const lead = ctx.settings.lead;
  if (!lead || !ctx.people || !ctx.people.team.designers.some((d) => d.id === lead)) {
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'warning',
      message:
        'forks is ask, but this run has no lead to ask (review.yaml lead:); the first decision point that splits the team is forked, as under auto.',
    });
    return forkable[0];
  }
  if (!leadAnswer(ctx.record, it, lead)) {
    const points = roundPoints(it);
    const list = forkable
      .flatMap((n) => {
        const p = points[n - 1];
        return p ? [`${n}. ${pointWords(p)}`] : [];
      })
      .join(' ');
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'info',
      message: `Which decision point should round ${it.index} fork (one remix per side)? ${list} — answer with its number, none, or /pass to fork the first.`,
    });
    await ctx.people.waitFor(forkChoiceSlot(it, lead));
  }
  const answer = readForkAnswer(leadAnswer(ctx.record, it, lead)?.content ?? '');
  if ('pass' in answer) return forkable[0];
  if ('point' in answer && forkable.includes(answer.point)) return answer.point;
  if (!('none' in answer)) {
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'warning',
      message: `The lead's answer to the fork question names no decision point this round can fork (${choicesWords(forkable)}); the round forks none.`,
    });
  }
  return undefined;
}
