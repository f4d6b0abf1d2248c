/**
 * compareRun: everything "did it help?" knows about one run — agreement before (the review's rankings) and after (the
 * blind re-rankings in runs/<run-id>/rerank/), the paired change with its calibrated verdict, acceptance of the
 * generated options, ratings of proxy commentary, survey means and time to decision. Never writes.
 */
import { scriptedFields } from '../checks/scripted';
import { loadVotes } from '../votes/voteFile';
import { voteCheckOf } from '../votes/authorship';
import { DRIVER_MADE, assertDriversRecord, driversFilesRefusal } from '../../record/recordAuthor';
import type { AuthorshipReport } from '../../authorship/door';
import { tallyAll, type ForkTally } from '../votes/tally';
import { groundingOf, type Grounding } from '../../grounding/citations';
import { remixesOf } from '../../record/remixes';
import * as path from 'node:path';
import { statInReview, ReviewFileError, listInReview } from '../../files/reviewFiles';
import { formatDiagnostic, warning } from '../../diagnostics/diagnostics';
import { loadReview } from '../../review/loadReview';
import type { Review } from '../../review/model';
import type { Diagnostic } from '../../diagnostics/diagnostics';
import type { RunRecord } from '../../record/record';
import { readRunRecord } from '../../record/store';
import { analyzeReview, reviewRankMatrix, type AnalyzeOptions } from '../../stats/summary/analysis';
import { meanSpearmanFromW, pairedChange, type IntervalOptions, type PairedChange } from '../../stats/agreement/convergence';
import type { AgreementBand } from '../../stats/agreement/kendallW';
import { designerKey } from '../../rankings/designerId';
import { loadRatings, loadSurvey } from '../evaluate/feedback';
import { readKey } from '../../rerank/key';
import { coverageRel, rerankRel } from '../../rerank/paths';
import { runFidelity } from '../../forecast/runFidelity';
import type { Fidelity } from '../../forecast/fidelity';
import { acceptance, summarizeRatings, summarizeSurvey, type Acceptance, type RatingsSummary, type SurveySummary } from './summaries';
import { finalPickRank, type FinalPickRank } from './finalPick';
import { finalPickChecksOf, poolRoundsOf, type FinalPickChecks, type PoolRoundReport } from '../checks/poolChecks';

export const RERANKINGS_NEEDED = 2;

export interface AgreementSide {
  w: number;
  /** (m·W − 1)/(m − 1); null with one designer. */
  meanSpearman: number | null;
  band: AgreementBand;
  designers: string[];
  options: number;
  pValue: number;
  pPermutation: number;
}

/** The paired change on the designers who ranked both times (the draw count and seed stay out of the printed object). */
export type PairedResult = { designers: string[] } & Omit<PairedChange, 'draws' | 'seed' | 'chanceExact'>;

export interface Timing {
  startedAt: string;
  /** When the re-rankings were saved: the record's `rerankedAt`, else the newest re-ranking file's time. */
  rerankedAt: string | null;
  rerankedFrom: 'record' | 'file times' | null;
  committedAt: string | null;
  hoursToRerank: number | null;
  hoursToCommit: number | null;
  /** Why a span is missing, in words. */
  note: string | null;
}

