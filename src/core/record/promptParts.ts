/**
 * Prompts recorded as parts, so that a run record stays small however large the team.
 *
 * Every prompt sent is recoverable exactly, but the record does not repeat what earlier prompts already held: each distinct
 * recorded message (system text, the shared block with its image references, one transcript line, a persona …) is
 * written ONCE, as one line of the append-only file `runs/<id>/prompts.jsonl` (flushed and fsync'd before the run.json
 * that refers to it), and a prompt in run.json keeps only
 *   - `base` (optional): "the first n messages of prompt p<k>", an earlier prompt — the one, among the last few, that
 *     shares the longest start with it (a proxy turn repeats the turn before it and adds one transcript line);
 *   - `parts`: the lines that follow, as ranges `[first line, count]` (0-based);
 *   - `sha256`: of the exact recorded messages (JSON), checked when the prompt is rebuilt.
 * So a prompt costs a few numbers in run.json, whatever the size of the team.
 * This works on recorded messages, whatever composed them (prompt layers, human messages, pins): nothing here knows how a
 * prompt is built. Records written before this (full `messages` in every prompt) still read; `rebuildPrompt` returns
 * their messages as they are.
 */
import { createHash } from 'node:crypto';
import { FILE_KINDS, checkKindText, readKindText } from '../files/fileKinds';
import { ReviewFileError } from '../files/reviewFiles';
import { HeldAppend, appendReviewFile, readOwnText, truncateReviewFile } from '../files/reviewWrites';
import { at as entryAt } from '../kernel/arrays';
import { printable } from '../kernel/text';
import type { RecordedMessage } from './record';
import { RecordedMessageSchema, type PromptRecord, type RunRecord } from './record';
import { RECORD_LIMITS } from './recordCheck';
import { countWrite, reviewRelative } from './paths';
import { byteLength, refuseOverCap } from '../files/writeCaps';

export const PARTS_FILE = 'prompts.jsonl';
/** How many earlier prompts are compared when choosing a prompt's base. */
const BASE_WINDOW = 8;
/** Byte cap of prompts.jsonl when it is read (a 48-designer run writes well under 1 MB). */
export const PARTS_MAX_BYTES = FILE_KINDS.promptParts.maxBytes;

export function partsFile(runId: string): string {
  return reviewRelative(runId, PARTS_FILE);
}

/** sha256 (hex) of recorded messages as JSON: what `PromptRecord.sha256` holds. */
export function messagesDigest(messages: readonly RecordedMessage[]): string {
  return createHash('sha256').update(JSON.stringify(messages)).digest('hex');
}

/** The lines of prompts.jsonl, parsed; a last line without its newline (a write cut off by a crash) is left out. */
function parseLines(text: string, file: string): RecordedMessage[] {
  const lines = text.split('\n');
  lines.pop(); // after the last newline: empty, or a line cut off
  return lines.map((line, i) => {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new ReviewFileError(file, `${file}:${i + 1}:1: error: This line is not valid JSON; the prompt parts cannot be read.`);
    }
    const parsed = RecordedMessageSchema.safeParse(json);
    if (!parsed.success) throw new ReviewFileError(file, `${file}:${i + 1}:1: error: This line is not a recorded message.`);
    return parsed.data;
  });
}

/** The table of a run's prompt parts (line i = part i); empty when the run has none. Throws ReviewFileError naming the file. */
export async function readPromptParts(reviewRoot: string, runId: string): Promise<RecordedMessage[]> {
  const file = partsFile(runId);
  let text: string;
  try {
    text = await readKindText(reviewRoot, file, 'promptParts');
  } catch (err) {
    if (err instanceof ReviewFileError && err.reason === 'missing') return [];
    throw err;
  }
  return parseLines(text, file);
}

/**
 * The part numbers a prompt is made of, following its `base` chain (bases must be earlier prompts). Nothing is expanded
 * but the one prompt asked for: the chain is walked down iteratively, each prompt giving the parts of its own range that
 * the prompt above still needs, so the work is the chain's length plus the prompt's size (a chain 30 000 deep costs
 * 30 000 steps, not 30 000 lists). `known` holds lists already built (the writer's own prompts): a walk stops there.
 * Throws in words on a broken reference. The record check (recordCheck.ts) bounds the depth and the size beforehand.
 */
