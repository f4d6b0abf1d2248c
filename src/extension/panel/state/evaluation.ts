/**
 * The panel's "Did it help?" for a run with a blind re-rank set (runs/<run-id>/rerank), from the evaluation room's
 * compareRun. No `vscode` import. Undefined when the run has no re-rank set or the review cannot be analysed (the
 * Agreement tab already says why).
 */
import * as path from 'node:path';
import { compareBriefRun, compareRun, loadRatings, loadSurvey, rerankRel, writeRatings, writeSurvey } from '../../../core/evaluation';
import { statInReview } from '../../../core/files/reviewFiles';
import { formatDiagnostic } from '../../../core/diagnostics/diagnostics';
import type { RunRecord } from '../../../core/record/record';
import { readRunRecord } from '../../../core/record/store';
import { sideBySideOf } from '../../../core/evaluation/evaluate/evaluate';
import {
  EvaluationSchema,
  SideBySideSchema,
  type PanelSideBySide,
  type PanelEvaluation,
  type PanelFeedback,
  type SaveFeedbackReply,
  type SaveRatingsRequest,
  type SaveSurveyRequest,
  type SaveCoverageRequest,
} from '../../../protocol/panel';
import { loadCoverageConfirmations, writeCoverageConfirmations } from '../../../core/evaluation/checks/coverageConfirmations';
import { taskOf } from '../../../core/record/record';
import type { PanelBriefRun } from '../../../protocol/brief';
import { errorMessage } from '../../../core/kernel/errors';

export async function runEvaluation(reviewRoot: string, runId: string, log: (line: string) => void): Promise<PanelEvaluation | undefined> {
  try {
    const folder = rerankRel(runId);
    if (!(await statInReview(reviewRoot, folder))) return undefined;
    const { fidelity: fd, ...c } = await compareRun(reviewRoot, runId);
    // Fidelity rows exist only for designers with a saved blind re-ranking (designFidelity pairs forecasts with those).
    const fidelity = fd?.task === 'design' ? fd.byDesigner : undefined;
    const parsed = EvaluationSchema.safeParse({ ...c, folder, ...(fidelity ? { fidelity } : {}) });
    if (!parsed.success) {
      log(`"Did it help?" has an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`);
      return undefined;
    }
    return parsed.data;
  } catch (e) {
    log(`No "Did it help?" for run ${runId}: ${errorMessage(e)}`);
    return undefined;
  }
}

/**
 * Proxy fidelity of a brief run for the panel (compare's, from compareBriefRun): per member whose blind choice of the pair
 * is saved, whether their proxy's sealed forecast named it, the control's, and the lift. Undefined for a design run, before
 * the blind pair exists, without forecasts, or when they cannot be used (compare says why).
 */
export async function briefRunFidelity(
  reviewRoot: string,
  record: RunRecord,
  log: (line: string) => void,
): Promise<PanelBriefRun['fidelity']> {
  if (taskOf(record) !== 'brief') return undefined;
  try {
    if (!(await statInReview(reviewRoot, rerankRel(record.id)))) return undefined;
    const { fidelity } = await compareBriefRun(reviewRoot, record);
    // Rows exist only for members with a saved preference file (briefFidelity pairs forecasts with those).
    return fidelity?.task === 'brief' ? fidelity.byDesigner : undefined;
  } catch (e) {
    log(`No proxy fidelity for run ${record.id}: ${errorMessage(e)}`);
    return undefined;
  }
}

/**
 * This TeamFusion review beside its team's usual-way review(s) in its parent folder (core: sideBySideOf, which pairs as
 * `evaluate` does). Only when the parent folder is inside one of `within` (the workspace folders): a panel never walks
 * folders the user did not open. Undefined when there is nothing to pair.
 */
export async function sideBySide(
  reviewRoot: string,
  within: readonly string[],
  log: (line: string) => void,
): Promise<PanelSideBySide | undefined> {
  const parent = path.dirname(path.resolve(reviewRoot));
  if (!within.some((w) => isInside(path.resolve(w), parent))) return undefined;
  try {
    const found = await sideBySideOf(reviewRoot);
    if (!found) return undefined;
    const parsed = SideBySideSchema.safeParse(found);
    if (!parsed.success) {
      log(`The comparison with the usual way has an unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`);
      return undefined;
    }
    return parsed.data;
  } catch (e) {
    log(`No comparison with the usual way: ${errorMessage(e)}`);
    return undefined;
  }
}

