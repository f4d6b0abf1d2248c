/**
 * `evaluate`: the study's table for every review below a folder. A review is a folder with brief.md and options/ (or
 * comments/, a brief review: its brief runs count their blind choices and coverage, briefEvaluation.ts); the
 * re-rank sets inside runs/ are not reviews of their own. Per review: designers, options, W and its permutation p, and
 * per run the data `collectRun` gathers; overall: the same pooled (rates over re-ranked runs; a missing value is null,
 * never 0). Broken reviews and runs are listed in `skipped`, the rest is still evaluated. Never writes.
 */
import { anyScripted } from '../../record/endpoints';
import { remixesOf } from '../../record/remixes';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { assertDriversRecord } from '../../record/recordAuthor';
import { formatDiagnostic } from '../../diagnostics/diagnostics';
import { usualWayRunsNote } from '../../review/usualRuns';
import { naturalCompare } from '../../kernel/naturalOrder';
import { findReviews, relPath, SKIP_DIRS } from '../findReviews';
import { scriptedRunOf, type ScriptedRun } from '../checks/scripted';
import { taskOf, type RunRecord, type RunTaskKind } from '../../record/record';
import { listRunEntries } from '../../record/store';
import { RUNS_DIR } from '../../record/paths';

export { findReviews };
import { analyzeReview, type AnalyzeOptions } from '../../stats/summary/analysis';
import { SIGNIFICANCE_LEVEL } from '../../stats/summary/sentence';
import { compareRun, type CompareResult } from '../compare/compare';
import { rerankRel } from '../../rerank/paths';
import { LIMITS, statInReview } from '../../files/reviewFiles';
import { readTextFile } from '../../files/textFile';
import { parseReviewConfig } from '../../review/reviewConfig';
import { categoryMixOf, codedCategories, type CodedCategories } from '../../analysis/evaluationMix';
import { discussionOf } from '../../settings/discussionSettings';
import { conditionsOf, type Condition, type ConditionReview, type Conditions, type Decision } from './baseline';
import { briefOverallOf, collectBriefRun, type BriefOverall, type BriefRunEvaluation } from './briefEvaluation';
import { SURVEY_QUESTIONS, type SurveyQuestion } from './feedback';
import { conditionReviewOf, loadForConditions, membersOf, type Skipped } from './conditionFacts';
import { groundingOf, type Grounding } from '../../grounding/citations';
import { groupValuesOf, type GroupBy } from './groupBy';
import { acrossRunsOf, type AcrossRuns, type WBands } from './acrossRuns';
import { groupsOf, type GroupHead } from './groups';
import { errorMessage } from '../../kernel/errors';
import { meanOrNull } from '../../stats/mean';
import { finalPickChecksOf, poolSummaryOf, type FinalPickChecks, type PoolSummary } from '../checks/poolChecks';

export type { Skipped };

/** One group of `evaluate --by`: its head and every overall measure over its runs. */
export type Group = GroupHead & Overall;

export interface RunEvaluation {
  id: string;
  status: RunRecord['status'];
  remixes: number;
  /** The record's usage.costUsd (whole run), null when unknown. */
  costUsd: number | null;
  /** Sum of the image-edit prompts' costUsd, null when any is unknown or there is none. */
  imageEditCostUsd: number | null;
  /** imageEditCostUsd / remixes. */
  costPerRemixUsd: number | null;
  /** The comparison, when the run has a re-rank set with enough re-rankings (else null). */
  compare: CompareResult | null;
  /** The run's discussion mode (older records: as they were run). */
  mode: string;
  /** Bales IPA codes of the run (runs/<id>/analysis.json), null when it is not coded. */
  bales: CodedCategories | null;
  /** What the run worked on (records without a task are design runs). */
  task: RunTaskKind;
  /** A brief run's preference counts, coverage, survey and judge; null for a design run. */
  brief: BriefRunEvaluation | null;
  /** Citations of what the run's rounds did not show, over its model-written messages (every run, re-ranked or not). */
  grounding: Grounding;
  /** The run's value for each `evaluate --by` (groupBy.ts). */
  groupValues: Record<GroupBy, string>;
  /** The run's pooled rounds (issue 41): mean diversity, re-ask rate, how often "a" was elected; null without a pool. */
  pool: PoolSummary | null;
  /** The final pick's checks against the brief's checklist (issue 41); null without a checklist or checks. */
  checklist: FinalPickChecks | null;
}

