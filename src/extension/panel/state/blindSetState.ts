/**
 * The panel of a run's blind re-rank set (issue 40) knows its run and the team that ranks it: the designers of the review
 * it was made from, each ranking as themselves (picked under "I am", never typed). No `vscode` import.
 */
import { blindSetRef } from '../../foundation/blindSet';
import { readReviewContents } from '../../foundation/reviewContents';
import type { PanelState } from '../../../protocol/panel';

/** The run and team of the blind set `root`; undefined for any other review folder. */
export async function blindSetTeam(root: string): Promise<PanelState['blindSet']> {
  const ref = blindSetRef(root);
  if (!ref) return undefined;
  const parent = await readReviewContents(ref.reviewRoot);
  return { runId: ref.runId, team: parent.designers.slice(0, 100).map((d) => ({ id: d.id.slice(0, 200), name: d.name.slice(0, 200) })) };
}