export interface CompareResult {
  runId: string;
  before: AgreementSide;
  after: AgreementSide | null;
  paired: PairedResult | null;
  acceptance: Acceptance | null;
  /** The final pick's rank by its lowest-ranking member in the blind re-rank (issue 33); null when it is not in the set. */
  finalPick: FinalPickRank | null;
  ratings: RatingsSummary;
  survey: SurveySummary;
  /** Valid re-rankings found. */
  rerankings: number;
  /** The designers whose valid re-ranking was found (ids); [] without a re-rank set. */
  reranked: string[];
  remixes: number;
  timing: Timing;
  /** What is missing before "after" can be computed, in words; null when it is there. */
  missing: string | null;
  /** The run was answered (in any part) by the bundled scripted server (evaluation/checks/scripted.ts): never part of a total. */
  scripted?: true;
  /** When only some parts were scripted: which part came from where, in one sentence (record/endpoints.ts). */
  scriptedParts?: string;
  /** The tally of every fork's vote (issue 33), in round order; [] without forks. */
  votes: ForkTally[];
  /** Citations of images, ids and members the round did not show, per 100 model-written messages. */
  grounding: Grounding;
  /** Each proxy's sealed forecast against its designer's blind re-ranking (τ-b, control, lift); null without forecasts. */
  fidelity: Fidelity | null;
  /** Why there is no fidelity, in words; null when there is (or a problem says why). */
  fidelityNote: string | null;
  /** Who wrote each member's file (issue 39): the files not counted, or why nothing is checked. */
  authorship: AuthorshipReport;
  /** Each round that elected from a pool (issue 41): its diversity, whether it was asked again, whether "a" was elected. */
  pool: PoolRoundReport[];
  /** The final pick's checks against the brief's checklist (issue 41), with the failed items' quotes; null without. */
  checklist: FinalPickChecks | null;
  /** Problems in the re-rank set, ratings or survey files (`file:line:col: error: …`); the valid rest is used. */
  problems: string[];
}

export interface CompareOptions extends AnalyzeOptions {
  interval?: IntervalOptions;
}

function side(review: Review, opts: AnalyzeOptions): AgreementSide {
  const k = analyzeReview(review, opts).kendall;
  const m = review.designers.length;
  return {
    w: k.w,
    meanSpearman: m >= 2 ? meanSpearmanFromW(k.w, m) : null,
    band: k.band,
    designers: review.designers.map((d) => d.id),
    options: review.options.length,
    pValue: k.pValue,
    pPermutation: k.pPermutation,
  };
}

function prefixed(prefix: string, d: Diagnostic): string {
  return formatDiagnostic({ ...d, file: d.file === '.' ? prefix : `${prefix}/${d.file}` });
}

function hoursBetween(a: string, b: string | null): number | null {
  if (!b) return null;
  const t = Date.parse(b) - Date.parse(a);
  return Number.isFinite(t) ? t / 3_600_000 : null;
}

async function newestRankingTime(root: string, runId: string): Promise<string | null> {
  const rel = `${rerankRel(runId)}/rankings`;
  let newest = 0;
  for (const name of (await listInReview(root, rel)) ?? []) {
    if (name.startsWith('.') || !/\.(ya?ml|json)$/i.test(name)) continue;
    const st = await statInReview(root, `${rel}/${name}`);
    if (st?.isFile()) newest = Math.max(newest, st.mtimeMs);
  }
  return newest > 0 ? new Date(newest).toISOString() : null;
}

async function timingOf(root: string, record: RunRecord, rerankings: number): Promise<Timing> {
  let rerankedAt: string | null = record.rerankedAt ?? null;
  let rerankedFrom: Timing['rerankedFrom'] = rerankedAt ? 'record' : null;
  if (!rerankedAt && rerankings > 0) {
    rerankedAt = await newestRankingTime(root, record.id);
    rerankedFrom = rerankedAt ? 'file times' : null;
  }
  const committedAt = record.committedAt ?? null;
  const notes: string[] = [];
  if (!rerankedAt) notes.push('nobody has re-ranked yet');
  if (!committedAt) notes.push('the run has not been committed with Commit Run');
  return {
    startedAt: record.startedAt,
    rerankedAt,
    rerankedFrom,
    committedAt,
    hoursToRerank: hoursBetween(record.startedAt, rerankedAt),
    hoursToCommit: hoursBetween(record.startedAt, committedAt),
    note: notes.length
      ? `Cannot say how long ${notes.length === 2 ? 'either step' : notes[0]!.startsWith('nobody') ? 're-ranking' : 'committing'} took: ${notes.join(', and ')}.`
      : null,
  };
}