function isInside(parent: string, child: string): boolean {
  const r = path.relative(parent, child);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}

/** The saved ratings and survey answers of a run, for the panel's rating controls and survey form. */
export async function runFeedback(
  reviewRoot: string,
  record: RunRecord,
  log: (line: string) => void,
  team?: readonly string[],
): Promise<PanelFeedback | undefined> {
  try {
    const [r, s] = [await loadRatings(reviewRoot, record, team), await loadSurvey(reviewRoot, record.id, team)];
    const ratings: PanelFeedback['ratings'] = {};
    for (const f of r.ratings)
      ratings[f.designer] = Object.fromEntries(
        f.ratings.map((x) => [x.message, x.comment ? { score: x.score, comment: x.comment } : { score: x.score }]),
      );
    const survey: PanelFeedback['survey'] = {};
    for (const a of s.answers) {
      const { designer: _d, file: _f, ...answers } = a;
      void _d;
      void _f;
      survey[a.designer] = answers;
    }
    // A brief run: what each member said of the agent's account of their own points.
    const c = taskOf(record) === 'brief' ? await loadCoverageConfirmations(reviewRoot, record, team) : undefined;
    const coverage: NonNullable<PanelFeedback['coverage']> = {};
    for (const m of c?.confirmations ?? []) coverage[m.designer] = m.points;
    const problems = [...r.diagnostics, ...s.diagnostics, ...(c?.diagnostics ?? [])]
      .filter((d) => d.severity === 'error')
      .map(formatDiagnostic);
    return { runId: record.id, ratings, survey, ...(c ? { coverage } : {}), problems };
  } catch (e) {
    log(`The ratings and survey of run ${record.id} could not be read: ${errorMessage(e)}`);
    return undefined;
  }
}

/** Saves a designer's ratings (validated against the record); a sentence when refused. */
export async function saveRatingsFromPanel(reviewRoot: string, m: SaveRatingsRequest): Promise<SaveFeedbackReply> {
  try {
    const record = await readRunRecord(reviewRoot, m.runId);
    const file = await writeRatings(
      reviewRoot,
      record,
      m.designer,
      m.ratings.map((r) =>
        r.comment?.trim() ? { message: r.message, score: r.score, comment: r.comment } : { message: r.message, score: r.score },
      ),
    );
    return { type: 'saveFeedbackResult', requestId: m.requestId, ok: true, file };
  } catch (e) {
    return { type: 'saveFeedbackResult', requestId: m.requestId, ok: false, message: errorMessage(e) };
  }
}

/** Saves a designer's survey answers; a sentence when refused. */
export async function saveSurveyFromPanel(reviewRoot: string, m: SaveSurveyRequest): Promise<SaveFeedbackReply> {
  try {
    await readRunRecord(reviewRoot, m.runId);
    const { type: _t, requestId, runId, ...answer } = m;
    void _t;
    const file = await writeSurvey(reviewRoot, runId, { ...answer, ...(answer.comment?.trim() ? {} : { comment: undefined }) });
    return { type: 'saveFeedbackResult', requestId, ok: true, file };
  } catch (e) {
    return { type: 'saveFeedbackResult', requestId: m.requestId, ok: false, message: errorMessage(e) };
  }
}

/** Saves a member's confirmations of their own coverage (validated against the run's last revised brief); a sentence when refused. */
export async function saveCoverageFromPanel(reviewRoot: string, m: SaveCoverageRequest): Promise<SaveFeedbackReply> {
  try {
    const record = await readRunRecord(reviewRoot, m.runId);
    const points = m.points.map((p) => ({
      point: p.point,
      agree: p.agree,
      ...(p.status ? { status: p.status } : {}),
      ...(p.comment?.trim() ? { comment: p.comment } : {}),
    }));
    const file = await writeCoverageConfirmations(reviewRoot, record, m.designer, points);
    return { type: 'saveFeedbackResult', requestId: m.requestId, ok: true, file };
  } catch (e) {
    return { type: 'saveFeedbackResult', requestId: m.requestId, ok: false, message: errorMessage(e) };
  }
}
