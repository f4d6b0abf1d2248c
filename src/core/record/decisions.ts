/**
 * Which recorded decisions stand (issue 38). A decision people made (the team's vote, the lead in person) stands until the
 * lead reopens it: `reopened: { by, at }` is written on it, and it stays in its round as history but no longer binds a later
 * round, is no longer carried into prompts, and the team may decide the point again. A proxy's decision is never reopened.
 */
import type { Iteration } from './record';

export type RecordedDecision = NonNullable<Iteration['decisions']>[number];

/** Whether this decision still stands (not reopened). */
export function stands(d: Pick<RecordedDecision, 'reopened'>): boolean {
  return d.reopened === undefined;
}

/** The decision of a round on `question` that still stands, if any (a reopened one is history). */
export function standingDecision(it: Pick<Iteration, 'decisions'> | undefined, question: string): RecordedDecision | undefined {
  return it?.decisions?.find((d) => d.question === question && stands(d));
}
