/**
 * runs/<run-id>/forecast.json (contract §7): each proxy's forecast of its own designer's blind answer, and the one
 * persona-free control, made by `rerank` or `forecast` (each forecast sealed as soon as it is made). Sealed: `sha256` is the hash of the file's content
 * (runId, task, letters, forecasts, in this order), and run.json keeps the same hash (`forecastSha256`), so a forecast
 * changed after it was written (a letter swapped) is noticed and said, never used. Written through the
 * review-files room; read back as its kind and checked with the one intake schema like any input.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { readKindJson } from '../files/kindJson';
import { writeKindFile } from '../files/writeCaps';
import { ReviewFileError } from '../files/reviewFiles';
import { reviewRelative } from '../record/paths';
import type { RunRecord } from '../record/record';

export const FORECAST_FILE = 'forecast.json';
export const PREFER_ANSWERS = ['A', 'B', 'tie'] as const;
export type PreferAnswer = (typeof PREFER_ANSWERS)[number];

const Letter = z.string().regex(/^[A-Z]{1,3}$/, 'a letter A, B, C, …');
const distinct = (xs: readonly string[]): boolean => new Set(xs).size === xs.length;

export const ForecastEntrySchema = z.strictObject({
  kind: z.enum(['persona', 'control']),
  /** The designer whose proxy forecast; null for the control. */
  designer: z.string().min(1).max(200).nullable(),
  /** (design) The forecast blind ranking, best first: every letter once. */
  ranking: z.array(Letter).max(100).refine(distinct, 'names a letter twice').optional(),
  /** (brief) The forecast preference. */
  prefer: z.enum(PREFER_ANSWERS).optional(),
  /** The last request of this forecast in run.json's prompts (its repairs before it); none when no request was sent. */
  promptId: z.string().min(1).max(100).optional(),
  /** Why no forecast could be had, in words (then neither ranking nor prefer). */
  failed: z.string().max(2000).optional(),
});
export type ForecastEntry = z.infer<typeof ForecastEntrySchema>;

export const ForecastFileSchema = z
  .strictObject({
    runId: z.string().min(1).max(200),
    task: z.enum(['design', 'brief']),
    letters: z.array(Letter).min(2).max(100).refine(distinct, 'names a letter twice'),
    forecasts: z.array(ForecastEntrySchema).max(1000),
    /** A forecast of this file was answered by the bundled scripted server, not a model (llm/scripted.ts). */
    scripted: z.literal(true).optional(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .superRefine((f, ctx) => {
    const seen = new Set<string>();
    let controls = 0;
    f.forecasts.forEach((e, i) => {
      const at = (message: string): void => ctx.addIssue({ code: 'custom', path: ['forecasts', i], message });
      if (e.kind === 'control') {
        controls++;
        if (e.designer !== null) at('the control forecast belongs to no designer (designer: null)');
      } else if (e.designer === null) at('a persona forecast names its designer');
      else if (seen.has(e.designer)) at(`${e.designer} has two forecasts`);
      else seen.add(e.designer);
      const answers = [e.ranking, e.prefer, e.failed].filter((x) => x !== undefined).length;
      if (answers !== 1) at('a forecast has exactly one of ranking, prefer or failed');
      if (e.ranking && (f.task !== 'design' || e.ranking.length !== f.letters.length || e.ranking.some((l) => !f.letters.includes(l)))) {
        at(`the ranking is not an order of the letters ${f.letters.join(', ')}`);
      }
      if (e.prefer && f.task !== 'brief') at('prefer is for brief runs');
    });
    // A forecast step stopped halfway seals what it made: the control may not be there yet (made by the next step).
    if (controls > 1) ctx.addIssue({ code: 'custom', path: ['forecasts'], message: 'there is at most one control forecast' });
  });
export type ForecastFile = z.infer<typeof ForecastFileSchema>;
export type ForecastContent = Omit<ForecastFile, 'sha256'>;

export function forecastRel(runId: string): string {
  return reviewRelative(runId, FORECAST_FILE);
}

/** The content in its one order (the hash is of this text). */
function canonical(f: ForecastContent): ForecastContent {
  return {
    runId: f.runId,
    task: f.task,
    letters: [...f.letters],
    forecasts: f.forecasts.map((e) => ({
      kind: e.kind,
      designer: e.designer,
      ...(e.ranking ? { ranking: [...e.ranking] } : {}),
      ...(e.prefer ? { prefer: e.prefer } : {}),
      ...(e.promptId !== undefined ? { promptId: e.promptId } : {}),
      ...(e.failed !== undefined ? { failed: e.failed } : {}),
    })),
    ...(f.scripted ? { scripted: true as const } : {}),
  };
}

/** sha256 of the content (everything but `sha256`), the seal both the file and run.json keep. */
export function forecastDigest(f: ForecastContent): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(f)))
    .digest('hex');
}

/** The sealed file's text. */
export function sealForecast(f: ForecastContent): { text: string; sha256: string } {
  const sha256 = forecastDigest(f);
  return { text: `${JSON.stringify({ ...canonical(f), sha256 }, null, 2)}\n`, sha256 };
}

/**
 * Writes forecast.json whole (replaced in one step, never through a link); returns the seal. The forecast step (forecast.ts)
 * only ever adds an entry or replaces a failed one: an answer once sealed is carried over as it was.
 */
export async function writeForecastFile(root: string, f: ForecastContent): Promise<string> {
  const { text, sha256 } = sealForecast(f);
  await writeKindFile(root, forecastRel(f.runId), 'forecast', text);
  return sha256;
}

/**
 * The run's forecast.json, or undefined when there is none. Throws ReviewFileError (`file:line:col: error: …`) when it is
 * unusable: not its kind, or not the file `rerank` wrote (its content does not match the seal run.json keeps, or its own).
 */
export async function readForecastFile(root: string, record: Pick<RunRecord, 'id' | 'forecastSha256'>): Promise<ForecastFile | undefined> {
  const rel = forecastRel(record.id);
  const f = await readKindJson(root, rel, 'forecast', ForecastFileSchema, "it is the tool's own file: put back the one rerank wrote");
  if (!f) return undefined;
  const digest = forecastDigest(f);
  const kept = record.forecastSha256;
  if ((kept && digest !== kept) || digest !== f.sha256) {
    const against = kept ? 'the one run.json keeps' : 'its own sha256';
    throw new ReviewFileError(
      rel,
      `${rel}:1:1: error: This forecast is not the one teamfusion rerank wrote (its content no longer matches ${against}), so it is not used.`,
    );
  }
  if (f.runId !== record.id)
    throw new ReviewFileError(rel, `${rel}:1:1: error: This forecast is for run ${f.runId}, not ${record.id}, so it is not used.`);
  return f;
}
