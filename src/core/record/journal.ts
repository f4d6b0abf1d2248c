/**
 * The run journal, `runs/<id>/journal.jsonl` (contract §6): what a run adds between two rewrites of run.json, one JSON
 * object a line, each `iteration` plus exactly one payload key:
 *   - `message`: a message exactly as run.json keeps it (id included);
 *   - `prompt`: the prompt record that produced a message (so usage and the prompt behind a message survive a crash);
 *   - `pins`: the run's pins after a change (the whole list: a pin and an unpin alike);
 *   - `takenIn`: the id of an inbox entry taken in;
 *   - `poolRanking`: a designer's proxy's ranking of the round's pool ({ member, ranking }), as run.json keeps it;
 *   - `checkpoint`: run.json was rewritten whole with this `updatedAt`; the lines before it are in that run.json.
 * Lines are appended and synced before the message they carry is acknowledged (an event, the inbox entry deleted).
 * run.json is rewritten whole only at round boundaries and status changes (RecordWriter decides), each time with
 * everything so far; between rewrites a reader applies the journal in order over run.json (applyJournal), skipping
 * what run.json already holds by id. A torn last line (a write cut off by a crash) is ignored and its turn redone; any
 * other line that does not parse, fails the checks of intake and membership (journalCheck.ts) or disagrees with run.json
 * is refused in words (file:line) and never applied: the journal holds only what the driver would have written, and a
 * line appended by anyone else can neither forge a message or pin nor make the run unreadable.
 */
import { readKindText } from '../files/fileKinds';
import { ReviewFileError, lstatInReview } from '../files/reviewFiles';
import { HeldAppend, appendReviewFile, truncateReviewFile } from '../files/reviewWrites';
import { error, warning } from '../diagnostics/diagnostics';
import type { Diagnostic } from '../diagnostics/diagnostics';
import { zodSentence } from '../kernel/zodText';
import { JournalLineSchema, lineProblem, readRoster, type JournalLine, type Roster } from './journalCheck';
import { addUsage } from '../kernel/usage';
import { messageId, type Pin, type PromptRecord, type RunRecord } from './record';
import { countWrite, reviewRelative } from './paths';
import { errorMessage } from '../kernel/errors';

export const JOURNAL_FILE = 'journal.jsonl';
export function journalFile(runId: string): string {
  return reviewRelative(runId, JOURNAL_FILE);
}

export { JournalLineSchema, type JournalLine };

/** A journal that cannot be used: its diagnostic names the file and the line. */
export class JournalError extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
    this.name = 'JournalError';
  }
}

/** A line of the journal refused (never applied), in words at its line: `file:line:1`. */
export type Refused = Diagnostic;

/**
 * The lines of a journal's text, each with its line number; a last line without its newline (torn by a crash) is left
 * out (its turn is redone). A line that is not JSON or not a journal line is refused in words and never applied.
 */
export function parseJournal(text: string, file: string): { lines: JournalLine[]; at: number[]; refused: Refused[]; torn: boolean } {
  const raw = text.split('\n');
  const tail = raw.pop(); // after the last newline: empty, or a line cut off
  const lines: JournalLine[] = [];
  const at: number[] = [];
  const refused: Refused[] = [];
  raw.forEach((line, i) => {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      refused.push(
        warning(file, 'This journal line is not valid JSON (only a last line cut off by a crash is redone); it is not applied.', i + 1, 1),
      );
      return;
    }
    const parsed = JournalLineSchema.safeParse(json);
    if (!parsed.success) {
      refused.push(
        warning(
          file,
          `This journal line is not one the run writes (${zodSentence(parsed.error, 'the line')}); it is not applied.`,
          i + 1,
          1,
        ),
      );
      return;
    }
    lines.push(parsed.data);
    at.push(i + 1);
  });
  return { lines, at, refused, torn: tail !== undefined && tail !== '' };
}

/** What a journal added on top of run.json. */
export interface JournalMerge {
  /** Inbox entries taken in (by id), as the journal says. */
  takenIn: Set<string>;
  /** Lines applied (not already held by run.json). */
  applied: number;
  /** Lines refused (not applied), each in words at its line. */
  refused: Refused[];
}

/**
 * Applies journal lines in order over a record read from run.json (in place). Lines up to the checkpoint matching the
 * record's `updatedAt` are in it already; after that, what the record holds by id is skipped if it is the same; a new
 * message must be the next of its iteration and pass membership (journalCheck.ts), a new prompt the next of the run.
 * A line that fails is refused in words (`refused`) and not applied: the run stays readable. `lineNo[i]`: line i's number.
 */
