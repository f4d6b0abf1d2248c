/** Who takes part in a run: a `--designers` subset, the participants of a record, humans and guests, the team's agreement. */
import type { Review } from '../review/model';
import type { RunSettings } from '../record/record';
import { designerKey, sameDesigner } from '../rankings/designerId';
import { reviewRankMatrix } from '../stats/summary/analysis';
import { kendallW } from '../stats/agreement/kendallW';
import type { Roster } from '../record/journalCheck';

/** A `--designers` subset: known ids (any case), each once, at least two; returned in review order with the review's spelling. */
export function checkSubset(review: Pick<Review, 'designers'>, ids: readonly string[]): string[] {
  const known = new Map(review.designers.map((d) => [designerKey(d.id), d.id]));
  const unknown = ids.filter((id) => !known.has(designerKey(id)));
  if (unknown.length) {
    throw new SubsetError(
      `${unknown.map((u) => `"${u}"`).join(', ')} ${unknown.length === 1 ? 'is not a designer' : 'are not designers'} of this review (known: ${[...known.values()].join(', ')}).`,
    );
  }
  const chosen = new Set(ids.map((id) => known.get(designerKey(id))!));
  if (chosen.size < 2) throw new SubsetError('A run needs at least two designers; name two or more.');
  return review.designers.map((d) => d.id).filter((id) => chosen.has(id));
}

export class SubsetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SubsetError';
  }
}

/** The designers taking part in a run (all of the review's, or the recorded subset), in review order. */
export function participants(review: Pick<Review, 'designers'>, settings: Pick<RunSettings, 'designers'>): Review['designers'] {
  if (!settings.designers) return review.designers;
  const chosen = new Set(settings.designers);
  return review.designers.filter((d) => chosen.has(d.id));
}

/**
 * Kendall's W of the team's own rankings (of the run's designers when a subset was chosen); undefined with fewer than two
 * designers (agreement needs a team).
 */
export function teamKendallW(review: Review, subset?: readonly string[]): number | undefined {
  const designers = participants(review, { designers: subset ? [...subset] : undefined });
  if (designers.length < 2) return undefined;
  try {
    const w = kendallW(reviewRankMatrix({ ...review, designers })).w;
    return Number.isFinite(w) ? w : undefined;
  } catch {
    return undefined;
  }
}

/** The ids of a run's humans or guests: what it had, plus review.yaml's and the options' (spelt as the review spells them). */
export function mergeIds(
  had: readonly string[] | undefined,
  fromReview: readonly string[] | undefined,
  fromOptions: readonly string[] | undefined,
  known: readonly string[],
  what: 'designer' | 'guest',
): string[] | undefined {
  const out: string[] = [...(had ?? [])];
  for (const id of [...(fromReview ?? []), ...(fromOptions ?? [])]) {
    const match = known.find((k) => sameDesigner(k, id));
    if (!match) throw new Error(`"${id}" is not a ${what} of this review (${what}s: ${known.join(', ') || 'none'}).`);
    if (!out.includes(match)) out.push(match);
  }
  return out.length ? out : undefined;
}

/** The team as the loaded review names it (rankings, comments, review.yaml's guests): what a run's journal is judged against. */
export function rosterOf(review: Pick<Review, 'designers' | 'comments' | 'config'>): Roster {
  return {
    designers: new Set([...review.designers.map((d) => designerKey(d.id)), ...review.comments.map((c) => designerKey(c.designer))]),
    guests: new Set((review.config.guests ?? []).map((g) => designerKey(g.id))),
  };
}
