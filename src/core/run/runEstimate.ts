/**
 * What a new run will send, estimated from the review and the settings before anything is sent: the number of requests,
 * their cost (price table × tokens estimated from the text each turn carries) and the size of the largest request. The
 * runner refuses a run whose largest request would pass MAX_REQUEST_BYTES, and asks the one cost question
 * (core/llm/costQuestion.ts) for a run above its thresholds — both before a single request is built.
 */
import { estimateCost, type PriceTable } from '../llm/pricing';
import { MAX_REQUEST_TEXT_BYTES } from '../llm/messages';
import { askBeforeSending, type ConfirmCost, type WorkCost } from '../llm/costQuestion';
import type { RunSettings, RunTaskKind } from '../record/record';
import type { Review } from '../review/model';
import { poolOf } from '../record/remixes';
import { checklistRepeatOf } from '../settings/discussionSettings';

/** Tokens per byte of text, for an estimate (about four characters a token). */
const BYTES_PER_TOKEN = 4;
/** Tokens of one image a proxy sees (a 1024-pixel image at high detail is about 765). */
const TOKENS_PER_IMAGE = 800;
/** Tokens of one answer (a turn is asked for at most 120 words; a revision is longer). */
const TOKENS_PER_ANSWER = 400;
/** Tokens of one set of directions in a pool (its four parts, sources and how it differs). */
const TOKENS_PER_PROPOSAL = 250;

export interface RunEstimate {
  cost: WorkCost;
  /** Bytes of text every proxy turn carries (the brief, every member's words, guests, notes), before the transcript. */
  sharedBytes: number;
  /** The file that carries most of it, for the sentence of a refusal. */
  largestFile?: { file: string; bytes: number };
}

const bytes = (s: string | undefined): number => (s ? Buffer.byteLength(s, 'utf8') : 0);