export function applyJournal(
  record: RunRecord,
  lines: readonly JournalLine[],
  file: string,
  roster?: Roster,
  lineNo?: readonly number[],
): JournalMerge {
  const out: JournalMerge = { takenIn: new Set(), applied: 0, refused: [] };
  let start = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i]!;
    if ('checkpoint' in l && l.checkpoint === record.updatedAt) {
      start = i + 1;
      break;
    }
  }
  const promptIds = new Map(record.prompts.map((p, i) => [p.id, i] as const));
  for (let i = start; i < lines.length; i++) {
    const l = lines[i]!;
    const refuse = (why: string): void => {
      out.refused.push(warning(file, `${why} This line is not applied.`, lineNo?.[i] ?? i + 1, 1));
    };
    if ('checkpoint' in l) continue;
    if ('takenIn' in l) {
      out.takenIn.add(l.takenIn);
      if (!record.takenIn?.includes(l.takenIn)) {
        (record.takenIn ??= []).push(l.takenIn);
        out.applied++;
      }
      continue;
    }
    const problem = roster ? lineProblem(record, l, roster) : undefined;
    if (problem) {
      refuse(problem);
      continue;
    }
    if ('poolRanking' in l) {
      const { member, ranking } = l.poolRanking;
      const pool = record.iterations.find((x) => x.index === l.iteration)?.pool;
      if (!pool) {
        refuse(`Iteration ${l.iteration} has no pool in run.json.`);
        continue;
      }
      const held = pool.rankings[member];
      if (held) {
        if (JSON.stringify(held) !== JSON.stringify(ranking))
          refuse(`${member}'s proxy's ranking of the pool differs from the one in run.json.`);
        continue;
      }
      pool.rankings[member] = ranking;
      out.applied++;
      continue;
    }
    if ('pins' in l) {
      if (JSON.stringify(record.pins ?? []) !== JSON.stringify(l.pins)) out.applied++;
      record.pins = l.pins.length ? l.pins : undefined;
      continue;
    }
    if ('prompt' in l) {
      const at = promptIds.get(l.prompt.id);
      if (at !== undefined) {
        if (JSON.stringify(record.prompts[at]) !== JSON.stringify(l.prompt))
          refuse(`Prompt ${l.prompt.id} differs from the one in run.json.`);
        continue;
      }
      if (l.prompt.id !== `p${record.prompts.length + 1}`) {
        refuse(`Prompt ${l.prompt.id} is not the next prompt of the run (p${record.prompts.length + 1}).`);
        continue;
      }
      record.prompts.push(l.prompt);
      promptIds.set(l.prompt.id, record.prompts.length - 1);
      if (l.prompt.usage) addUsage(record.usage, l.prompt.usage);
      out.applied++;
      continue;
    }
    const it = record.iterations.find((x) => x.index === l.iteration);
    if (!it) {
      refuse(`Iteration ${l.iteration} is not in run.json.`);
      continue;
    }
    const held = it.messages.find((m) => m.id === l.message.id);
    if (held) {
      if (JSON.stringify(held) !== JSON.stringify(l.message)) refuse(`Message ${l.message.id} differs from the one in run.json.`);
      continue;
    }
    const next = messageId(l.iteration, it.messages.length + 1);
    if (l.message.id !== next) {
      refuse(`Message ${l.message.id} is not the next message of iteration ${l.iteration} (${next}).`);
      continue;
    }
    if (l.message.promptId !== undefined && !promptIds.has(l.message.promptId)) {
      refuse(`Message ${l.message.id} names prompt ${l.message.promptId}, which the run does not have.`);
      continue;
    }
    it.messages.push(l.message);
    out.applied++;
  }
  return out;
}

/**
 * The journal of a run, parsed; undefined when there is none. A link (even inside the review), a FIFO, a folder or
 * anything outside the review is refused (JournalError), like any record file.
 */
export async function readJournal(
  reviewRoot: string,
  runId: string,
): Promise<{ lines: JournalLine[]; at: number[]; refused: Refused[]; torn: boolean; bytes: number } | undefined> {
  const file = journalFile(runId);
  let text: string;
  try {
    const st = await lstatInReview(reviewRoot, file);
    if (!st) return undefined;
    if (st.isSymbolicLink())
      throw new JournalError(error(file, `${file} is a symbolic link; a run's journal must be a regular file. The run cannot be used.`));
    text = await readKindText(reviewRoot, file, 'journal');
  } catch (err) {
    if (err instanceof JournalError) throw err;
    if (err instanceof ReviewFileError && err.reason === 'missing') return undefined;
    throw new JournalError(error(file, `${errorMessage(err)} The run cannot be used.`));
  }
  return { ...parseJournal(text, file), bytes: Buffer.byteLength(text) };
}

