/**
 * The panel's saving area: a designer's ranking (rankings/<id>.yaml), their ratings of their proxy's messages and their
 * survey answers about a run. The workspace's trust is checked before these run (../trust.ts).
 */
import type { PanelActions, RequestHandler } from './context';
import type { SaveCoverageRequest, SaveFeedbackReply, SaveRatingsRequest, SaveSurveyRequest } from '../../../protocol/panel';
import { errorMessage } from '../../../core/kernel/errors';
import { noteRerankingSaved } from '../../../core/evaluation/compare/decisionTimes';
import { saveRanking } from '../rankingWriter';
import { saveCoverageFromPanel, saveRatingsFromPanel, saveSurveyFromPanel } from '../state/evaluation';
import { blindSetTeam } from '../state/blindSetState';

/** After ratings or answers were saved: with the sync setting on, the person's file is committed alone, pulled and pushed. */
async function afterFeedback(
  m: SaveRatingsRequest | SaveSurveyRequest | SaveCoverageRequest,
  reply: SaveFeedbackReply,
  panel: PanelActions,
): Promise<void> {
  const { services } = panel;
  if (!reply.ok) {
    services.log.warn(`Not saved: ${reply.message ?? ''}`);
    return;
  }
  services.log.info(`Saved ${reply.file} from the review panel.`);
  if (services.sync.enabled() && reply.file) {
    const what =
      m.type === 'saveRatings'
        ? `${m.designer} rates`
        : m.type === 'saveSurvey'
          ? `${m.designer} answers the survey`
          : `${m.designer} confirms their coverage`;
    const how = await services.sync
      .commitFile(panel.root.fsPath, reply.file, `TeamFusion ${m.runId}: ${what}`)
      .catch((e: unknown) => errorMessage(e));
    services.log.info(`${reply.file}: ${how}`);
    panel.post({ type: 'notice', level: how.startsWith('committed') ? 'info' : 'warning', message: `Saved ${reply.file}: ${how}.` });
  }
  panel.reload(false);
}

export const savingHandlers: {
  saveRanking: RequestHandler<'saveRanking'>;
  saveRatings: RequestHandler<'saveRatings'>;
  saveSurvey: RequestHandler<'saveSurvey'>;
  saveCoverage: RequestHandler<'saveCoverage'>;
} = {
  saveRanking: async (m, panel, answer) => {
    const { services } = panel;
    const load = await services.reviews.load(panel.root, { partial: true });
    if (!load.review) {
      answer({
        type: 'saveRankingResult',
        requestId: m.requestId,
        ok: false,
        diagnostics: load.diagnostics.filter((d) => d.severity === 'error'),
      });
      return;
    }
    // A blind re-rank set is ranked by its run's team, each member as themselves.
    const team = (await blindSetTeam(panel.root.fsPath))?.team;
    const outcome = await saveRanking(load.review, m, team);
    answer({
      type: 'saveRankingResult',
      requestId: m.requestId,
      ok: outcome.ok,
      ...(outcome.file ? { file: outcome.file } : {}),
      ...(outcome.designerId ? { designerId: outcome.designerId } : {}),
      diagnostics: outcome.diagnostics,
    });
    if (!outcome.ok) return;
    services.log.info(`Saved ${outcome.file} from the review panel.`);
    // A ranking of a blind re-rank set: its run records when the re-rankings were saved (time to decision).
    await noteRerankingSaved(panel.root.fsPath).catch((e: unknown) =>
      services.log.warn(`Could not note the re-ranking time: ${errorMessage(e)}`),
    );
    panel.reload(true);
  },
  saveRatings: async (m, panel, answer) => {
    const reply = await saveRatingsFromPanel(panel.root.fsPath, m);
    answer(reply);
    await afterFeedback(m, reply, panel);
  },
  saveSurvey: async (m, panel, answer) => {
    const reply = await saveSurveyFromPanel(panel.root.fsPath, m);
    answer(reply);
    await afterFeedback(m, reply, panel);
  },
  saveCoverage: async (m, panel, answer) => {
    const reply = await saveCoverageFromPanel(panel.root.fsPath, m);
    answer(reply);
    await afterFeedback(m, reply, panel);
  },
};
