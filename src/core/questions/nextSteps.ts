/**
 * The `next_steps` question: what the team still has to decide in a run and who has not acted — a turn the run waits for,
 * forks not yet decided (who has voted, who has not), decision points of the last round nobody settled, and the blind
 * re-rank (who has not re-ranked). Questions and positions are the models' and members' words: quoted data.
 */
import { statInReview, listInReview } from '../files/reviewFiles';
import { designerKey } from '../rankings/designerId';
import { taskOf } from '../record/record';
import { preferenceRel, rerankRel } from '../rerank/paths';
import { forksOf } from '../evaluation/votes/forks';
import { quote, type Quoted } from './question';
import { runContext } from './runContext';

export type NextStep =
  | { kind: 'start-run'; say: string }
  | { kind: 'turn'; member: string; round: number; forkChoice: boolean; say: string }
  | { kind: 'vote'; round: number; decisionPoint: number; question: Quoted; voted: string[]; notVoted: string[]; say: string }
  | { kind: 'decision-point'; round: number; question: Quoted; positions: { position: Quoted; heldBy: string[] }[]; say: string }
  | { kind: 'make-rerank'; say: string }
  | { kind: 'rerank'; reranked: string[]; notReranked: string[]; say: string };

export interface NextStepsAnswer {
  runId: string | null;
  status: string | null;
  /** The members, id → name (their own words: quoted). */
  members: Record<string, Quoted>;
  steps: NextStep[];
  /** In one sentence: how much is left. */
  summary: string;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Member ids with a file in `rel` (`<id>.yaml`), as the team spells them. */
async function membersWithFiles(root: string, rel: string, team: readonly string[]): Promise<string[]> {
  const names = (await listInReview(root, rel).catch(() => undefined)) ?? [];
  const keys = new Set(
    names.filter((n) => /\.(ya?ml|json)$/i.test(n) && !n.startsWith('.')).map((n) => designerKey(n.replace(/\.[^.]+$/, ''))),
  );
  return team.filter((id) => keys.has(designerKey(id)));
}

export async function nextSteps(root: string, runId: string | undefined): Promise<NextStepsAnswer> {
  const ctx = await runContext(root, runId);
  const members = Object.fromEntries([
    ...ctx.review.designers.map((d) => [d.id, quote(d.name)] as const),
    ...ctx.review.comments.map((c) => [c.designer, quote(c.name)] as const),
  ]);
  if (!ctx.record) {
    return {
      runId: null,
      status: null,
      members,
      steps: [{ kind: 'start-run', say: 'No run yet: teamfusion run starts one.' }],
      summary: 'Nothing to decide until a run is made.',
    };
  }
  const { record, team, tallies } = ctx;
  const steps: NextStep[] = [];
  if (record.status === 'waiting' && record.waitingFor) {
    const w = record.waitingFor;
    steps.push({
      kind: 'turn',
      member: w.speaker,
      round: w.iteration,
      forkChoice: w.forkChoice === true,
      say: w.forkChoice
        ? `The run waits for ${w.speaker} to choose which decision point round ${w.iteration} forks.`
        : `The run waits for ${w.speaker}'s turn in round ${w.iteration}.`,
    });
  }
  for (const t of tallies.filter((x) => !x.decided)) {
    steps.push({
      kind: 'vote',
      round: t.iteration,
      decisionPoint: t.decisionPoint,
      question: quote(t.question),
      voted: t.voters,
      notVoted: t.missing,
      say: t.missing.length
        ? `Decision point ${t.decisionPoint} of round ${t.iteration} waits for ${plural(t.missing.length, 'vote')} (${t.missing.join(', ')}).`
        : `Everyone voted on decision point ${t.decisionPoint} of round ${t.iteration}, but it is tied or not recorded; the lead closes it.`,
    });
  }
  // The last round's decision points that no decision settled and no fork put to a vote.
  const last = record.iterations.at(-1);
  if (last) {
    const forked = new Set(
      forksOf(record)
        .filter((f) => f.iteration === last.index)
        .map((f) => f.question),
    );
    const decided = new Set((last.decisions ?? []).map((d) => d.question));
    for (const p of last.decisionPoints ?? []) {
      if (forked.has(p.question) || decided.has(p.question)) continue;
      steps.push({
        kind: 'decision-point',
        round: last.index,
        question: quote(p.question),
        positions: p.positions.map((x) => ({ position: quote(x.position), heldBy: x.heldBy })),
        say: `A decision point of round ${last.index} is still open (${plural(p.positions.length, 'position')}).`,
      });
    }
  }
  if (record.status === 'completed') {
    const brief = taskOf(record) === 'brief';
    if (!(await statInReview(root, rerankRel(record.id)))) {
      steps.push({
        kind: 'make-rerank',
        say: `No blind re-rank yet: teamfusion rerank <review> ${record.id} makes it, then each member ${brief ? 'chooses between the two briefs' : 're-ranks'}.`,
      });
    } else {
      const reranked = await membersWithFiles(root, brief ? preferenceRel(record.id) : `${rerankRel(record.id)}/rankings`, team);
      const notReranked = team.filter((id) => !reranked.includes(id));
      if (notReranked.length)
        steps.push({
          kind: 'rerank',
          reranked,
          notReranked,
          say: `${plural(notReranked.length, 'member')} still to ${brief ? 'choose blind' : 're-rank blind'}: ${notReranked.join(', ')}.`,
        });
    }
  }
  const summary = steps.length
    ? `${plural(steps.length, 'thing')} left for run ${record.id}.`
    : `Nothing is left to decide in run ${record.id}.`;
  return { runId: record.id, status: record.status, members, steps, summary };
}