/**
 * Before run.json is rewritten whole (with `updatedAt`): a checkpoint line, synced, when the run has a journal. A reader
 * of the old run.json still finds the checkpoint of its own `updatedAt` (or none) and applies the lines after it; a
 * reader of the new one skips everything before the new checkpoint.
 */
export async function checkpointJournal(reviewRoot: string, record: RunRecord): Promise<void> {
  const file = journalFile(record.id);
  const st = await lstatInReview(reviewRoot, file);
  if (!st) return;
  const data = `${JSON.stringify({ iteration: record.iterations.at(-1)?.index ?? 0, checkpoint: record.updatedAt })}\n`;
  await appendReviewFile(reviewRoot, file, data);
  countWrite(Buffer.byteLength(data));
}

/**
 * Reads the journal of a run and applies it over its run.json record (in place), judging people's lines against the
 * review's team (`roster` when the caller has it, else read, and only when the journal has lines past run.json's
 * checkpoint). Throws JournalError.
 */
export async function mergeJournal(reviewRoot: string, record: RunRecord, known?: Roster): Promise<JournalMerge | undefined> {
  const j = await readJournal(reviewRoot, record.id);
  if (!j) return undefined;
  const last = j.lines.map((l) => 'checkpoint' in l && l.checkpoint === record.updatedAt).lastIndexOf(true);
  const roster = j.lines.slice(last + 1).some((l) => 'message' in l || 'pins' in l || 'poolRanking' in l)
    ? (known ?? (await readRoster(reviewRoot)))
    : undefined;
  const merged = applyJournal(record, j.lines, journalFile(record.id), roster, j.at);
  return { ...merged, refused: [...j.refused, ...merged.refused] };
}

/** What is durable (in run.json or the journal), to tell what a save must add. */
interface Durable {
  /** The record without what the journal carries: any change here means a whole rewrite. */
  skeleton: string;
  messages: Map<string, string>;
  /** Message count per iteration index. */
  counts: Map<number, number>;
  prompts: Map<string, string>;
  pins: string;
  usage: string;
  /** The record's `takenIn` ids, in order. */
  takenIn: readonly string[];
  /** Each pool ranking (JSON), by `<iteration> <member>`. */
  poolRankings: Map<string, string>;
}

function skeletonOf(record: RunRecord): string {
  const { updatedAt: _u, usage: _g, prompts: _p, pins: _n, takenIn: _t, iterations, ...rest } = record;
  // A pool's rankings are journaled one by one (poolRanking lines): they are not part of the skeleton.
  return JSON.stringify({
    ...rest,
    iterations: iterations.map(({ messages: _m, ...it }) => (it.pool ? { ...it, pool: { ...it.pool, rankings: {} } } : it)),
  });
}

function usageOf(record: RunRecord): string {
  const { costUsd: _c, ...u } = record.usage;
  return JSON.stringify(u);
}

function snapshot(record: RunRecord): Durable {
  return {
    skeleton: skeletonOf(record),
    messages: new Map(record.iterations.flatMap((it) => it.messages.map((m) => [m.id ?? '', JSON.stringify(m)] as const))),
    counts: new Map(record.iterations.map((it) => [it.index, it.messages.length] as const)),
    prompts: new Map(record.prompts.map((p) => [p.id, JSON.stringify(p)] as const)),
    pins: JSON.stringify(record.pins ?? []),
    usage: usageOf(record),
    takenIn: [...(record.takenIn ?? [])],
    poolRankings: new Map(
      record.iterations.flatMap((it) =>
        Object.entries(it.pool?.rankings ?? {}).map(([m, r]) => [`${it.index} ${m}`, JSON.stringify(r)] as const),
      ),
    ),
  };
}

/**
 * Writes a run's record as the run goes: `save()` appends what is new to the journal (synced) when that is all that
 * changed, and rewrites run.json whole (`writeWhole`: writeRunRecord, which checkpoints the journal first) at a round
 * boundary (a round's worth of messages since the last rewrite), at any status change and whenever anything else changed.
 */
export class RecordWriter {
  private durable: Durable | undefined;
  private sinceRewrite = 0;
  /** The journal kept open between appends (`hold`), or opened for each append. */
  private held: HeldAppend | undefined;

  private constructor(
    private readonly reviewRoot: string,
    private readonly runId: string,
    private readonly writeWhole: (record: RunRecord) => Promise<void>,
  ) {}