/** The estimate of a new run of `review` (already the task's view: `designers` are the members whose proxies speak). */
export function estimateRun(review: Review, kind: RunTaskKind, settings: RunSettings, prices?: PriceTable): RunEstimate {
  const members = settings.designers?.length ?? review.designers.length;
  const guests = settings.guests?.length ?? 0;
  const rounds = settings.iterations;
  const files: { file: string; bytes: number }[] = [{ file: 'brief.md', bytes: bytes(review.brief) }];
  for (const c of review.comments) files.push({ file: c.file, bytes: bytes(c.body) + bytes(c.name) + bytes(c.role) });
  for (const d of review.designers) {
    if (d.file.startsWith('rankings/'))
      files.push({ file: d.file, bytes: d.entries.reduce((n, e) => n + bytes(e.justification) + bytes(e.option), 0) + bytes(d.name) });
  }
  for (const g of review.config.guests ?? [])
    files.push({ file: 'review.yaml', bytes: bytes(g.name) + bytes(g.role) + bytes(g.perspective) });
  for (const r of review.references ?? []) files.push({ file: r.file, bytes: bytes(r.note) });
  const sharedBytes = files.reduce((n, f) => n + f.bytes, 0);
  const largestFile = files.reduce<{ file: string; bytes: number } | undefined>((a, f) => (!a || f.bytes > a.bytes ? f : a), undefined);

  const turnsPerRound = members * settings.turnsPerAgent + guests;
  let requests: number;
  let edits = 0;
  // A pool's and the checklist's requests (issue 41), counted in the requests and said in the cost question.
  let pooled = 0;
  let checks = 0;
  let checkRepeat = 0;
  // Tokens a pool adds: the agent's K proposals in its answer (and the re-ask's), and the K proposals every ranking reads.
  let poolInput = 0;
  let poolOutput = 0;
  // A round that forks (forks auto or ask) makes one remix per side in place of its others: 2 to 4, each side held by a member.
  const forking = (settings.forks ?? 'off') !== 'off';
  if (kind === 'brief') {
    // Each round: every member's turns, then one revision (and, when it forks, one request for the passage each way); then one direct baseline.
    requests = rounds * (turnsPerRound + 1 + (forking ? 1 : 0)) + 1;
  } else {
    // Each round: the turns and the remix agent (its consensus or final pick); each round but the last: its image edits.
    const remixes = settings.remixesPerIteration ?? 1;
    edits = Math.max(0, rounds - 1) * (forking ? Math.max(remixes, Math.min(4, members)) : remixes);
    // A pool (issue 41): each remix round also asks every member's proxy for a ranking, and at most one re-ask.
    const k = poolOf(settings);
    const remixRounds = Math.max(0, rounds - 1);
    pooled = k > 1 ? remixRounds * (members + 1) : 0;
    if (k > 1) {
      poolOutput = remixRounds * 2 * (k - 1) * TOKENS_PER_PROPOSAL;
      poolInput = remixRounds * (members + 1) * k * TOKENS_PER_PROPOSAL;
    }
    // The brief as a checklist (issue 41): one request for its must-haves, then each remix checked `repeat` times.
    checkRepeat = checklistRepeatOf(settings);
    checks = checkRepeat && rounds > 1 ? 1 + edits * checkRepeat : 0;
    requests = rounds * (turnsPerRound + 1) + edits + pooled + checks;
  }
  const images = kind === 'design' ? review.options.length + (review.references?.length ?? 0) : 0;
  // A turn carries the shared text, the images and, on average, half of a round's transcript.
  const inputPerRequest = sharedBytes / BYTES_PER_TOKEN + images * TOKENS_PER_IMAGE + (turnsPerRound * TOKENS_PER_ANSWER) / 2;
  const chatRequests = requests - edits;
  const usage = {
    inputTokens: Math.round(chatRequests * inputPerRequest + poolInput),
    cachedInputTokens: 0,
    outputTokens: chatRequests * TOKENS_PER_ANSWER + poolOutput,
    images: edits,
  };
  const estimateUsd = estimateCost(usage, settings, prices);
  const extras = [
    ...(pooled
      ? [`${pooled} to elect from pools of ${poolOf(settings)} directions (each member's ranking and one re-ask a remix round)`]
      : []),
    ...(checks
      ? [
          `${checks} to hold the remixes to the brief's checklist (its list, then each remix checked ${checkRepeat === 1 ? 'once' : checkRepeat === 2 ? 'twice' : `${checkRepeat} times`})`,
        ]
      : []),
  ];
  const of = `${rounds} round${rounds === 1 ? '' : 's'} of ${members} member${members === 1 ? '' : 's'}${guests ? ` and ${guests} guest${guests === 1 ? '' : 's'}` : ''}${extras.length ? `, of them ${extras.join(' and ')}` : ''}`;
  return {
    cost: { requests, of, ...(estimateUsd === undefined ? {} : { estimateUsd }) },
    sharedBytes,
    ...(largestFile ? { largestFile } : {}),
  };
}

/** One sentence when the run's requests would be larger than a request may be (undefined when they fit). */
export function oversizedRun(e: RunEstimate): string | undefined {
  if (e.sharedBytes <= MAX_REQUEST_TEXT_BYTES) return undefined;
  const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return (
    `Every turn of this run would carry ${mb(e.sharedBytes)} of the team's text, more than the ${mb(MAX_REQUEST_TEXT_BYTES)} of text a request may carry` +
    `${e.largestFile ? ` (the largest part: ${e.largestFile.file}, ${mb(e.largestFile.bytes)})` : ''}; nothing was sent. Shorten the comments or run fewer members.`
  );
}

/** A run refused for its size before anything was sent (one sentence). */
export class RunTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunTooLargeError';
  }
}

/** Refuses a run too large for a request (RunTooLargeError), then asks the cost question (CostNotConfirmedError on no). */
export async function checkRunWork(e: RunEstimate, confirm: ConfirmCost | undefined, subject: string): Promise<void> {
  const tooLarge = oversizedRun(e);
  if (tooLarge) throw new RunTooLargeError(tooLarge);
  await askBeforeSending(e.cost, confirm, subject);
}
