/**
 * The `run_summary` question: a run as its run.json and vote files say it — status, rounds, each decision and how it was
 * made, the forks still open and who has voted, the sides set aside, coverage and proxy fidelity where they were measured,
 * and the cost. Questions, positions and errors are the models' and members' words: quoted data.
 */
import { errorMessage } from '../kernel/errors';
import { taskOf, type Iteration } from '../record/record';
import { closeWords, decidedBy } from '../discussion/decisionWords';
import { collectRun } from '../evaluation/evaluate/evaluate';
import { forksOf } from '../evaluation/votes/forks';
import { QuestionError, quote, type Quoted } from './question';
import { runContext } from './runContext';
import { finalPickChecksOf, poolRoundsOf, poolSummaryOf } from '../evaluation/checks/poolChecks';
import { remixesOf } from '../record/remixes';

/** A side not chosen, as the round after a decision records it (contract §8, "A decision binds"). */
interface SetAsideEntry {
  id: string;
  question: string;
  decidedIn: number;
}

export interface RunSummary {
  runId: string;
  task: 'design' | 'brief';
  status: string;
  startedAt: string;
  updatedAt: string;
  /** Answered by the bundled scripted server, not a model. */
  scripted: boolean;
  error?: Quoted;
  waitingFor?: { member: string; round: number; forkChoice: boolean };
  rounds: { done: number; planned: number };
  finalPick: string | null;
  decisions: {
    round: number;
    question: Quoted;
    decision: Quoted;
    how: string;
    by: string;
    voters?: string[];
    counts?: { position: Quoted; votes: number }[];
  }[];
  openForks: {
    round: number;
    decisionPoint: number;
    question: Quoted;
    sides: { id: string; position: Quoted; votes: number }[];
    voted: string[];
    notVoted: string[];
  }[];
  setAside: { round: number; id: string; question: Quoted; decidedIn: number }[];
  /** A brief run's last round: how many members' points the revised brief kept, changed or left out (null for a design run). */
  coverage: { kept: number; changed: number; leftOut: number } | null;
  /** Each proxy's sealed forecast against its member's blind answer; null when not measured (`fidelityNote` says why). */
  fidelity: unknown;
  fidelityNote: string | null;
  /**
   * The pooled rounds (issue 41): per round the pool's size, the elected letters, its diversity, whether it was asked again
   * and whether the election chose the agent's own first proposal (a); with their means. null when no round was pooled.
   */
  pool: {
    rounds: { round: number; candidates: number; elected: string[]; diversity: number; reasked: boolean; firstElected: boolean }[];
    meanDiversity: number;
    reaskRate: number;
    firstElectedRate: number;
  } | null;
  /**
   * The brief as a checklist (issue 41): its items, how many remixes were checked and how many items failed across them, and
   * the final pick's pass rate with its failed items (quoted; null when the final pick is not a checked remix). null when the
   * run has no checklist.
   */
  checklist: {
    items: number;
    remixesChecked: number;
    failedChecks: number;
    finalPick: {
      remix: string;
      pass: number;
      fail: number;
      unclear: number;
      passRate: number;
      failed: { item: string; text: Quoted; quote: Quoted; reason: Quoted }[];
    } | null;
  } | null;
  cost: { usd: number | null; inputTokens: number; outputTokens: number; images: number; requests: number };
}

function poolOf(record: Parameters<typeof poolRoundsOf>[0]): RunSummary['pool'] {
  const summary = poolSummaryOf(record);
  if (!summary) return null;
  const rounds = poolRoundsOf(record).map(({ iteration, ...r }) => ({ round: iteration, ...r }));
  return { rounds, meanDiversity: summary.meanDiversity, reaskRate: summary.reaskRate, firstElectedRate: summary.firstElectedRate };
}

function checklistOf(record: Parameters<typeof finalPickChecksOf>[0]): RunSummary['checklist'] {
  if (!record.checklist) return null;
  const checked = record.iterations.flatMap((it) => remixesOf(it)).filter((m) => m.checks?.length);
  const pick = finalPickChecksOf(record);
  return {
    items: record.checklist.items.length,
    remixesChecked: checked.length,
    failedChecks: checked.reduce((n, m) => n + m.checks!.filter((c) => c.result === 'fail').length, 0),
    finalPick: pick
      ? {
          remix: pick.remix,
          pass: pick.pass,
          fail: pick.fail,
          unclear: pick.unclear,
          passRate: pick.passRate,
          failed: pick.failed.map((f) => ({ item: f.item, text: quote(f.text), quote: quote(f.quote), reason: quote(f.reason) })),
        }
      : null,
  };
}

