/**
 * The Files and Batch API of the mock server, as OpenAI's spec describes them:
 *   POST /files (multipart: file, purpose)          → OpenAIFile
 *   GET  /files/{file_id}                           → OpenAIFile
 *   GET  /files/{file_id}/content                   → the bytes
 *   POST /batches {input_file_id, endpoint, completion_window}   → Batch (status "validating")
 *   GET  /batches/{batch_id}                        → Batch; stays validating/in_progress for `pendingPolls` retrievals,
 *                                                     then completes with an output file answered line by line by the
 *                                                     same scripted/auto responder as the chat route
 *   POST /batches/{batch_id}/cancel                 → Batch (cancelling; cancelled on the next retrieval)
 * Every line of an input file is checked: {custom_id (unique), method "POST", url = the batch endpoint, body}, the body
 * against the chat request schema. Violations are spec errors and fail the batch, as OpenAI's validation would.
 */
import { isObject } from './openapiSchema';

export interface StoredFile {
  id: string;
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  data: Buffer;
}

/** One line's answer: an HTTP status and a body (a chat completion or an error object). */
export interface LineAnswer {
  status: number;
  body: unknown;
}

export type BatchOutcome = 'completed' | 'expired' | 'failed';

export interface BatchSettings {
  /** Retrievals that still see the batch pending (first "validating", then "in_progress"); default 0. */
  pendingPolls: number;
  /** How a batch ends once its pending polls are used up; default completed. */
  outcome: BatchOutcome;
  /** For an expired batch: how many lines were answered before it expired (default: half, rounded down). */
  answeredBeforeExpiry?: number;
}

interface BatchState {
  batch: Record<string, unknown>;
  lines: Array<{ custom_id: string; body: unknown }>;
  polls: number;
  cancelRequested: boolean;
  problems: string[];
}

const now = (): number => Math.floor(Date.now() / 1000);

export class FilesAndBatches {
  readonly files = new Map<string, StoredFile>();
  readonly batches = new Map<string, BatchState>();
  /** Spec violations found in uploaded batch input files ("<file> line <n>: …"). */
  readonly violations: string[] = [];
  private seq = 0;

  constructor(
    readonly settings: BatchSettings,
    /** Answers one chat request body as the chat route would. */
    private readonly answerLine: (body: unknown, customId: string) => LineAnswer,
    /** Violations of one line's body against the chat request schema. */
    private readonly validateChat: (body: unknown) => string[],
  ) {}

  reset(): void {
    this.files.clear();
    this.batches.clear();
    this.violations.length = 0;
    this.seq = 0;
  }

  fileObject(f: StoredFile): object {
    return {
      id: f.id,
      object: 'file',
      bytes: f.bytes,
      created_at: f.created_at,
      filename: f.filename,
      purpose: f.purpose,
      status: 'processed',
    };
  }

  addFile(filename: string, purpose: string, data: Buffer): StoredFile {
    const f: StoredFile = { id: `file-mock${++this.seq}`, bytes: data.length, created_at: now(), filename, purpose, data };
    this.files.set(f.id, f);
    return f;
  }

  /** Checks an input file; returns the lines and the problems (each a spec violation). */
  private readInput(file: StoredFile, endpoint: string): { lines: BatchState['lines']; problems: string[] } {
    const problems: string[] = [];
    const lines: BatchState['lines'] = [];
    const seen = new Set<string>();
    const text = file.data.toString('utf8');
    text.split('\n').forEach((raw, i) => {
      if (!raw.trim()) return;
      const where = `${file.filename} line ${i + 1}`;
      let row: unknown;
      try {
        row = JSON.parse(raw);
      } catch {
        problems.push(`${where} is not valid JSON`);
        return;
      }
      if (!isObject(row)) return void problems.push(`${where} is not an object`);
      const extra = Object.keys(row).filter((k) => !['custom_id', 'method', 'url', 'body'].includes(k));
      if (extra.length) problems.push(`${where} has unknown fields ${extra.join(', ')}`);
      if (typeof row.custom_id !== 'string' || !row.custom_id) return void problems.push(`${where}: custom_id must be a non-empty string`);
      if (seen.has(row.custom_id)) problems.push(`${where}: custom_id ${row.custom_id} is used twice`);
      seen.add(row.custom_id);
      if (row.method !== 'POST') problems.push(`${where}: method must be POST`);
      if (row.url !== endpoint) problems.push(`${where}: url ${String(row.url)} is not the batch endpoint ${endpoint}`);
      if (isObject(row.body) && row.body.stream === true) problems.push(`${where}: streaming is not supported in a batch`);
      for (const e of this.validateChat(row.body)) problems.push(`${where}: ${e}`);
      lines.push({ custom_id: row.custom_id, body: row.body });
    });
    if (lines.length === 0 && problems.length === 0) problems.push(`${file.filename} holds no requests`);
    return { lines, problems };
  }