export interface ReviewEvaluation {
  /** Relative to the evaluated folder, forward slashes ("." for the folder itself). */
  path: string;
  /** Who ranked; in a brief-only review, who commented on the brief. */
  designers: number;
  options: number;
  /** Kendall's W of the review's rankings; null with fewer than two designers. */
  w: number | null;
  pPermutation: number | null;
  runs: RunEvaluation[];
  /** Share of each Bales category (number as a string) over the coded messages of its runs; null when none is coded. */
  categoryMix: Record<string, number> | null;
  /** How the review was decided (review.yaml `condition:`, default teamfusion). */
  condition: Condition;
  /** A usual-way review's decision.yaml (null when missing or invalid; the problem is in `skipped`). */
  decision: Decision | null;
}

export interface Overall extends AcrossRuns {
  reviews: number;
  meanW: number | null;
  /** Mean W by team size (designers → mean W). */
  wByTeamSize: Record<string, { reviews: number; meanW: number }>;
  /** Share of reviews with W whose agreement is not significant (permutation p ≥ 0.05). */
  notSignificantShare: number | null;
  runs: number;
  remixes: number;
  rerankedRuns: number;
  /** Over re-ranked runs: W before (all who ranked) and after (all who re-ranked). */
  meanWBefore: number | null;
  meanWAfter: number | null;
  /** Over re-ranked runs with a paired change. */
  meanChange: number | null;
  verdicts: { converged: number; diverged: number; 'no evidence': number };
  top1Rate: number | null;
  top2Rate: number | null;
  ratingsN: number;
  ratingsMean: number | null;
  ratingsSd: number | null;
  ratingsPositiveShare: number | null;
  lowestDesignerMean: number | null;
  /** Rating counts for scores 1..5. */
  ratingsDistribution: [number, number, number, number, number];
  survey: { n: number } & Record<SurveyQuestion, number | null>;
  totalCostUsd: number | null;
  costPerRemixUsd: number | null;
  /** Median hours from run start to the re-rankings / to Commit Run, over the runs where it is known. */
  medianHoursToRerank: number | null;
  medianHoursToCommit: number | null;
  timeToDecisionNote: string | null;
  /** Bales category mix per discussion mode, over the coded runs (mode → runs, messages, shares). */
  categoryMixByMode: Record<string, { runs: number; messages: number; mix: Record<string, number> }>;
  /** Brief runs: blind choices with the sign test, coverage, judge verdicts (briefEvaluation.ts). */
  brief: BriefOverall;
}

export interface Evaluation {
  reviews: ReviewEvaluation[];
  overall: Overall;
  /** TeamFusion against the team's usual way, paired within each team (issue 19). */
  conditions: Conditions;
  skipped: Skipped[];
  /** Runs made against the bundled scripted server: listed apart, in no total, table or comparison (scripted.ts). */
  scripted: ScriptedRun[];
  /** Re-ranked runs by the agreement band of W before and after (the paper's Fig. 3; overall.wBands). */
  wBands: WBands;
  /** With `--by`: what the runs are grouped by, and every overall measure per group of runs. */
  by?: GroupBy;
  groups?: Group[];
}

function sumOrNull(xs: readonly (number | undefined)[]): number | null {
  if (xs.length === 0 || xs.some((x) => x === undefined)) return null;
  return xs.reduce<number>((s, x) => s + x!, 0);
}

/**
 * Everything `evaluate` knows about one run (the place to add a per-run field). Problems in the run's evaluation files
 * are returned beside it, never thrown.
 */
