/**
 * The blind re-rank set of a run (the published protocol): the team's Borda top N of the review's original options plus
 * every remix the run made, each copied to runs/<run-id>/rerank/options/<letter>.<ext> under a neutral letter in a
 * shuffle seeded by the run id (the same run always gives the same letters); sources whose blind images are the same
 * byte for byte are one letter (said, and kept in the key as `same`). runs/<run-id>/rerank/key.json says which
 * letter is which source. Every image is re-encoded as PNG without metadata (EXIF, text chunks, provenance manifests), so
 * neither a file's format nor its metadata tells a remix from an original option. The folder is an ordinary review
 * (brief.md, options/, rankings/ empty, review.yaml), built
 * beside its place and renamed into it, so a half-made folder never looks like a review; an existing one is never
 * overwritten. Every read and write goes through the review-files room.
 */
import { createHash } from 'node:crypto';
import { remixesOf } from '../record/remixes';
import * as path from 'node:path';
import { requireSharp } from '../images/sharp';
import { stringify } from '../kernel/yaml';
import { FILE_KINDS } from '../files/fileKinds';
import { writeInertMarkdown } from '../files/markdown';
import { LIMITS, readReviewBytes, readReviewText, ReviewFileError, statInReview } from '../files/reviewFiles';
import { mkdirInReview, writeReviewFile } from '../files/reviewWrites';
import { formatDiagnostic } from '../diagnostics/diagnostics';
import { loadReview } from '../review/loadReview';
import type { Review } from '../review/model';
import { readRunRecord } from '../record/store';
import { reviewRelative } from '../record/paths';
import { taskOf } from '../record/record';
import { makeBriefRerankSet } from './briefRerank';
import { reviewRankMatrix } from '../stats/summary/analysis';
import { bordaCount } from '../stats/election/borda';
import { averageRankMatrix } from '../stats/ranks';
import { assignLetters, type RerankSetResult, type RerankSource } from './key';
import { buildRerankFolder } from './staging';

export { assignLetters, letterOf, type RerankSetResult, type RerankSource } from './key';
import { rerankRel } from './paths';
import { errorMessage } from '../kernel/errors';

export const DEFAULT_TOP = 3;

/**
 * The review's Borda top `top` option ids: weighted Borda points (the review's weights) first, ties broken by the lower
 * mean rank, then natural order (the review's option order).
 */
export function bordaTop(review: Review, top: number): string[] {
  const ids = review.options.map((o) => o.id);
  const avg = averageRankMatrix(reviewRankMatrix(review));
  const borda = bordaCount(
    avg,
    ids,
    review.designers.map((d) => d.weight),
  );
  const position = new Map(borda.map((b) => [b.option, b.position]));
  const meanRank = ids.map((_, i) => avg.reduce((s, row) => s + row[i]!, 0) / avg.length);
  const order = ids
    .map((_, i) => i)
    .sort((a, b) => position.get(ids[a]!)! - position.get(ids[b]!)! || meanRank[a]! - meanRank[b]! || a - b);
  return order.slice(0, top).map((i) => ids[i]!);
}

/** The image of `rel` as PNG without metadata (read contained and capped; sharp decodes at most LIMITS.imagePixels). */
async function blindPng(root: string, rel: string): Promise<Buffer> {
  const bytes = await readReviewBytes(root, rel, LIMITS.imageBytes);
  try {
    return await requireSharp()(bytes, { failOn: 'error', limitInputPixels: LIMITS.imagePixels }).rotate().png().toBuffer();
  } catch (err) {
    throw new ReviewFileError(rel, `${rel} cannot be read as an image (${errorMessage(err)}).`);
  }
}