  /** POST /batches (the body is already checked against CreateBatchRequest). */
  create(body: Record<string, unknown>): { status: number; body: object } {
    const file = this.files.get(String(body.input_file_id));
    if (!file)
      return {
        status: 404,
        body: {
          error: {
            message: `No such File object: ${String(body.input_file_id)}`,
            type: 'invalid_request_error',
            param: 'input_file_id',
            code: null,
          },
        },
      };
    if (file.purpose !== 'batch')
      return {
        status: 400,
        body: {
          error: {
            message: `File ${file.id} was not uploaded with purpose "batch".`,
            type: 'invalid_request_error',
            param: 'input_file_id',
            code: null,
          },
        },
      };
    const endpoint = String(body.endpoint);
    const { lines, problems } = this.readInput(file, endpoint);
    this.violations.push(...problems.map((p) => `batch input ${p}`));
    const created = now();
    const id = `batch_mock${++this.seq}`;
    const batch: Record<string, unknown> = {
      id,
      object: 'batch',
      endpoint,
      input_file_id: file.id,
      completion_window: body.completion_window,
      status: 'validating',
      created_at: created,
      expires_at: created + 24 * 3600,
      request_counts: { total: lines.length, completed: 0, failed: 0 },
      ...(isObject(body.metadata) ? { metadata: body.metadata } : {}),
    };
    this.batches.set(id, { batch, lines, polls: 0, cancelRequested: false, problems });
    return { status: 200, body: batch };
  }

  /** GET /batches/{id}: one retrieval moves the batch on. */
  retrieve(id: string): { status: number; body: object } {
    const s = this.batches.get(id);
    if (!s)
      return {
        status: 404,
        body: { error: { message: `No batch found with id '${id}'.`, type: 'invalid_request_error', param: null, code: null } },
      };
    const b = s.batch;
    if (['completed', 'failed', 'expired', 'cancelled'].includes(String(b.status))) return { status: 200, body: b };
    s.polls++;
    if (s.problems.length) {
      Object.assign(b, {
        status: 'failed',
        failed_at: now(),
        errors: { object: 'list', data: s.problems.slice(0, 20).map((message) => ({ code: 'invalid_request', message })) },
      });
      return { status: 200, body: b };
    }
    if (s.cancelRequested) {
      this.finish(s, 'cancelled', 0);
      return { status: 200, body: b };
    }
    if (s.polls <= this.settings.pendingPolls) {
      b.status = s.polls === 1 ? 'validating' : 'in_progress';
      if (b.status === 'in_progress') b.in_progress_at ??= now();
      return { status: 200, body: b };
    }
    const outcome = this.settings.outcome;
    if (outcome === 'failed') {
      Object.assign(b, {
        status: 'failed',
        failed_at: now(),
        errors: { object: 'list', data: [{ code: 'server_error', message: 'The batch failed (mock).' }] },
      });
    } else if (outcome === 'expired') {
      this.finish(s, 'expired', this.settings.answeredBeforeExpiry ?? Math.floor(s.lines.length / 2));
    } else {
      this.finish(s, 'completed', s.lines.length);
    }
    return { status: 200, body: b };
  }

  cancel(id: string): { status: number; body: object } {
    const s = this.batches.get(id);
    if (!s)
      return {
        status: 404,
        body: { error: { message: `No batch found with id '${id}'.`, type: 'invalid_request_error', param: null, code: null } },
      };
    if (!['completed', 'failed', 'expired', 'cancelled'].includes(String(s.batch.status))) {
      s.cancelRequested = true;
      Object.assign(s.batch, { status: 'cancelling', cancelling_at: now() });
    }
    return { status: 200, body: s.batch };
  }

  /** Answers the first `answered` lines with the responder and writes the output (and error) files. */
  private finish(s: BatchState, status: 'completed' | 'expired' | 'cancelled', answered: number): void {
    const out: string[] = [];
    const errors: string[] = [];
    let completed = 0;
    let failed = 0;
    s.lines.slice(0, answered).forEach((line, i) => {
      const a = this.answerLine(line.body, line.custom_id);
      const row = {
        id: `batch_req_mock${i + 1}`,
        custom_id: line.custom_id,
        response: { status_code: a.status, request_id: `req_mock_batch_${i + 1}`, body: a.body },
        error: null,
      };
      if (a.status === 200) {
        out.push(JSON.stringify(row));
        completed++;
      } else {
        errors.push(JSON.stringify(row));
        failed++;
      }
    });
    const b = s.batch;
    const t = now();
    if (out.length)
      b.output_file_id = this.addFile(`batch_${String(b.id)}_output.jsonl`, 'batch_output', Buffer.from(`${out.join('\n')}\n`)).id;
    if (errors.length)
      b.error_file_id = this.addFile(`batch_${String(b.id)}_error.jsonl`, 'batch_output', Buffer.from(`${errors.join('\n')}\n`)).id;
    Object.assign(b, { status, request_counts: { total: s.lines.length, completed, failed } });
    if (status === 'completed') Object.assign(b, { finalizing_at: t, completed_at: t });
    if (status === 'expired') b.expired_at = t;
    if (status === 'cancelled') b.cancelled_at = t;
  }
}
