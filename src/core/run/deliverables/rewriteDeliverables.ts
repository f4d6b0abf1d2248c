/** result.md and transcript.md written again from the record as it now is: a decision the team voted after the run (issue 33). */
import type { Review } from '../../review/model';
import { peopleOf } from '../../people/team';
import { taskOf, type RunRecord } from '../../record/record';
import { runTask } from '../tasks';

export async function rewriteDeliverables(review: Review, record: RunRecord): Promise<void> {
  const chosen = record.settings.designers;
  // As the run wrote them: a designer who did not take part has no top choice in the stance table.
  const people = peopleOf(review).map((p) => ('topChoice' in p && chosen && !chosen.includes(p.id) ? { ...p, topChoice: undefined } : p));
  await runTask(taskOf(record)).writeDeliverables(review.root, record, people);
}
