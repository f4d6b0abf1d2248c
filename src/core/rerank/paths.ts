/**
 * Where a run's evaluation lives, relative to the review root (forward slashes):
 *   runs/<run-id>/rerank/            the blind re-rank set, an ordinary review folder of its own
 *   runs/<run-id>/rerank/key.json    which letter is which source (read only when the comparison is shown)
 *   runs/<run-id>/ratings/<id>.yaml  a designer's ratings of their own proxy's messages
 *   runs/<run-id>/survey/<id>.yaml   a designer's answers to the three study questions
 *   runs/<run-id>/preference/<id>.yaml  (brief run) which of rerank/A.md and B.md a member prefers
 *   runs/<run-id>/coverage/<id>.yaml    (brief run) a member's confirmations of the coverage of their own points
 */
import * as path from 'node:path';
import { runDir, RUNS_DIR } from '../record/store';

export const RERANK_DIR = 'rerank';
export const KEY_FILE = 'key.json';
export const RATINGS_DIR = 'ratings';
export const SURVEY_DIR = 'survey';
export const PREFERENCE_DIR = 'preference';
export const COVERAGE_DIR = 'coverage';

/** runs/<run-id> (throws a plain sentence when `runId` is not a run id). */
export function runRel(runId: string): string {
  runDir('.', runId);
  return `${RUNS_DIR}/${runId}`;
}

export function rerankRel(runId: string): string {
  return `${runRel(runId)}/${RERANK_DIR}`;
}

export function keyRel(runId: string): string {
  return `${rerankRel(runId)}/${KEY_FILE}`;
}

export function ratingsRel(runId: string, designer?: string): string {
  return designer === undefined ? `${runRel(runId)}/${RATINGS_DIR}` : `${runRel(runId)}/${RATINGS_DIR}/${designer}.yaml`;
}

export function surveyRel(runId: string, designer?: string): string {
  return designer === undefined ? `${runRel(runId)}/${SURVEY_DIR}` : `${runRel(runId)}/${SURVEY_DIR}/${designer}.yaml`;
}

/** Absolute path of the re-rank folder of a run. */
export function rerankDir(reviewRoot: string, runId: string): string {
  return path.join(path.resolve(reviewRoot), ...rerankRel(runId).split('/'));
}

export function preferenceRel(runId: string, designer?: string): string {
  return designer === undefined ? `${runRel(runId)}/${PREFERENCE_DIR}` : `${runRel(runId)}/${PREFERENCE_DIR}/${designer}.yaml`;
}

export function coverageRel(runId: string, designer?: string): string {
  return designer === undefined ? `${runRel(runId)}/${COVERAGE_DIR}` : `${runRel(runId)}/${COVERAGE_DIR}/${designer}.yaml`;
}
