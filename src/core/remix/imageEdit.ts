/**
 * Step 4 — edit: the image-edit model gets the consensus top candidates as files (real name, sharp-detected MIME type),
 * best first, and the editing directions as its prompt. The answer (b64_json, or a URL) is saved as PNG in
 * runs/<id>/iteration-<k>/remix.png and becomes candidate r<k> with the next free label ("Image 7"). With several remixes a
 * round each proposal is its own edit: its `from` as inputs, its directions as prompt, saved as iteration-<k>/remix-<letter>.png,
 * candidate r<k><letter>, recorded in the iteration's `remixes` as soon as it is made. A round that makes one remix from a
 * proposal (a pooled round that elected one direction, issue 41) is still r<k> and remix.png, its one `remix` keeping the
 * proposal's `letter`.
 */
import * as path from 'node:path';
import { requireSharp } from '../images/sharp';
import { readImageFile, toPng, type ImageFile } from '../llm/images';
import { imageCost, imageOutputTokens } from '../llm/pricing';
import { addPrompt, nextPromptId, type StepContext } from '../step/context';
import { describeError, isAbort } from '../llm/errors';
import { CancelledError, StepError, withChildSignal } from '../kernel/errors';
import type { Iteration, Proposal, Remix, RunOption, Usage } from '../record/record';
import { formatBytes, LIMITS } from '../files/reviewFiles';
import { writeReviewFile } from '../files/reviewWrites';
import { reviewRelative } from '../record/paths';
import { remixFileInRun } from '../record/recordCheck';
import { idLetterOf } from '../record/remixes';

export interface ImageEditInput {
  iteration: Iteration;
  /** The inputs in order (the remix agent's ranking, or the proposal's `from`): their ids and files relative to the review root. */
  inputs: readonly { id: string; file: string }[];
  /**
   * The proposal this edit makes (its letter and directions): several remixes a round, or a pooled round's one elected
   * direction (issue 41); absent: the round's one remix from the iteration's directions.
   */
  proposal?: Proposal;
  /**
   * Several edits at once: runs what writes the record (the image file, the prompt, the option, the save) one at a time, so
   * concurrent edits never interleave their records. Default: at once.
   */
  serial?: <T>(fn: () => T | Promise<T>) => Promise<T>;
  /** Cited references that go after the candidates (already cut to the endpoint's limit: referencesForEdit). */
  references?: readonly { id: string; file: string }[];
  /** How the input files are read: the round's reads (roundImageReads), else each read here. */
  read?: (file: string) => Promise<ImageFile>;
  /** Told the remix's file (relative to the review root) as soon as it is written, before the record is. */
  written?: (file: string) => void;
}

/**
 * Input images one edit request may carry: OpenAI's spec says "up to 16" for the GPT image models (and what the mock
 * enforces); dall-e-2 takes one.
 */
export function maxEditImages(model: string): number {
  return /^dall-e-2/i.test(model) ? 1 : 16;
}

/**
 * The cited references that go to the edit after the candidates, in the order cited, within the endpoint's limit on input
 * images; the rest are dropped (said in a notice and recorded as `remix.referencesDropped`).
 */
export function referencesForEdit(candidates: number, cited: readonly string[], model: string): { sent: string[]; dropped: string[] } {
  const room = Math.max(0, maxEditImages(model) - candidates);
  const unique = [...new Set(cited)];
  return { sent: unique.slice(0, room), dropped: unique.slice(room) };
}

export { remixFileInRun };