/** Makes runs/<run-id>/rerank/. Throws a plain sentence when the run or the review cannot give a re-rank set. */
export async function makeRerankSet(reviewRoot: string, runId: string, opts: { top?: number } = {}): Promise<RerankSetResult> {
  const top = opts.top ?? DEFAULT_TOP;
  if (!Number.isInteger(top) || top < 1 || top > 50) throw new Error('--top must be a whole number from 1 to 50.');
  const root = path.resolve(reviewRoot);
  const target = rerankRel(runId);
  const record = await readRunRecord(root, runId);
  if (record.status !== 'completed') throw new Error(`Run ${runId} is ${record.status}; only a completed run can be re-ranked.`);
  if (await statInReview(root, target)) {
    throw new Error(
      `Run ${runId} already has a re-rank folder (${target}); it is never overwritten. The designers rank there; teamfusion forecast makes its missing or failed forecasts.`,
    );
  }
  if (taskOf(record) === 'brief') {
    if (opts.top !== undefined)
      throw new Error(
        `--top picks how many of a design run's options go into its re-rank set; run ${runId} is a brief run, whose blind pair is always its revised brief and its direct baseline. Leave --top out.`,
      );
    return makeBriefRerankSet(root, record);
  }
  const loaded = await loadReview(root, { requireRankings: true, decodeImages: false });
  if (!loaded.review) {
    const first = loaded.diagnostics.find((d) => d.severity === 'error');
    throw new Error(
      `The review's rankings are needed for its Borda top ${top}, but the review has an error${first ? `: ${formatDiagnostic(first)}` : '.'}`,
    );
  }
  const review = loaded.review;
  const options: RerankSource[] = bordaTop(review, top).map((id) => ({
    kind: 'option',
    id,
    file: review.options.find((o) => o.id === id)!.file,
  }));
  const remixes: RerankSource[] = record.iterations.flatMap((it) =>
    remixesOf(it).map((m) => ({ kind: 'remix' as const, id: m.id, file: reviewRelative(runId, m.file) })),
  );
  if (remixes.length === 0) throw new Error(`Run ${runId} made no remix, so there is nothing new to re-rank.`);
  const sources = [...options, ...remixes];
  for (const s of sources) {
    const st = await statInReview(root, s.file);
    if (!st?.isFile()) throw new Error(`The ${s.kind} "${s.id}" of run ${runId} is missing: ${s.file} is not a file.`);
  }
  // Byte-identical blind images are one candidate: the first source (options before remixes) stands for the others.
  const groups = new Map<string, { png: Buffer; sources: RerankSource[] }>();
  for (const s of sources) {
    const png = await blindPng(root, s.file);
    const hash = createHash('sha256').update(png).digest('hex');
    const group = groups.get(hash);
    if (group) group.sources.push(s);
    else groups.set(hash, { png, sources: [s] });
  }
  const firsts = [...groups.values()];
  const key = assignLetters(
    runId,
    firsts.map((g) => g.sources[0]!),
  );
  const pngOf = new Map<string, Buffer>();
  const notes: string[] = [];
  for (const [letter, e] of Object.entries(key)) {
    const group = firsts.find((g) => g.sources[0]!.id === e.id && g.sources[0]!.kind === e.kind)!;
    pngOf.set(letter, group.png);
    const same = group.sources.slice(1);
    if (same.length) {
      key[letter] = { ...e, same: same.map((x) => ({ kind: x.kind, id: x.id, file: x.file })) };
      const names = group.sources.map((x) => `${x.kind} ${x.id}`);
      // Said without the letter: whoever makes the set may be one who re-ranks it.
      notes.push(
        `${names.slice(0, -1).join(', ')} and ${names.at(-1)!} are the same image byte for byte, so they are one candidate of the set (key.json says which).`,
      );
    }
  }
  if (groups.size < 2) throw new Error(`Run ${runId}'s candidates are all the same image byte for byte, so there is nothing to re-rank.`);
  const brief = await readReviewText(root, 'brief.md', LIMITS.brief);

  const made = await buildRerankFolder(root, runId, key, async (staging) => {
    await writeInertMarkdown(root, `${staging}/brief.md`, brief, { exclusive: true, cap: FILE_KINDS.brief.maxBytes });
    await mkdirInReview(root, `${staging}/options`);
    for (const letter of Object.keys(key))
      await writeReviewFile(root, `${staging}/options/${letter}.png`, pngOf.get(letter)!, { exclusive: true });
    await mkdirInReview(root, `${staging}/rankings`);
    await writeReviewFile(root, `${staging}/rankings/.gitkeep`, '', { exclusive: true });
    await writeReviewFile(
      root,
      `${staging}/review.yaml`,
      `# The team ranks these candidates again, blind; "teamfusion compare" shows whether the team converged.\n${stringify({ title: `${review.title} — re-rank` }, { lineWidth: 0 })}`,
      { exclusive: true },
    );
  });
  return notes.length ? { ...made, notes } : made;
}
