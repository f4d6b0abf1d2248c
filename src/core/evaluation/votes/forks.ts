/** A run's forks as recorded (issue 33): the remixes of one round that each take one side of one decision point. */
import { taskOf, type RunRecord } from '../../record/record';
import { remixesOf } from '../../record/remixes';

export interface ForkSide {
  /** The remix id ("r1a"). */
  id: string;
  letter?: string;
  position: string;
}

export interface Fork {
  iteration: number;
  decisionPoint: number;
  question: string;
  sides: ForkSide[];
}

/** Every fork of a run, in round order (a fork needs two sides or more). */
export function forksOf(record: Pick<RunRecord, 'iterations'>): Fork[] {
  const out: Fork[] = [];
  for (const it of record.iterations) {
    const byPoint = new Map<number, Fork>();
    // A brief round's fork is its contested passage written each way (iteration-<k>/fork-<letter>.md): side id f<k><letter>.
    const sides = [
      ...remixesOf(it),
      ...(it.brief?.forks ?? []).map((b) => ({ id: briefForkId(it.index, b.letter), letter: b.letter, fork: b.fork })),
    ];
    for (const r of sides) {
      if (!r.fork) continue;
      const f = byPoint.get(r.fork.decisionPoint) ?? {
        iteration: it.index,
        decisionPoint: r.fork.decisionPoint,
        question: r.fork.question,
        sides: [],
      };
      f.sides.push({ id: r.id, ...(r.letter ? { letter: r.letter } : {}), position: r.fork.position });
      byPoint.set(r.fork.decisionPoint, f);
    }
    for (const f of [...byPoint.values()].sort((a, b) => a.decisionPoint - b.decisionPoint)) if (f.sides.length >= 2) out.push(f);
  }
  return out;
}

/** The id of a brief round's fork side: "f", the round and the letter ("f1a"). */
export function briefForkId(k: number, letter: string): string {
  return `f${k}${letter}`;
}

export function forkOf(record: Pick<RunRecord, 'iterations'>, iteration: number, decisionPoint: number): Fork | undefined {
  return forksOf(record).find((f) => f.iteration === iteration && f.decisionPoint === decisionPoint);
}

/** The last round that forked, or undefined. */
export function lastForkedIteration(record: Pick<RunRecord, 'iterations'>): number | undefined {
  return forksOf(record).at(-1)?.iteration;
}

/** A choice as typed: the fork's remix id or its letter, case-insensitive; undefined when it is neither. */
export function sideOf(fork: Fork, choice: string): ForkSide | undefined {
  const c = choice.trim().toLowerCase();
  return fork.sides.find((s) => s.id.toLowerCase() === c || (s.letter !== undefined && s.letter === c));
}

/**
 * Who votes on a run's forks: the designers the run took part with (`--designers`), else a brief run's members (those who
 * commented on the brief: its forks are passages), else the review's designers. The CLI's vote and the panel ask this.
 */
export function voteTeam(
  record: Pick<RunRecord, 'settings' | 'task'>,
  review: { designers: readonly { id: string }[]; comments: readonly { designer: string }[] },
): string[] {
  return [
    ...(record.settings.designers ??
      (taskOf(record) === 'brief' ? review.comments.map((c) => c.designer) : review.designers.map((d) => d.id))),
  ];
}