export async function collectRun(
  reviewRoot: string,
  record: RunRecord,
  opts: AnalyzeOptions & { teamSize?: number } = {},
): Promise<{ run: RunEvaluation; problems: string[] }> {
  await assertDriversRecord(reviewRoot, record.id); // a record someone else changed is skipped, never summed
  const remixes = record.iterations.reduce((n, it) => n + remixesOf(it).length, 0);
  const edits = record.prompts.filter((p) => p.kind === 'image-edit' && !p.error);
  const imageEditCostUsd = edits.length ? sumOrNull(edits.map((p) => p.usage?.costUsd)) : null;
  const run: RunEvaluation = {
    id: record.id,
    status: record.status,
    remixes,
    costUsd: record.usage.costUsd ?? null,
    imageEditCostUsd,
    costPerRemixUsd: imageEditCostUsd !== null && remixes > 0 ? imageEditCostUsd / remixes : null,
    compare: null,
    mode: discussionOf(record.settings).mode,
    bales: null,
    task: taskOf(record),
    brief: null,
    grounding: groundingOf(record),
    groupValues: groupValuesOf(record, opts.teamSize ?? 0),
    pool: poolSummaryOf(record),
    checklist: finalPickChecksOf(record),
  };
  let problems: string[] = [];
  try {
    run.bales = await codedCategories(reviewRoot, record.id);
  } catch (err) {
    problems.push(errorMessage(err));
  }
  if (run.task === 'brief') {
    const b = await collectBriefRun(reviewRoot, record);
    run.brief = b.brief;
    problems = [...problems, ...b.problems];
  } else if (await statInReview(reviewRoot, rerankRel(record.id))) {
    const c = await compareRun(reviewRoot, record.id, opts);
    problems = [...problems, ...c.problems];
    if (c.after) run.compare = c;
  }
  return { run, problems };
}

function median(xs: readonly number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const k = Math.floor(s.length / 2);
  return s.length % 2 ? s[k]! : (s[k - 1]! + s[k]!) / 2;
}

export function overallOf(reviews: readonly ReviewEvaluation[]): Overall {
  const withW = reviews.filter((r) => r.w !== null);
  const bySize: Record<string, { reviews: number; meanW: number }> = {};
  for (const r of withW) {
    const k = String(r.designers);
    const cur = bySize[k] ?? { reviews: 0, meanW: 0 };
    bySize[k] = { reviews: cur.reviews + 1, meanW: cur.meanW + r.w! };
  }
  for (const v of Object.values(bySize)) v.meanW /= v.reviews;
  const runs = reviews.flatMap((r) => r.runs);
  const compared = runs.flatMap((r) => (r.compare ? [r.compare] : []));
  const paired = compared.flatMap((c) => (c.paired ? [c.paired] : []));
  const accepted = compared.flatMap((c) => (c.acceptance ? [c.acceptance] : []));
  const allRatings = runs.map((r) => r.compare?.ratings).filter((x) => x !== undefined);
  const dist: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  for (const r of allRatings) r.distribution.forEach((k, i) => (dist[i]! += k));
  const n = dist.reduce((s, k) => s + k, 0);
  const rMean = n ? dist.reduce((s, k, i) => s + k * (i + 1), 0) / n : null;
  const rSd = n >= 2 ? Math.sqrt(dist.reduce((s, k, i) => s + k * (i + 1 - rMean!) ** 2, 0) / (n - 1)) : null;
  const lowest = allRatings.flatMap((r) => (r.lowestDesigner ? [r.lowestDesigner.mean] : []));
  const survey = { n: 0 } as Overall['survey'];
  for (const q of SURVEY_QUESTIONS) {
    let sum = 0;
    let k = 0;
    for (const c of compared) {
      const m = c.survey[q];
      if (m !== null) ((sum += m * c.survey.answered[q]), (k += c.survey.answered[q]));
    }
    survey[q] = k ? sum / k : null;
  }
  survey.n = compared.reduce((s, c) => s + c.survey.n, 0);
  const costs = runs.map((r) => r.costUsd);
  const editRuns = runs.filter((r) => r.remixes > 0);
  const editCost = sumOrNull(editRuns.map((r) => r.imageEditCostUsd ?? undefined));
  const remixCount = editRuns.reduce((s, r) => s + r.remixes, 0);
  const toRerank = compared.flatMap((c) => (c.timing.hoursToRerank !== null ? [c.timing.hoursToRerank] : []));
  const toCommit = runs.flatMap((r) =>
    r.compare?.timing.hoursToCommit !== null && r.compare?.timing.hoursToCommit !== undefined ? [r.compare.timing.hoursToCommit] : [],
  );
  const notes: string[] = [];
  if (compared.length && toCommit.length < compared.length)
    notes.push(
      `${compared.length - toCommit.length} of ${compared.length} re-ranked runs were not committed with Commit Run, so their time to decision is unknown`,
    );
  if (!compared.length) notes.push('no run has been re-ranked, so time to decision cannot be computed');
  return {
    reviews: reviews.length,
    meanW: meanOrNull(withW.map((r) => r.w!)),
    wByTeamSize: bySize,
    notSignificantShare: withW.length ? withW.filter((r) => r.pPermutation! >= SIGNIFICANCE_LEVEL).length / withW.length : null,
    runs: runs.length,
    remixes: runs.reduce((s, r) => s + r.remixes, 0),
    rerankedRuns: compared.length,
    meanWBefore: meanOrNull(compared.map((c) => c.before.w)),
    meanWAfter: meanOrNull(compared.map((c) => c.after!.w)),
    meanChange: meanOrNull(paired.map((p) => p.change)),
    verdicts: {
      converged: paired.filter((p) => p.verdict === 'converged').length,
      diverged: paired.filter((p) => p.verdict === 'diverged').length,
      'no evidence': paired.filter((p) => p.verdict === 'no evidence').length,
    },
    top1Rate: accepted.length ? accepted.filter((a) => a.top1).length / accepted.length : null,
    top2Rate: accepted.length ? accepted.filter((a) => a.top2).length / accepted.length : null,
    ratingsN: n,
    ratingsMean: rMean,
    ratingsSd: rSd,
    ratingsPositiveShare: n ? (dist[3] + dist[4]) / n : null,
    lowestDesignerMean: lowest.length ? lowest.reduce((m, x) => Math.min(m, x), Infinity) : null,
    ratingsDistribution: dist,
    survey,
    totalCostUsd: runs.length ? sumOrNull(costs.map((c) => c ?? undefined)) : null,
    costPerRemixUsd: editCost !== null && remixCount > 0 ? editCost / remixCount : null,
    medianHoursToRerank: median(toRerank),
    medianHoursToCommit: median(toCommit),
    timeToDecisionNote: notes.length ? `${notes.join('; ')}.` : null,
    categoryMixByMode: Object.fromEntries(
      [...new Set(runs.filter((r) => r.bales).map((r) => r.mode))].sort().map((mode) => {
        const coded = runs.filter((r) => r.bales && r.mode === mode).map((r) => r.bales!);
        return [mode, { runs: coded.length, messages: coded.reduce((k, b) => k + b.coded, 0), mix: categoryMixOf(coded) }];
      }),
    ),
    brief: briefOverallOf(runs.flatMap((r) => (r.brief ? [r.brief] : []))),
    ...acrossRunsOf(runs),
  };
}