export function partNumbers(
  prompts: readonly PromptRecord[],
  promptId: string,
  partCount: number,
  known: Map<string, number[]> = new Map(),
): number[] {
  const cached = known.get(promptId);
  if (cached) return cached;
  const position = new Map<string, number>();
  for (const [i, p] of prompts.entries()) if (!position.has(p.id)) position.set(p.id, i);
  const top = position.get(promptId);
  if (top === undefined) throw new Error(`The run has no prompt "${printable(promptId)}".`);
  const own = (p: PromptRecord): number => (p.parts ?? []).reduce((n, [, count]) => n + count, 0);
  const topPrompt = entryAt(prompts, top);
  const length = (topPrompt.base?.messages ?? 0) + own(topPrompt);
  if (length > RECORD_LIMITS.promptMessages) {
    throw new Error(`Prompt ${printable(promptId)} would have ${length} messages, more than ${RECORD_LIMITS.promptMessages}.`);
  }
  const out: number[] = new Array<number>(length);
  // `need`: how many of the first messages of the current prompt are still to be filled in.
  let need = length;
  let at = top;
  let taker = promptId;
  let depth = 0;
  for (;;) {
    const p = entryAt(prompts, at);
    const start = p.base?.messages ?? 0;
    const end = start + own(p);
    if (need > end) {
      throw new Error(`Prompt ${printable(taker)} takes ${need} messages of ${printable(p.id)}, which has ${end}.`);
    }
    let k = start;
    for (const [first, count] of p.parts ?? []) {
      if (k >= need) break;
      if (first + count > partCount) {
        throw new Error(
          `Prompt ${printable(p.id)} refers to lines ${first + 1}–${first + count} of ${PARTS_FILE}, which has ${partCount}.`,
        );
      }
      for (let n = 0; n < count && k < need; n++) out[k++] = first + n;
    }
    need = Math.min(need, start);
    // need is 0 once a prompt without a base (start 0) is reached.
    if (need === 0 || !p.base) break;
    const base = p.base.prompt;
    const b = position.get(base);
    if (b === undefined || b >= at) {
      throw new Error(`Prompt ${printable(p.id)} is based on "${printable(base)}", which is not an earlier prompt of the run.`);
    }
    if (++depth > RECORD_LIMITS.baseDepth) {
      throw new Error(`Prompt ${printable(promptId)} is built on a chain of more than ${RECORD_LIMITS.baseDepth} earlier prompts.`);
    }
    const list = known.get(base);
    if (list) {
      if (need > list.length)
        throw new Error(`Prompt ${printable(p.id)} takes ${need} messages of ${printable(base)}, which has ${list.length}.`);
      for (let n = 0; n < need; n++) out[n] = entryAt(list, n);
      break;
    }
    taker = p.id;
    at = b;
  }
  return out;
}

/**
 * The exact messages a prompt sent (images as references), rebuilt from its parts and checked against its sha256.
 * `parts` is the run's table (readPromptParts); not needed for prompts recorded in full by older versions. Undefined for
 * prompts that have no messages (image edits: their prompt text and inputs are in the record itself).
 */
export function rebuildPrompt(
  record: Pick<RunRecord, 'prompts'>,
  promptId: string,
  parts: readonly RecordedMessage[] = [],
  known?: Map<string, number[]>,
): RecordedMessage[] | undefined {
  const p = record.prompts.find((x) => x.id === promptId);
  if (!p) throw new Error(`The run has no prompt "${printable(promptId)}".`);
  if (p.messages) return p.messages;
  if (!p.parts && !p.base) return undefined;
  const out = partNumbers(record.prompts, promptId, parts.length, known).map((i) => entryAt(parts, i));
  if (p.sha256 && messagesDigest(out) !== p.sha256) {
    throw new Error(`Prompt ${printable(promptId)} rebuilt from ${PARTS_FILE} does not match its recorded fingerprint (sha256).`);
  }
  return out;
}

/** rebuildPrompt for one prompt of a run on disk. */
export async function loadPrompt(reviewRoot: string, record: RunRecord, promptId: string): Promise<RecordedMessage[] | undefined> {
  const p = record.prompts.find((x) => x.id === promptId);
  return rebuildPrompt(record, promptId, p && !p.messages ? await readPromptParts(reviewRoot, record.id) : []);
}

/**
 * The writer a driver holds: knows every part written so far (it reads the file when a run is resumed), turns full-text
 * prompts into references, and appends new parts. `flush()` before writing run.json.
 */
export class PromptPartsWriter {
  private readonly index = new Map<string, number>();
  /** Part numbers of the prompts seen (a cache for choosing bases). */
  private readonly expanded = new Map<string, number[]>();
  private count = 0;
  /** Bytes of prompts.jsonl so far (an append that would pass its read cap is refused before it is written). */
  private bytes = 0;
  private pending: string[] = [];
  /** The flush going on (flushes run one after another). */
  private flushing: Promise<void> = Promise.resolve();
  /** The file kept open between flushes (`hold`), or opened for each flush. */
  private held: HeldAppend | undefined;

  private constructor(
    private readonly reviewRoot: string,
    private readonly runId: string,
  ) {}

