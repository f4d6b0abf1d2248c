/**
 * What one review brings to evaluate's comparison of conditions (evaluate's `conditions` and the panel's side by side):
 * how evaluate loads a review, its team, its survey answers and minutes to each decision. Never writes.
 */
import { anyScripted } from '../../record/endpoints';
import { errorMessage } from '../../kernel/errors';
import { assertDriversRecord } from '../../record/recordAuthor';
import { formatDiagnostic } from '../../diagnostics/diagnostics';
import { loadReview } from '../../review/loadReview';
import type { Review } from '../../review/model';
import type { RunEntry } from '../../record/store';
import { RUNS_DIR } from '../../record/paths';
import { decisionMinutes, loadDecision, ROOT_SURVEY_DIR, type Condition, type ConditionReview, type Decision } from './baseline';
import { loadSurvey, loadSurveyFolder, type SurveyAnswer } from './feedback';

export interface Skipped {
  path: string;
  reason: string;
}

/** A review as evaluate loads it: with its rankings, or without them when it was decided the usual way. */
export async function loadForConditions(dir: string): Promise<Awaited<ReturnType<typeof loadReview>>> {
  const loaded = await loadReview(dir, { requireRankings: true, decodeImages: false });
  if (loaded.review) return loaded;
  // A usual-way review may have no rankings: the team decided without ranking first.
  // A usual-way review may have no rankings (the team decided without ranking first), a brief review neither.
  const loose = await loadReview(dir, { requireRankings: false, decodeImages: false });
  return loose.review?.config.condition === 'usual' || (loose.review && loose.review.comments.length > 0) ? loose : loaded;
}

/**
 * THE facts one review brings to the comparison of conditions (evaluate's `conditions` and the panel's side by side): its
 * condition, team (sorted designer ids), survey answers and minutes to each decision (TeamFusion: run start → Commit Run of
 * each run; usual: decision.yaml). Broken files and runs come back in `skipped`; a run whose record is not its driver's also
 * in `refused` (by id), so evaluate neither sums nor lists it twice.
 */
export async function conditionReviewOf(
  dir: string,
  rel: string,
  review: Pick<Review, 'designers' | 'comments' | 'options' | 'config'>,
  entries: readonly RunEntry[],
): Promise<{ review: ConditionReview; decision: Decision | null; skipped: Skipped[]; refused: Set<string> }> {
  const condition: Condition = review.config.condition ?? 'teamfusion';
  const prefix = rel === '.' ? '' : `${rel}/`;
  const skipped: Skipped[] = [];
  const answers: SurveyAnswer[] = [];
  const minutes: number[] = [];
  const refused = new Set<string>();
  let decision: Decision | null = null;
  if (condition === 'usual') {
    const d = await loadDecision(
      dir,
      review.options.map((o) => o.id),
    );
    for (const diag of d.diagnostics)
      if (diag.severity === 'error') skipped.push({ path: rel, reason: formatDiagnostic({ ...diag, file: `${prefix}${diag.file}` }) });
    if (d.decision) {
      decision = d.decision;
      minutes.push(decisionMinutes(d.decision));
    }
    const sv = await loadSurveyFolder(dir, ROOT_SURVEY_DIR);
    for (const diag of sv.diagnostics)
      if (diag.severity === 'error') skipped.push({ path: rel, reason: formatDiagnostic({ ...diag, file: `${prefix}${diag.file}` }) });
    answers.push(...sv.answers);
  }
  for (const entry of condition === 'usual' ? [] : entries) {
    const runPath = `${prefix}${RUNS_DIR}/${entry.id}`;
    if (!entry.record) {
      skipped.push({ path: runPath, reason: formatDiagnostic(entry.diagnostics[0]!) });
      continue;
    }
    if (anyScripted(entry.record)) continue; // its survey and times are not a team's (scripted.ts)
    // A record someone other than its driver changed is listed as skipped once, here, and left out of every total
    // (its survey answers and minutes too, not only its comparison): issue 39.
    try {
      await assertDriversRecord(dir, entry.record.id);
    } catch (err) {
      refused.add(entry.record.id);
      skipped.push({ path: runPath, reason: errorMessage(err) });
      continue;
    }
    answers.push(...(await loadSurvey(dir, entry.record.id)).answers);
    if (entry.record.committedAt) {
      const t = (Date.parse(entry.record.committedAt) - Date.parse(entry.record.startedAt)) / 60_000;
      if (Number.isFinite(t)) minutes.push(t);
    }
  }
  // The team: who ranked, else who commented on the brief, else who answered the survey.
  const members = membersOf(review);
  const team = (members.length ? members : [...new Set(answers.map((a) => a.designer))]).map((id) => id.toLowerCase()).sort();
  return { review: { path: rel, condition, team, answers, minutes }, decision, skipped, refused };
}

/** Who is on a review's team: who ranked, else who commented on the brief. */
export function membersOf(review: Pick<Review, 'designers' | 'comments'>): string[] {
  return review.designers.length ? review.designers.map((d) => d.id) : review.comments.map((c) => c.designer);
}
