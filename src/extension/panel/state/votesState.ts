/**
 * The forks of the run shown, for the panel (issue 33): built from the record and the run's votes files with the same
 * core functions the CLI counts with (forksOf, loadVotes with the authorship check, tallyFork), so the panel's tally is the
 * CLI's. No vscode here.
 */
import { standingDecision } from '../../../core/record/decisions';
import type { RunRecord } from '../../../core/record/record';
import type { ReviewConfig } from '../../../core/review/model';
import { formatDiagnostic } from '../../../core/diagnostics/diagnostics';
import { forksOf } from '../../../core/evaluation/votes/forks';
import { loadVotes } from '../../../core/evaluation/votes/voteFile';
import { tallyFork } from '../../../core/evaluation/votes/tally';
import { voteAuthorCheck } from '../../../core/evaluation/votes/authorship';
import type { PanelFork, PanelForks } from '../../../protocol/votes';
import { briefForkId } from '../../../core/evaluation/votes/forks';
import { errorMessage } from '../../../core/kernel/errors';
import type { Iteration } from '../../../core/record/record';
import { readForkPassage } from '../../../core/fork/briefFork';
import { roundPoints } from '../../../core/fork/points';

/** Undefined when the run has no fork. */
export async function panelForks(
  root: string,
  record: RunRecord,
  config: Pick<ReviewConfig, 'team' | 'requireSignedCommits' | 'lead'>,
  team: readonly string[],
): Promise<PanelForks | undefined> {
  const forks = forksOf(record);
  if (forks.length === 0) return undefined;
  const { members, diagnostics } = await loadVotes(root, record, team, await voteAuthorCheck(root, config));
  const lead = record.settings.lead ?? config.lead;
  return {
    runId: record.id,
    team: [...team],
    ...(lead ? { lead } : {}),
    forks: await Promise.all(
      forks.map(async (f) => {
        const t = tallyFork(record, f, members, team);
        const it = record.iterations.find((x) => x.index === f.iteration);
        // A brief round's decision points are its disagreements (roundPoints).
        const points = it ? roundPoints(it)[f.decisionPoint - 1] : undefined;
        const decided = standingDecision(it, f.question);
        const votes: Record<string, string> = {};
        for (const m of members) {
          const v = m.votes.find((x) => x.iteration === f.iteration && x.decisionPoint === f.decisionPoint);
          if (v && t.voters.includes(m.designer)) votes[m.designer] = v.choice;
        }
        return {
          iteration: f.iteration,
          decisionPoint: f.decisionPoint,
          question: f.question,
          sides: await Promise.all(
            f.sides.map(async (s) => ({
              id: s.id,
              ...(s.letter ? { letter: s.letter } : {}),
              position: s.position,
              holders: [...(points?.positions.find((p) => p.position === s.position)?.heldBy ?? [])],
              ...(it ? await passageOf(root, record.id, it, s.id) : {}),
            })),
          ),
          votes,
          counts: t.counts,
          missing: t.missing,
          ...(decided
            ? {
                decision: {
                  decision: decided.decision,
                  by: decided.by,
                  via: decided.via,
                  ...(decided.counts ? { counts: decided.counts } : {}),
                  recorded: true,
                },
              }
            : t.decision !== null
              ? { decision: { decision: t.decision, by: 'team', via: 'human', counts: t.counts } } // by the votes, not yet in the driver's record
              : {}),
        };
      }),
    ),
    problems: diagnostics
      .filter((d) => d.severity === 'error')
      .slice(0, 100)
      .map(formatDiagnostic),
  };
}

/** A brief fork's side (`f<k><letter>`): its passage, read through the file room like the round's revised brief. */
async function passageOf(
  root: string,
  runId: string,
  it: Iteration,
  sideId: string,
): Promise<Pick<PanelFork['sides'][number], 'passage' | 'passageError'>> {
  const written = it.brief?.forks?.find((b) => briefForkId(it.index, b.letter) === sideId);
  if (!written) return {};
  try {
    // As the run wrote it: a passage edited after the run is refused in one sentence (issue 39), never shown as the run's.
    return { passage: await readForkPassage(root, runId, written) };
  } catch (e) {
    return { passageError: errorMessage(e) };
  }
}
