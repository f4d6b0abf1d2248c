/**
 * The brief run shown in the panel (issue 17): for a record with `task: "brief"`, each round's revised brief read through
 * the file room (contained, regular file, the brief's cap) with its summary and coverage from run.json, and whether the
 * direct baseline exists. Members' comments of the loaded review, as the protocol carries them. No `vscode` import.
 */
import * as path from 'node:path';
import { LIMITS, readReviewText, statInReview } from '../../core/files/reviewFiles';
import { BriefIterationSchema, type PanelBriefRound, type PanelBriefRun, type PanelComment } from '../../protocol/brief';

/** The parts of a run record this module reads (the full RunRecord once the brief fields are in its schema). */
export interface BriefRecordLike {
  id: string;
  task?: unknown;
  iterations: readonly ({ index: number } & { brief?: unknown })[];
}

/** True for a record of a brief run (older records have no task: design runs). */
export function isBriefRun(record: { task?: unknown } | undefined): boolean {
  return record?.task === 'brief';
}

/** A round's file relative to the review root: `file` as recorded is relative to the run folder (or already to the review). */
export function roundPath(runId: string, iteration: number, file: string | undefined): string {
  const f = (file ?? '').replace(/\\/g, '/').replace(/^\.\//, '');
  if (!f) return `runs/${runId}/iteration-${iteration}/brief.md`;
  if (f.startsWith(`runs/${runId}/`)) return f;
  return path.posix.join('runs', runId, f);
}

/** The rounds of a brief run, oldest first: those whose iteration records a `brief`. */
export async function briefRunState(root: string, record: BriefRecordLike | undefined, log?: (line: string) => void): Promise<PanelBriefRun | undefined> {
  if (!record || !isBriefRun(record)) return undefined;
  const rounds: PanelBriefRound[] = [];
  for (const it of record.iterations) {
    if (it.brief === undefined) continue;
    const parsed = BriefIterationSchema.safeParse(it.brief);
    if (!parsed.success) {
      log?.(`runs/${record.id}/run.json: iteration ${it.index}: the brief entry has an unexpected shape (${parsed.error.issues[0]?.message ?? ''}).`);
      continue;
    }
    const rel = roundPath(record.id, it.index, parsed.data.file);
    const round: PanelBriefRound = { ...parsed.data, iteration: it.index, path: rel };
    try {
      round.text = await readReviewText(root, rel, LIMITS.brief);
    } catch (e) {
      round.error = e instanceof Error ? e.message : String(e);
    }
    rounds.push(round);
  }
  const baselineRel = `runs/${record.id}/baseline.md`;
  const baseline = await statInReview(root, baselineRel).catch(() => undefined);
  return { runId: record.id, rounds, ...(baseline?.isFile() ? { baseline: baselineRel } : {}) };
}

/** A comment as the review loader gives it (`review.comments`). */
export interface CommentLike {
  designer: string;
  name: string;
  role?: string;
  weight?: number;
  body: string;
  file: string;
}

/** The review's comments for the panel (none when the review has none). */
export function panelComments(review: { comments?: readonly CommentLike[] } | undefined): PanelComment[] | undefined {
  const list = review?.comments;
  if (!list?.length) return undefined;
  return list.map((c) => ({
    designer: c.designer,
    name: c.name,
    ...(c.role ? { role: c.role } : {}),
    ...(c.weight !== undefined ? { weight: c.weight } : {}),
    body: c.body,
    file: c.file,
  }));
}
