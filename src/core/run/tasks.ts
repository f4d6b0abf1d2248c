/** The tasks a run can work on (task.ts): which one a kind names, and which one a new run takes by default. */
import type { Review } from '../review/model';
import type { RunTaskKind } from '../record/record';
import { briefTask } from './brief/briefTask';
import { designTask } from './design/designTask';
import type { RunTask } from './task';

/** A run without `--task`: a brief run when the review has comments and no rankings, else a design run. */
export function defaultTaskOf(review: Pick<Review, 'comments' | 'designers'>): RunTaskKind {
  return review.comments.length > 0 && review.designers.length === 0 ? 'brief' : 'design';
}

/** The task of that kind (task.ts). */
export function runTask(kind: RunTaskKind): RunTask {
  return kind === 'brief' ? briefTask : designTask;
}