/** Evaluates every review below `folder`. `onProgress` hears each review's path as it starts. */
export async function evaluateFolder(
  folder: string,
  opts: AnalyzeOptions & { onProgress?: (rel: string) => void; by?: GroupBy } = {},
): Promise<Evaluation> {
  const base = path.resolve(folder);
  const st = await fs.stat(base).catch(() => undefined);
  if (!st?.isDirectory()) throw new Error(`${folder} is not a folder.`);
  const reviews: ReviewEvaluation[] = [];
  const skipped: Skipped[] = [];
  const scripted: ScriptedRun[] = [];
  const forConditions: ConditionReview[] = [];
  for (const dir of await findReviews(base, (rel, reason) => skipped.push({ path: rel, reason }))) {
    const rel = relPath(base, dir);
    opts.onProgress?.(rel);
    const loaded = await loadForConditions(dir);
    if (!loaded.review) {
      const first = loaded.diagnostics.find((d) => d.severity === 'error');
      skipped.push({ path: rel, reason: first ? formatDiagnostic(first) : 'the review cannot be loaded' });
      continue;
    }
    const review = loaded.review;
    const prefix = rel === '.' ? '' : `${rel}/`;
    let w: number | null = null;
    let p: number | null = null;
    if (review.designers.length >= 2) {
      const k = analyzeReview(review, opts).kendall;
      w = k.w;
      p = k.pPermutation;
    }
    const entries = review.config.condition === 'usual' ? [] : await listRunEntries(dir);
    const usualRuns = review.config.condition === 'usual' ? await usualWayRunsNote(dir) : undefined;
    if (usualRuns) skipped.push({ path: `${prefix}${RUNS_DIR}`, reason: usualRuns });
    const facts = await conditionReviewOf(dir, rel, review, entries);
    skipped.push(...facts.skipped);
    const runs: RunEvaluation[] = [];
    for (const entry of entries) {
      const runPath = `${prefix}${RUNS_DIR}/${entry.id}`;
      if (!entry.record) continue; // listed in skipped by conditionReviewOf
      if (facts.refused.has(entry.record.id)) continue; // a record not its driver's: listed in skipped by conditionReviewOf, summed nowhere
      if (anyScripted(entry.record)) {
        scripted.push(scriptedRunOf(runPath, entry.record));
        continue;
      }
      try {
        const { run, problems } = await collectRun(dir, entry.record, { ...opts, teamSize: membersOf(review).length });
        runs.push(run);
        for (const pr of problems) skipped.push({ path: runPath, reason: pr });
      } catch (err) {
        skipped.push({ path: runPath, reason: errorMessage(err) });
      }
    }
    forConditions.push(facts.review);
    const coded = runs.flatMap((r) => (r.bales ? [r.bales] : []));
    reviews.push({
      path: rel,
      designers: membersOf(review).length,
      options: review.options.length,
      w,
      pPermutation: p,
      runs,
      categoryMix: coded.length ? categoryMixOf(coded) : null,
      condition: facts.review.condition,
      decision: facts.decision,
    });
  }
  const overall = overallOf(reviews);
  const groups = opts.by ? { by: opts.by, groups: groupsOf(reviews, opts.by, overallOf) } : {};
  return { reviews, overall, conditions: conditionsOf(forConditions), skipped, scripted, wBands: overall.wBands, ...groups };
}

