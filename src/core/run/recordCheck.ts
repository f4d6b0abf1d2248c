/**
 * A run record is input like any other file of the review (people commit runs/ and clone other people's reviews), so it is
 * validated, not believed, before it is run, resumed, re-ranked, compared or shown:
 *   - the shape and the settings go through RunRecordSchema (settings with the same bounds as review.yaml and the CLI);
 *   - the record's id is its folder's name;
 *   - option ids come from options/ (file `options/<id>.<ext>`), remixes are `r<k>` / `remix-<k>` with file
 *     `runs/<this id>/iteration-<k>/remix.png`; an iteration's remix is `iteration-<k>/remix.png` for its own k;
 *   - every id the iterations use (candidates, rankings, remix inputs, the final pick) is one of the record's options,
 *     and every file a prompt names is one of their files.
 * The first problem is returned with the JSON path of the offending value, so it can be shown as `run.json:<line>:<col>`.
 */
import { printable } from '../files/reviewFiles';
import { optionIdOfName } from '../review/options';
import { RunRecordSchema, type RunRecord } from './record';

export type JsonPath = (string | number)[];

export interface RecordProblem {
  /** Where the offending value is in run.json. */
  path: JsonPath;
  message: string;
}

/** `r3`, `remix-3`, `remix-3-2` → 3 (the iteration whose edit made it). */
export function remixIteration(id: string): number | undefined {
  const m = /^(?:r|remix-)([1-9]\d{0,5})(?:-[1-9]\d{0,5})?$/.exec(id);
  return m ? Number(m[1]) : undefined;
}

/** The file of a remix relative to its run folder. */
export function remixFileInRun(k: number): string {
  return `iteration-${k}/remix.png`;
}

/** A brief run's revised brief of round k, relative to its run folder. */
export function briefFileInRun(k: number): string {
  return `iteration-${k}/brief.md`;
}

const q = (s: string): string => `"${printable(s.length > 200 ? `${s.slice(0, 200)}…` : s)}"`;

function pathText(path: JsonPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || 'the record';
}

/**
 * Checks the parsed JSON of `<runFolder>/run.json` (runFolder = "runs/<folderId>", relative to the review root).
 * `optionNames` are the names in options/ (undefined when the folder is missing). Returns the record, or the first problem.
 */
export function checkRunRecord(
  json: unknown,
  runFolder: string,
  optionNames: readonly string[] | undefined,
): { record: RunRecord } | { problem: RecordProblem } {
  const parsed = RunRecordSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    return { problem: { path, message: `${pathText(path)}: ${issue.message.replace(/\.?$/, '.')}` } };
  }
  const record = parsed.data;
  const problem = checkIds(record, runFolder, optionNames);
  return problem ? { problem } : { record };
}

