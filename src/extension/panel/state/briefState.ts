/**
 * The brief run shown in the panel (issue 17): for a record with `task: "brief"`, each round's revised brief read through
 * the file room (contained, regular file, the brief's cap) with its summary and coverage from run.json, and whether the
 * direct baseline exists. Members' comments of the loaded review, as the protocol carries them. No `vscode` import.
 */
import * as path from 'node:path';
import { LIMITS, readReviewText, statInReview } from '../../../core/files/reviewFiles';
import { BriefRoundSchema, taskOf, type RunRecord } from '../../../core/record/record';
import type { DesignerComment } from '../../../core/review/model';
import type { PanelBriefRound, PanelBriefRun, PanelComment } from '../../../protocol/brief';
import { errorMessage } from '../../../core/kernel/errors';

/** The parts of a run record this module reads. */
export type BriefRecordLike = Pick<RunRecord, 'id' | 'task' | 'iterations'>;

/** True for a record of a brief run (older records have no task: design runs). */
export function isBriefRun(record: Pick<RunRecord, 'task'> | undefined): boolean {
  return record !== undefined && taskOf(record) === 'brief';
}

/** A round's file relative to the review root: `file` as recorded is relative to the run folder (or already to the review). */
export function roundPath(runId: string, iteration: number, file: string | undefined): string {
  const f = (file ?? '').replace(/\\/g, '/').replace(/^\.\//, '');
  if (!f) return `runs/${runId}/iteration-${iteration}/brief.md`;
  if (f.startsWith(`runs/${runId}/`)) return f;
  return path.posix.join('runs', runId, f);
}

/** The rounds of a brief run, oldest first: those whose iteration records a `brief`. */
export async function briefRunState(
  root: string,
  record: BriefRecordLike | undefined,
  log?: (line: string) => void,
): Promise<PanelBriefRun | undefined> {
  if (!record || !isBriefRun(record)) return undefined;
  const rounds: PanelBriefRound[] = [];
  for (const it of record.iterations) {
    if (it.brief === undefined) continue;
    // Records are checked when read; checked again here, since a round's file name is used as a path.
    const parsed = BriefRoundSchema.safeParse(it.brief);
    if (!parsed.success) {
      log?.(
        `runs/${record.id}/run.json: iteration ${it.index}: the brief entry has an unexpected shape (${parsed.error.issues[0]?.message ?? ''}).`,
      );
      continue;
    }
    const rel = roundPath(record.id, it.index, parsed.data.file);
    const round: PanelBriefRound = { ...parsed.data, iteration: it.index, path: rel };
    try {
      round.text = await readReviewText(root, rel, LIMITS.briefText);
    } catch (e) {
      round.error = errorMessage(e);
    }
    rounds.push(round);
  }
  const baselineRel = `runs/${record.id}/baseline.md`;
  const baseline = await statInReview(root, baselineRel).catch(() => undefined);
  return { runId: record.id, rounds, ...(baseline?.isFile() ? { baseline: baselineRel } : {}) };
}

/** The review's comments for the panel (none when the review has none). */
export function panelComments(review: { comments?: readonly DesignerComment[] } | undefined): PanelComment[] | undefined {
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