/** The review limited to the designers who took part in the run (all of them when the run used the whole team). */
function onlyRunDesigners(review: Review, ids: readonly string[] | undefined): Review {
  if (!ids) return review;
  const chosen = new Set(ids.map(designerKey));
  return { ...review, designers: review.designers.filter((d) => chosen.has(designerKey(d.id))) };
}

/** Re-rank matrix restricted to `ids` (rows in that order), columns in `letters` order. */
function rowsOf(review: Review, ids: readonly string[]): number[][] {
  const all = reviewRankMatrix(review);
  return ids.map((id) => all[review.designers.findIndex((d) => d.id === id)]!);
}

/**
 * Coverage confirmations belong to brief runs (a member confirms what became of their points of the brief): files in a
 * design run's coverage/ folder are ignored, and said in one sentence naming the folder; undefined when there are none.
 */
async function coverageOnDesignRun(root: string, runId: string): Promise<string | undefined> {
  const rel = coverageRel(runId);
  const names = ((await listInReview(root, rel)) ?? []).filter((n) => !n.startsWith('.'));
  if (!names.length) return undefined;
  const files = `${names.length} file${names.length === 1 ? '' : 's'}`;
  return formatDiagnostic(
    warning(
      rel,
      `This is a design run: coverage confirmations belong to brief runs, so the ${files} in ${rel}/ ${names.length === 1 ? 'is' : 'are'} ignored.`,
    ),
  );
}

/**
 * Throws a plain sentence when the run does not exist or the review itself cannot be analysed. Problems in the run's
 * evaluation files never throw: they are listed in `problems` and the valid files are used.
 */
