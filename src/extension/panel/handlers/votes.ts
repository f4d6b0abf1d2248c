/**
 * The panel's vote (issue 33): a member votes on a fork of the run through `castVote`, the same core function as `teamfusion
 * vote` (their own votes file; the decision once everyone has voted). The workspace's trust is checked before (../trust.ts).
 * With the sync setting on, the votes file (and run.json when the vote decided) is committed alone, pulled and pushed.
 */
import type { RequestHandler } from './context';
import { castVote, VoteError } from '../../../core/evaluation/votes/cast';
import { RunRecordError } from '../../../core/diagnostics/diagnostics';
import { errorMessage } from '../../../core/kernel/errors';

export const voteHandlers: { vote: RequestHandler<'vote'> } = {
  vote: async (m, panel, answer) => {
    const { services } = panel;
    const root = panel.root.fsPath;
    let out;
    try {
      out = await castVote({
        reviewRoot: root,
        runId: m.runId,
        as: m.as,
        iteration: m.iteration,
        decisionPoint: m.decisionPoint,
        choice: m.choice,
        shared: services.sync.enabled(),
      });
    } catch (err) {
      if (!(err instanceof VoteError || err instanceof RunRecordError)) throw err;
      answer({ type: 'peopleResult', requestId: m.requestId, ok: false, message: err.message });
      return;
    }
    // While others are still to vote, the Forks section shows the tally with names; the reply only confirms the vote.
    const waiting = !out.decision && !out.tally.decided && out.tally.missing.length > 0;
    const said = waiting ? (out.typed ? 'The tally is in Forks.' : 'Your vote is saved; the tally is in Forks.') : out.note;
    // A vote typed on this machine for another member (issue 39) is said not to count as theirs.
    answer({ type: 'peopleResult', requestId: m.requestId, ok: true, message: [out.replaced, out.typed, said].filter(Boolean).join(' ') });
    services.log.info(`${m.as} voted on run ${m.runId} from the review panel: ${out.note}`);
    if (services.sync.enabled()) {
      for (const file of [out.file, out.recordFile]) {
        if (!file) continue;
        const how = await services.sync
          .commitFile(root, file, `TeamFusion ${m.runId}: ${m.as} votes`)
          .catch((e: unknown) => errorMessage(e));
        services.log.info(`${file}: ${how}`);
      }
    }
    panel.reload(false);
  },
};