/** How a decision was made, in words: "the team's vote", "the lead closed it with 1 of 3 votes", "the lead in person", "the lead's proxy". */
export function howDecided(d: NonNullable<Iteration['decisions']>[number], teamSize?: number): string {
  const who = decidedBy(d);
  if (who === 'the team') return "the team's vote";
  if (who === 'the lead closing the vote') return closeWords(d, teamSize);
  return who === 'the lead' ? "the lead's proxy" : 'the lead in person';
}

export async function runSummary(root: string, runId: string | undefined): Promise<RunSummary> {
  const ctx = await runContext(root, runId);
  if (!ctx.record) throw new QuestionError('This review has no runs yet; teamfusion run starts one.');
  const { record, tallies } = ctx;
  const open = tallies.filter((t) => !t.decided);
  const forks = forksOf(record);
  let fidelity: unknown = null;
  let fidelityNote: string | null = null;
  let coverage: RunSummary['coverage'] = null;
  try {
    // The measures evaluate and compare report for this run (permutations do not change them).
    const { run } = await collectRun(root, record, { permutations: 100 });
    fidelity = run.compare?.fidelity ?? run.brief?.fidelity ?? null;
    fidelityNote =
      run.compare?.fidelityNote ??
      (fidelity === null ? (run.compare?.missing ?? 'Not measured: there is no blind re-rank with forecasts for this run yet.') : null);
    if (run.brief) coverage = run.brief.coverage;
  } catch (err) {
    fidelityNote = `Not measured: ${errorMessage(err)}`;
  }
  const u = record.usage;
  return {
    runId: record.id,
    task: taskOf(record),
    status: record.status,
    startedAt: record.startedAt,
    updatedAt: record.updatedAt,
    scripted: record.scripted === true,
    ...(record.error ? { error: quote(record.error) } : {}),
    ...(record.waitingFor
      ? {
          waitingFor: {
            member: record.waitingFor.speaker,
            round: record.waitingFor.iteration,
            forkChoice: record.waitingFor.forkChoice === true,
          },
        }
      : {}),
    rounds: { done: record.iterations.length, planned: record.settings.iterations },
    finalPick: record.finalPick ?? null,
    decisions: record.iterations
      .flatMap((it) =>
        (it.decisions ?? []).map((d) => ({
          round: it.index,
          question: quote(d.question),
          decision: quote(d.decision),
          how: howDecided(d, ctx.team.length),
          by: d.by,
          ...(d.voters ? { voters: d.voters } : {}),
          ...(d.counts ? { counts: Object.entries(d.counts).map(([p, n]) => ({ position: quote(p), votes: n })) } : {}),
        })),
      )
      .concat(
        // Decided by the members' own vote files, not yet taken into the driver's record (issue 39): recomputed here.
        tallies
          .filter((t) => t.decided && !t.recorded && t.decision !== null)
          .map((t) => ({
            round: t.iteration,
            question: quote(t.question),
            decision: quote(t.decision!),
            how: "the team's vote (not yet in the driver's record: its next refine or resume takes it in)",
            by: 'team',
            voters: t.voters,
            counts: Object.entries(t.counts).map(([p, n]) => ({ position: quote(p), votes: n })),
          })),
      ),
    openForks: open.map((t) => {
      const fork = forks.find((f) => f.iteration === t.iteration && f.decisionPoint === t.decisionPoint);
      return {
        round: t.iteration,
        decisionPoint: t.decisionPoint,
        question: quote(t.question),
        sides: (fork?.sides ?? []).map((s) => ({ id: s.id, position: quote(s.position), votes: t.counts[s.position] ?? 0 })),
        voted: t.voters,
        notVoted: t.missing,
      };
    }),
    setAside: record.iterations.flatMap((it) =>
      ((it as Iteration & { setAside?: SetAsideEntry[] }).setAside ?? []).map((s) => ({
        round: it.index,
        id: s.id,
        question: quote(s.question),
        decidedIn: s.decidedIn,
      })),
    ),
    coverage,
    fidelity,
    fidelityNote,
    pool: poolOf(record),
    checklist: checklistOf(record),
    cost: {
      usd: u.costUsd ?? null,
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      images: u.images,
      requests: record.prompts.length,
    },
  };
}