  /** `hold`: keep prompts.jsonl open between flushes (HeldAppend; `close()` when the run ends). */
  static async open(reviewRoot: string, runId: string, hold = false): Promise<PromptPartsWriter> {
    const w = new PromptPartsWriter(reviewRoot, runId);
    if (hold) w.held = new HeldAppend(reviewRoot, partsFile(runId));
    const file = partsFile(runId);
    let text = '';
    try {
      // The tool's own file: read without following a link at any level (a link here is refused before anything changes).
      text = await readOwnText(reviewRoot, file, PARTS_MAX_BYTES);
      checkKindText(file, text, 'promptParts');
    } catch (err) {
      if (!(err instanceof ReviewFileError && err.reason === 'missing')) throw err;
    }
    const complete = text.lastIndexOf('\n') + 1;
    if (complete < text.length) {
      // A line cut off by a crash: no record refers to it (parts are flushed before run.json); drop it before appending.
      await truncateReviewFile(reviewRoot, file, Buffer.byteLength(text.slice(0, complete)));
    }
    w.bytes = Buffer.byteLength(text.slice(0, complete));
    for (const m of parseLines(text.slice(0, complete), file)) w.add(JSON.stringify(m));
    w.pending = [];
    return w;
  }

  /** The part number of a message (canonical JSON), appending it when new. */
  private add(json: string): number {
    let i = this.index.get(json);
    if (i === undefined) {
      i = this.count++;
      this.index.set(json, i);
      this.pending.push(json);
    }
    return i;
  }

  /**
   * Replaces the full `messages` of every prompt of the record by references (in place): the longest start shared with
   * one of the last BASE_WINDOW prompts becomes `base`, the rest `parts`.
   */
  compact(record: RunRecord): void {
    const prompts = record.prompts;
    for (const [i, p] of prompts.entries()) {
      if (!p.messages) continue;
      const mine = p.messages.map((m) => this.add(JSON.stringify(m)));
      let best: { prompt: string; messages: number } | undefined;
      for (let j = i - 1; j >= Math.max(0, i - BASE_WINDOW); j--) {
        const q = entryAt(prompts, j);
        if (q.messages || (!q.parts && !q.base)) continue;
        let theirs: number[];
        try {
          theirs = partNumbers(prompts, q.id, this.count, this.expanded);
        } catch {
          continue;
        }
        let n = 0;
        while (n < mine.length && n < theirs.length && mine[n] === theirs[n]) n++;
        if (n >= 2 && n > (best?.messages ?? 0)) best = { prompt: q.id, messages: n };
      }
      const parts: [number, number][] = [];
      for (const k of mine.slice(best?.messages ?? 0)) {
        const last = parts.at(-1);
        if (last && last[0] + last[1] === k) last[1]++;
        else parts.push([k, 1]);
      }
      if (best) p.base = best;
      if (parts.length) p.parts = parts;
      p.sha256 = messagesDigest(p.messages);
      delete p.messages;
      this.expanded.set(p.id, mine);
    }
  }

  /**
   * The parts of a prompt being sent, written (and synced) while its request is in flight, so the save after its answer
   * has only the journal line left to sync (compact finds the parts already written). A failure here is not lost: the
   * parts stay pending and the next flush writes them or throws. A part whose request never answered stays in the file,
   * referred to by no prompt (as after a crash between a flush and the run.json that refers to it).
   */
  ahead(messages: readonly RecordedMessage[]): void {
    for (const m of messages) this.add(JSON.stringify(m));
    this.flush().catch(() => undefined);
  }

  /**
   * Appends the new parts to prompts.jsonl and syncs them to disk (contained; never through a symlink), after any flush
   * still going on (one append at a time, in part order): once it returns, every part added before the call is durable.
   */
  flush(): Promise<void> {
    const next = this.flushing.catch(() => undefined).then(() => this.flushPending());
    this.flushing = next;
    return next;
  }

  private async flushPending(): Promise<void> {
    if (this.pending.length === 0) return;
    const data = `${this.pending.join('\n')}\n`;
    refuseOverCap(partsFile(this.runId), byteLength(data), PARTS_MAX_BYTES, this.bytes);
    // The parts this flush writes, taken before it writes them (parts added meanwhile are the next flush's).
    const taken = this.pending;
    this.pending = [];
    try {
      if (this.held) await this.held.append(data);
      else await appendReviewFile(this.reviewRoot, partsFile(this.runId), data, { sync: true });
    } catch (err) {
      this.pending = [...taken, ...this.pending];
      throw err;
    }
    countWrite(Buffer.byteLength(data));
    this.bytes += byteLength(data);
  }

  /** Closes prompts.jsonl if it is held open (after a flush still going on). */
  async close(): Promise<void> {
    await this.flushing.catch(() => undefined);
    await this.held?.close();
  }
}