  /**
   * Opens the journal of a run for appending: a torn last line is cut off (its turn is redone). `hold`: the journal is
   * kept open between appends (HeldAppend; `close()` when the run ends).
   */
  static async open(
    reviewRoot: string,
    runId: string,
    writeWhole: (record: RunRecord) => Promise<void>,
    hold = false,
  ): Promise<RecordWriter> {
    const j = await readJournal(reviewRoot, runId);
    if (j?.torn) {
      // Keep the complete lines exactly as they are: cut after the last newline.
      const text = await readKindText(reviewRoot, journalFile(runId), 'journal');
      await truncateReviewFile(reviewRoot, journalFile(runId), Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
    }
    const w = new RecordWriter(reviewRoot, runId, writeWhole);
    if (hold) w.held = new HeldAppend(reviewRoot, journalFile(runId));
    return w;
  }

  /** Closes the journal if it is held open. */
  async close(): Promise<void> {
    await this.held?.close();
  }

  /** Appends lines (each a JSON object) and syncs them before returning. */
  async append(lines: readonly JournalLine[]): Promise<void> {
    if (lines.length === 0) return;
    const data = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    if (this.held) await this.held.append(data);
    else await appendReviewFile(this.reviewRoot, journalFile(this.runId), data);
    countWrite(Buffer.byteLength(data));
  }

  /** Notes inbox entries taken in (by id), synced. */
  async takenIn(iteration: number, ids: readonly string[]): Promise<void> {
    await this.append(ids.map((takenIn) => ({ iteration, takenIn })));
  }

  /**
   * Saves the record: journal lines when only messages, prompts, pins (and the usage they bring) are new and the journal
   * holds at most a round of messages since the last rewrite; otherwise run.json whole (the first save after a round's
   * end, any status change, anything else changed). `roundSize`: the messages that make a round (one per designer).
   */
  async save(record: RunRecord, roundSize: number, opts: { whole?: boolean } = {}): Promise<'journal' | 'whole'> {
    const lines = opts.whole || record.status !== 'running' ? undefined : this.delta(record);
    // What this save writes, taken before it is written: a change made to the record meanwhile is the next save's.
    const written = snapshot(record);
    if (lines && this.sinceRewrite + lines.messages <= Math.max(1, roundSize)) {
      await this.append(lines.lines);
      this.sinceRewrite += lines.messages;
      this.durable = written;
      return 'journal';
    }
    await this.writeWhole(record);
    this.durable = written;
    this.sinceRewrite = 0;
    return 'whole';
  }

  /** The journal lines that bring the durable record to `record`, or undefined when only a whole rewrite can. */
  private delta(record: RunRecord): { lines: JournalLine[]; messages: number } | undefined {
    const d = this.durable;
    if (!d || skeletonOf(record) !== d.skeleton) return undefined;
    const lines: JournalLine[] = [];
    const current = record.iterations.at(-1)?.index ?? 0;
    const newPrompts: PromptRecord[] = [];
    for (const p of record.prompts) {
      const held = d.prompts.get(p.id);
      if (held === undefined) newPrompts.push(p);
      else if (held !== JSON.stringify(p)) return undefined;
    }
    const usage = JSON.parse(d.usage) as RunRecord['usage'];
    for (const p of newPrompts) {
      if (p.usage) addUsage(usage, p.usage);
      lines.push({ iteration: p.iteration, prompt: p });
    }
    if (JSON.stringify(usage) !== usageOf(record)) return undefined;
    let messages = 0;
    for (const it of record.iterations) {
      const held = d.counts.get(it.index) ?? 0;
      for (const [k, m] of it.messages.entries()) {
        if (k < held) {
          if (d.messages.get(m.id ?? '') !== JSON.stringify(m)) return undefined;
          continue;
        }
        if (m.id !== messageId(it.index, k + 1)) return undefined;
        lines.push({ iteration: it.index, message: m } as JournalLine);
        messages++;
      }
    }
    // A pool ranking is added, never changed or taken away (that is a whole rewrite).
    let heldRankings = 0;
    for (const it of record.iterations) {
      for (const [member, ranking] of Object.entries(it.pool?.rankings ?? {})) {
        const held = d.poolRankings.get(`${it.index} ${member}`);
        if (held === undefined) lines.push({ iteration: it.index, poolRanking: { member, ranking } });
        else if (held !== JSON.stringify(ranking)) return undefined;
        else heldRankings++;
      }
    }
    if (heldRankings !== d.poolRankings.size) return undefined;
    const pins = JSON.stringify(record.pins ?? []);
    if (pins !== d.pins) lines.push({ iteration: current || 1, pins: (record.pins ?? []) as Pin[] });
    // Inbox entries taken in (the record's `takenIn` only grows): one `takenIn` line each.
    const taken = record.takenIn ?? [];
    if (taken.length < d.takenIn.length || d.takenIn.some((id, i) => taken[i] !== id)) return undefined;
    for (const id of taken.slice(d.takenIn.length)) lines.push({ iteration: current || 1, takenIn: id });
    return { lines, messages };
  }
}