/** A TeamFusion review beside its team's usual-way reviews in the same parent folder (the panel's Did it help?). */
export interface SideBySide {
  /** The parent folder, as the user knows it (its base name). */
  folder: string;
  /** The team (sorted designer ids). */
  team: string[];
  conditions: Conditions;
}

/** How many folders beside a review the panel's pairing looks at. */
const MAX_BESIDE = 500;

/** The folders in `parent` other than `self` (not hidden, not links), the first MAX_BESIDE in name order. */
async function foldersBeside(parent: string, self: string): Promise<string[]> {
  const entries = await fs.readdir(parent, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIP_DIRS.has(e.name))
    .map((e) => e.name)
    .sort(naturalCompare)
    .slice(0, MAX_BESIDE)
    .map((name) => path.join(parent, name))
    .filter((d) => path.resolve(d) !== self);
}

/** Whether one of the review folders `dirs` says `condition: usual` in its review.yaml (read as loadReview reads it). */
async function someSaysUsual(dirs: readonly string[]): Promise<boolean> {
  for (const dir of dirs) {
    const read = await readTextFile(dir, 'review.yaml', {
      label: 'review settings in YAML',
      allowEmpty: true,
      maxBytes: LIMITS.reviewConfig,
    }).catch(() => undefined);
    if (read?.ok && parseReviewConfig(read.text).config.condition === 'usual') return true;
  }
  return false;
}

/**
 * The two conditions of this review's team, paired as `evaluate` pairs them (conditionsOf over the reviews of the same set
 * of designer ids) among the reviews below the review's parent folder; undefined unless this review is a TeamFusion review
 * and that folder holds a usual-way review of the same team.
 */
export async function sideBySideOf(reviewRoot: string): Promise<SideBySide | undefined> {
  const root = path.resolve(reviewRoot);
  const parent = path.dirname(root);
  // No pairing without a usual-way review beside this one, and a review is one when its review.yaml says so. The panel
  // asks on every open: one listing of the parent folder and its first folders' settings answer, and the folder is
  // walked (as evaluate walks it) only when one of them is a usual-way review.
  if (!(await someSaysUsual(await foldersBeside(parent, root)))) return undefined;
  const dirs = await findReviews(parent);
  const facts: ConditionReview[] = [];
  for (const dir of dirs) {
    const loaded = await loadForConditions(dir);
    if (!loaded.review) continue;
    const usual = loaded.review.config.condition === 'usual';
    facts.push((await conditionReviewOf(dir, relPath(parent, dir), loaded.review, usual ? [] : await listRunEntries(dir))).review);
  }
  const self = facts.find((f) => path.resolve(parent, f.path) === root);
  if (!self || self.condition !== 'teamfusion') return undefined;
  const key = self.team.join('\n');
  const team = facts.filter((f) => f.team.join('\n') === key);
  if (!team.some((f) => f.condition === 'usual')) return undefined;
  return { folder: path.basename(parent), team: self.team, conditions: conditionsOf(team) };
}