export async function compareRun(reviewRoot: string, runId: string, opts: CompareOptions = {}): Promise<CompareResult> {
  const root = path.resolve(reviewRoot);
  const record = await readRunRecord(root, runId);
  const parent = await loadReview(root, { requireRankings: true, decodeImages: false });
  if (!parent.review) {
    const first = parent.diagnostics.find((d) => d.severity === 'error');
    throw new Error(`The review cannot be analysed${first ? `: ${formatDiagnostic(first)}` : '.'}`);
  }
  await assertDriversRecord(root, runId, parent.authorship);
  // A run made with `--designers` is judged on that subset, before and after.
  const team = onlyRunDesigners(parent.review, record.settings.designers);
  if (team.designers.length < 2)
    throw new Error(`Agreement needs rankings from two or more designers; the review has ${team.designers.length}.`);
  const before = side(team, opts);
  const problems: string[] = [];
  const remixes = record.iterations.reduce((n, it) => n + remixesOf(it).length, 0);

  const teamIds = team.designers.map((d) => d.id);
  const ratingFiles = await loadRatings(root, record, teamIds, parent.authorship);
  const surveyFiles = await loadSurvey(root, runId, teamIds, parent.authorship);
  const voteFiles = await loadVotes(root, record, teamIds, parent.authorship && voteCheckOf(parent.authorship));
  for (const d of [...ratingFiles.diagnostics, ...surveyFiles.diagnostics, ...voteFiles.diagnostics])
    if (d.severity === 'error') problems.push(formatDiagnostic(d));
  const strayCoverage = await coverageOnDesignRun(root, runId);
  if (strayCoverage) problems.push(strayCoverage);

  const rel = rerankRel(runId);
  let after: AgreementSide | null = null;
  let paired: PairedResult | null = null;
  let accepted: Acceptance | null = null;
  let finalPick: FinalPickRank | null = null;
  let rerankings = 0;
  let reranked: string[] = [];
  let missing: string | null = null;
  let fidelity: Fidelity | null = null;
  let fidelityNote: string | null = null;
  // The blind set counts only as its maker, the run's driver, committed it (issue 39, item 3).
  const unmade = (await statInReview(root, rel))
    ? await driversFilesRefusal(root, runId, DRIVER_MADE.rerank.owned, parent.authorship, DRIVER_MADE.rerank.alone)
    : undefined;
  if (!(await statInReview(root, rel))) {
    missing = `There is no re-rank set yet: make it with "teamfusion rerank <review> ${runId}", then each designer ranks it.`;
  } else if (unmade) {
    problems.push(`${unmade.file}:0:0: error: ${unmade.sentence}`);
    missing = `The re-rank set is not counted: ${unmade.sentence}`;
  } else {
    const loaded = await loadReview(path.join(root, ...rel.split('/')), {
      requireRankings: true,
      decodeImages: false,
      partial: true,
      ...(parent.authorship ? { authorship: parent.authorship } : {}),
    });
    for (const d of loaded.diagnostics)
      if (d.severity === 'error' && !/has no ranking files yet/.test(d.message)) problems.push(prefixed(rel, d));
    const review = loaded.review && onlyRunDesigners(loaded.review, record.settings.designers);
    rerankings = review?.designers.length ?? 0;
    reranked = (review?.designers ?? []).map((d) => d.id);
    let key;
    try {
      key = await readKey(root, runId, record.rerankKeySha256);
    } catch (err) {
      if (!(err instanceof ReviewFileError)) throw err;
      problems.push(/:\d+:\d+: error: /.test(err.message) ? err.message : `${err.file}:0:0: error: ${err.message}`);
    }
    if (review && key) {
      const letters = review.options.map((o) => o.id);
      const keyLetters = Object.keys(key).sort();
      if ([...letters].sort().join(',') !== keyLetters.join(',')) {
        problems.push(`${rel}/key.json:0:0: error: The key names ${keyLetters.join(', ')}, but options/ holds ${letters.join(', ')}.`);
        key = undefined;
      }
    }
    if (review) {
      const rankings = review.designers.map((d) => ({ designer: d.id, ranks: new Map(d.entries.map((e) => [e.option, e.rank])) }));
      // The blind set's letters: its key's (options/ when the key cannot be read, said above).
      const setLetters = key ? Object.keys(key).sort() : review.options.map((o) => o.id);
      const f = await runFidelity(root, record, { task: 'design', rankings }, { letters: setLetters, team: teamIds }, parent.authorship);
      ({ fidelity, note: fidelityNote } = f);
      if (f.problem) problems.push(f.problem);
      problems.push(...f.ignored);
    }
    if (rerankings < RERANKINGS_NEEDED) {
      missing = `${rerankings} of the ${RERANKINGS_NEEDED} re-rankings needed so far: each designer ranks the options of ${rel} (rankings/<designer-id>.yaml).`;
    } else if (review) {
      after = side(review, opts);
      const ids = before.designers.filter((id) => after!.designers.includes(id));
      if (ids.length >= 2) {
        const {
          draws: _draws,
          seed: _seed,
          chanceExact: _exact,
          ...pc
        } = pairedChange(rowsOf(team, ids), rowsOf(review, ids), opts.interval);
        paired = { designers: ids, ...pc };
      } else {
        missing = `Only ${ids.length} designer${ids.length === 1 ? '' : 's'} ranked both before and after; the paired change needs two.`;
      }
      if (key) {
        accepted = acceptance(
          reviewRankMatrix(review),
          review.options.map((o) => o.id),
          key,
        );
        finalPick = finalPickRank(
          record.finalPick,
          reviewRankMatrix(review),
          review.options.map((o) => o.id),
          key,
        );
      }
    }
  }
  return {
    runId,
    before,
    after,
    paired,
    acceptance: accepted,
    finalPick,
    ratings: summarizeRatings(ratingFiles.ratings),
    survey: summarizeSurvey(surveyFiles.answers),
    votes: tallyAll(record, voteFiles.members, teamIds),
    rerankings,
    reranked,
    remixes,
    timing: await timingOf(root, record, rerankings),
    missing,
    grounding: groundingOf(record),
    fidelity,
    fidelityNote,
    pool: poolRoundsOf(record),
    checklist: finalPickChecksOf(record),
    problems,
    authorship: parent.authorship?.report() ?? { checked: false, why: "Who wrote each member's file was not asked.", notCounted: [] },
    ...scriptedFields(record),
  };
}