function checkIds(r: RunRecord, runFolder: string, optionNames: readonly string[] | undefined): RecordProblem | undefined {
  const folderId = runFolder.split('/').pop()!;
  if (r.id !== folderId) {
    return { path: ['id'], message: `The record's id ${q(r.id)} is not the name of its folder (${q(folderId)}); a record is used only in its own folder.` };
  }

  const optionFiles = new Map<string, string>(); // id in options/ → "options/<name>"
  for (const name of optionNames ?? []) {
    const id = optionIdOfName(name);
    if (id !== undefined) optionFiles.set(id, `options/${name}`);
  }
  const ids = new Set<string>();
  const files = new Set<string>();
  const remixPrefix = `${runFolder}/`;
  const runsDir = `${runFolder.split('/')[0]}/`;
  for (const [i, op] of r.options.entries()) {
    if (ids.has(op.id)) return { path: ['options', i, 'id'], message: `The option id ${q(op.id)} appears twice in the record.` };
    ids.add(op.id);
    files.add(op.file);
    if (op.file.startsWith(runsDir)) {
      const k = remixIteration(op.id);
      if (k === undefined) {
        return { path: ['options', i, 'id'], message: `${q(op.id)} is not a remix id (r<k> or remix-<k>), but its file is in the run folder.` };
      }
      if (op.file !== `${remixPrefix}${remixFileInRun(k)}`) {
        return {
          path: ['options', i, 'file'],
          message: `The file of remix ${q(op.id)} must be ${remixPrefix}${remixFileInRun(k)}, not ${q(op.file)}.`,
        };
      }
      continue;
    }
    if (optionNames === undefined) {
      return { path: ['options', i, 'id'], message: `The record names option ${q(op.id)}, but the review has no options/ folder.` };
    }
    const expected = optionFiles.get(op.id);
    if (expected === undefined) {
      return { path: ['options', i, 'id'], message: `The record names option ${q(op.id)}, which is not an image in options/.` };
    }
    if (op.file !== expected) {
      return { path: ['options', i, 'file'], message: `The file of option ${q(op.id)} must be ${q(expected)}, not ${q(op.file)}.` };
    }
  }

  const known = (list: readonly string[] | undefined, at: JsonPath, what: string): RecordProblem | undefined => {
    const bad = (list ?? []).findIndex((id) => !ids.has(id));
    return bad === -1 ? undefined : { path: [...at, bad], message: `${what} ${q(list![bad]!)} is not one of the record's options.` };
  };

  if (r.iterations.length > r.settings.iterations) {
    return {
      path: ['iterations', r.settings.iterations],
      message: `The record has ${r.iterations.length} iterations, more than its settings allow (${r.settings.iterations}).`,
    };
  }
  for (const [j, it] of r.iterations.entries()) {
    const at: JsonPath = ['iterations', j];
    if (it.index !== j + 1) return { path: [...at, 'index'], message: `Iteration ${j + 1} has index ${it.index}; iterations are numbered 1, 2, … in order.` };
    const p =
      known(it.candidates, [...at, 'candidates'], 'The candidate') ??
      known(it.ranking, [...at, 'ranking'], 'The ranked id') ??
      known(it.remix?.from, [...at, 'remix', 'from'], 'The remix input');
    if (p) return p;
    for (const [who, c] of Object.entries(it.backed ?? {})) {
      if (c !== null && !it.candidates.includes(c)) {
        return { path: [...at, 'backed', who], message: `What ${q(who)}'s proxy backed, ${q(c)}, is not a candidate of iteration ${it.index}.` };
      }
    }
    if (it.brief && it.brief.file !== briefFileInRun(it.index)) {
      return { path: [...at, 'brief', 'file'], message: `The revised brief of iteration ${it.index} must be ${briefFileInRun(it.index)}, not ${q(it.brief.file)}.` };
    }
    if (it.remix) {
      const k = remixIteration(it.remix.id);
      if (k !== it.index) {
        return { path: [...at, 'remix', 'id'], message: `The remix of iteration ${it.index} must be called r${it.index} (or remix-${it.index}), not ${q(it.remix.id)}.` };
      }
      if (it.remix.file !== remixFileInRun(k)) {
        return { path: [...at, 'remix', 'file'], message: `The remix file of iteration ${it.index} must be ${remixFileInRun(k)}, not ${q(it.remix.file)}.` };
      }
      if (!r.options.some((op) => op.id === it.remix!.id && op.file === `${remixPrefix}${remixFileInRun(k)}`)) {
        return { path: [...at, 'remix', 'id'], message: `The remix ${q(it.remix.id)} is not among the record's options.` };
      }
    }
  }
  if (r.finalPick !== undefined && !ids.has(r.finalPick)) {
    return { path: ['finalPick'], message: `The final pick ${q(r.finalPick)} is not one of the record's options.` };
  }

  for (const [j, p] of r.prompts.entries()) {
    for (const [m, msg] of (p.messages ?? []).entries()) {
      if (typeof msg.content === 'string') continue;
      for (const [n, part] of msg.content.entries()) {
        if (part.type === 'image' && !files.has(part.file)) {
          return { path: ['prompts', j, 'messages', m, 'content', n, 'file'], message: `The prompt image ${q(part.file)} is not a file of the record's options.` };
        }
      }
    }
    for (const [n, input] of (p.inputs ?? []).entries()) {
      if (!files.has(input.file)) {
        return { path: ['prompts', j, 'inputs', n, 'file'], message: `The edit input ${q(input.file)} is not a file of the record's options.` };
      }
    }
  }
  return undefined;
}