export async function runImageEdit(ctx: StepContext, e: ImageEditInput): Promise<RunOption> {
  const it = e.iteration;
  const letter = e.proposal?.letter;
  // Letters in the id and file only when the round makes more than one remix (record/remixes.ts idLetterOf).
  const idLetter = idLetterOf(it, letter);
  const serial = e.serial ?? (<T>(fn: () => T | Promise<T>) => Promise.resolve().then(fn));
  const prompt = (e.proposal ? e.proposal.editingDirections : it.editingDirections)?.trim();
  if (!prompt)
    throw new StepError(`Iteration ${it.index} has no editing directions${letter ? ` for remix ${letter}` : ''}, so no remix can be made.`);
  const from = e.inputs.map((i) => i.id);
  const fileInRun = remixFileInRun(it.index, idLetter);
  const file = reviewRelative(ctx.record.id, fileInRun);
  // A remix made again on resume replaces its earlier entry and keeps the next free label.
  const others = ctx.record.options.filter((o) => o.file !== file);
  const remixId = remixIdFor(others, it.index, idLetter);
  ctx.emit({ type: 'image-edit-started', runId: ctx.record.id, iteration: it.index, from, ...(letter ? { remixId } : {}) });

  const all = [...e.inputs, ...(e.references ?? [])];
  const readFile = e.read ?? ((file: string) => readImageFile(ctx.reviewRoot, file));
  const read = await Promise.all(all.map(async (i) => ({ ...i, ...(await readFile(i.file)) })));
  const images = read.map((r) => ({ data: r.data, name: path.posix.basename(r.file), mime: r.mime }));
  const promptRecord = {
    iteration: it.index,
    kind: 'image-edit' as const,
    model: ctx.settings.imageModel,
    at: new Date().toISOString(),
    prompt,
    inputs: read.map((r) => ({ file: r.file, sha256: r.sha256, mime: r.mime })),
    ...sizeAndQuality(ctx),
  };

  let png: Buffer;
  let reported: Usage | undefined;
  try {
    const res = await withChildSignal(ctx.signal, (signal) =>
      ctx.images.edit({ model: ctx.settings.imageModel, images, prompt, ...sizeAndQuality(ctx), signal }),
    );
    reported = reportedUsage(res.usage);
    let bytes: Buffer | undefined;
    if (res.b64) bytes = Buffer.from(res.b64, 'base64');
    else if (res.url) bytes = await download(res.url, ctx.signal);
    if (!bytes?.length) throw new StepError('The image-edit model answered without an image (it may have refused the request).');
    try {
      png = await toPng(bytes);
    } catch {
      throw new StepError('The image-edit model answered with data that is not an image.');
    }
  } catch (err) {
    if (isAbort(err, ctx.signal)) throw new CancelledError();
    const message = describeError(err, letter ? `The image edit of remix ${remixId}` : 'The image edit');
    await serial(() => addPrompt(ctx.record, { id: nextPromptId(ctx.record), ...promptRecord, error: message }));
    throw new StepError(message);
  }
  return serial(async () => {
    await writeReviewFile(ctx.reviewRoot, file, png);
    e.written?.(file);
    const usage = reported ?? (await estimatedUsage(png, prompt, ctx.settings.imageQuality));
    const cost = imageCost(usage, ctx.settings.imageModel, ctx.prices);
    addPrompt(ctx.record, {
      id: nextPromptId(ctx.record),
      ...promptRecord,
      usage: { ...usage, ...(cost === undefined ? {} : { costUsd: round6(cost) }) },
    });
    ctx.record.options = ctx.record.options.filter((o) => o.file !== file);
    const option: RunOption = { id: remixId, label: `Image ${ctx.record.options.length + 1}`, file };
    ctx.record.options.push(option);
    const remix: Remix = {
      id: remixId,
      file: fileInRun,
      ...(letter ? { letter } : {}),
      from,
      ...(e.proposal?.fork ? { fork: { ...e.proposal.fork } } : {}),
    };
    if (cost !== undefined) remix.costUsd = round6(cost);
    if (e.references?.length) remix.references = e.references.map((r) => r.id);
    const dropped = (it.references ?? []).filter((id) => !e.references?.some((r) => r.id === id));
    if (dropped.length) remix.referencesDropped = dropped;
    if (idLetter) {
      // Several a round: the remixes made so far, in letter order (the record says which edits are done).
      it.remixes = [...(it.remixes ?? []).filter((m) => m.letter !== letter), remix].sort((a, b) =>
        (a.letter ?? '').localeCompare(b.letter ?? ''),
      );
    } else {
      it.remix = remix;
    }
    await ctx.save();
    ctx.emit({ type: 'remix-created', runId: ctx.record.id, iteration: it.index, remixId, file: fileInRun });
    return option;
  });
}

/** The size and quality asked for (run settings; absent in records made before they existed). */
function sizeAndQuality(ctx: StepContext): {
  size?: NonNullable<StepContext['settings']['imageSize']>;
  quality?: NonNullable<StepContext['settings']['imageQuality']>;
} {
  const out: ReturnType<typeof sizeAndQuality> = {};
  if (ctx.settings.imageSize) out.size = ctx.settings.imageSize;
  if (ctx.settings.imageQuality) out.quality = ctx.settings.imageQuality;
  return out;
}

/** The token usage the server reported (gpt-image models do), as ours. */
function reportedUsage(
  u: { input_tokens?: number; output_tokens?: number; input_tokens_details?: { text_tokens?: number; image_tokens?: number } } | undefined,
): Usage | undefined {
  if (!u || typeof u.output_tokens !== 'number' || u.output_tokens <= 0) return undefined;
  const text = u.input_tokens_details?.text_tokens ?? u.input_tokens ?? 0;
  const images = u.input_tokens_details?.image_tokens ?? 0;
  return {
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    images: 1,
    imageTextInputTokens: text,
    imageInputTokens: images,
    imageOutputTokens: u.output_tokens,
  };
}

/**
 * When the server reports no usage: output tokens from the published table (quality asked for, shape of the image
 * returned), the prompt's text tokens as characters ÷ 4; input-image tokens are then unknown and not counted.
 */
async function estimatedUsage(png: Buffer, prompt: string, quality: string | undefined): Promise<Usage> {
  const meta = await requireSharp()(png).metadata();
  return {
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    images: 1,
    imageTextInputTokens: Math.ceil(prompt.length / 4),
    imageOutputTokens: imageOutputTokens(quality, meta.width ?? 1024, meta.height ?? 1024),
  };
}

function round6(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

async function download(url: string, signal?: AbortSignal): Promise<Buffer> {
  const res = await fetch(url, { signal });
  if (!res.ok) throw new StepError(`The remixed image could not be downloaded (HTTP ${res.status}).`);
  const tooLarge = (): StepError => new StepError(`The remixed image is larger than ${formatBytes(LIMITS.imageBytes)}; it is not saved.`);
  if (Number(res.headers.get('content-length') ?? 0) > LIMITS.imageBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of (res.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
    total += (chunk as Uint8Array).length;
    if (total > LIMITS.imageBytes) throw tooLarge();
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/**
 * "r<k>" (several a round: "r<k><letter>"), unless an option of the review is already called that (then "remix-<k>",
 * "remix-<k>-2", …, or "remix-<k><letter>", …).
 */
export function remixIdFor(options: readonly RunOption[], k: number, letter = ''): string {
  const taken = new Set(options.map((o) => o.id));
  if (!taken.has(`r${k}${letter}`)) return `r${k}${letter}`;
  let id = `remix-${k}${letter}`;
  for (let n = 2; taken.has(id); n++) id = `remix-${k}${letter}-${n}`;
  return id;
}
