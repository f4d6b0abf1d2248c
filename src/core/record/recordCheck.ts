/**
 * A run record is input like any other file of the review (people commit runs/ and clone other people's reviews), so it is
 * validated, not believed, before it is run, resumed, re-ranked, compared or shown:
 *   - the shape and the settings go through RunRecordSchema (settings with the same bounds as review.yaml and the CLI);
 *   - the record's id is its folder's name;
 *   - option ids come from options/ (file `options/<id>.<ext>`), remixes are `r<k>` / `remix-<k>` with file
 *     `runs/<this id>/iteration-<k>/remix.png`; an iteration's remix is `iteration-<k>/remix.png` for its own k; several a
 *     round are `r<k><letter>` with file `iteration-<k>/remix-<letter>.png`, each letter a proposal of that round; a round
 *     of one remix made from a proposal (a pooled round that elected one) keeps that proposal's letter on its `remix`;
 *   - every id the iterations use (candidates, rankings, remix inputs, the final pick) is one of the record's options,
 *     and every file a prompt names is one of their files.
 * The first problem is returned with the JSON path of the offending value, so it can be shown as `run.json:<line>:<col>`.
 */
import { at as entryAt } from '../kernel/arrays';
import { printable } from '../kernel/text';
import { zodSentence } from '../kernel/zodText';
import { optionIdOfName } from '../review/options';
import { RunRecordSchema, type RunRecord } from './record';
import { SETTING_BOUNDS } from '../settings/settingBounds';
import { MAX_SAY_CHARS } from './fields';

export type JsonPath = (string | number)[];

/**
 * What a run record may ask the program to do (docs/security.md "Limits"): counted before anything else is checked, so a record
 * under its byte cap still cannot make a command build huge lists or send the same image hundreds of times.
 */
export const RECORD_LIMITS = {
  /** Options of a record (the review's images plus one remix per iteration). */
  options: 200,
  /** Prompts recorded in one run. */
  prompts: 50_000,
  /** Messages in one run, all iterations together. */
  messages: 50_000,
  /** Ids named with @ in one message. */
  mentions: 100,
  /** Coverage entries (a member's point and what became of it) in one round of a brief run. */
  coverage: 10_000,
  /** Pinned messages of a run. */
  pins: 1_000,
  /** Inbox entries a run took in (their ids, kept so an entry that comes back is never taken twice). */
  takenIn: 100_000,
  /** Earlier prompts one prompt may be built on through `base`, one on another. */
  baseDepth: 10_000,
  /** Messages one recorded prompt expands to (its base's first messages plus its own parts). */
  promptMessages: 100_000,
  /** Lines of prompts.jsonl a prompt's part ranges may reach. */
  partLines: 2_000_000,
} as const;

export interface RecordProblem {
  /** Where the offending value is in run.json. */
  path: JsonPath;
  message: string;
}

/** `r3`, `remix-3`, `remix-3-2` → 3 (the iteration whose edit made it); `r3b`, `remix-3b`, `remix-3b-2` → 3 too. */
export function remixIteration(id: string): number | undefined {
  return remixParts(id)?.k;
}

/** `r3b` → { k: 3, letter: 'b' }; `r3` → { k: 3 }. */
export function remixParts(id: string): { k: number; letter?: string } | undefined {
  const m = /^(?:r|remix-)([1-9]\d{0,5})([a-z])?(?:-[1-9]\d{0,5})?$/.exec(id);
  if (!m) return undefined;
  return m[2] ? { k: Number(m[1]), letter: m[2] } : { k: Number(m[1]) };
}

/** The file of a remix relative to its run folder: `iteration-<k>/remix.png`, or `iteration-<k>/remix-<letter>.png` (several a round). */
export function remixFileInRun(k: number, letter?: string): string {
  return letter ? `iteration-${k}/remix-${letter}.png` : `iteration-${k}/remix.png`;
}

/** A brief run's revised brief of round k, relative to its run folder. */
export function briefFileInRun(k: number): string {
  return `iteration-${k}/brief.md`;
}

/** A brief fork's passage of round k (issue 33), relative to its run folder. */
export function briefForkFileInRun(k: number, letter: string): string {
  return `iteration-${k}/fork-${letter}.md`;
}

const q = (s: string): string => `"${printable(s.length > 200 ? `${s.slice(0, 200)}…` : s)}"`;

/**
 * Checks the parsed JSON of `<runFolder>/run.json` (runFolder = "runs/<folderId>", relative to the review root).
 * `optionNames` are the names in options/ (undefined when the folder is missing). Returns the record, or the first problem.
 */
export function checkRunRecord(
  json: unknown,
  runFolder: string,
  optionNames: readonly string[] | undefined,
  referenceNames: readonly string[] = [],
): { record: RunRecord } | { problem: RecordProblem } {
  const parsed = RunRecordSchema.safeParse(json);
  if (!parsed.success) {
    const path = (parsed.error.issues[0]?.path ?? []).filter((p): p is string | number => typeof p !== 'symbol');
    return { problem: { path, message: zodSentence(parsed.error, 'the record') } };
  }
  const record = parsed.data;
  const problem = checkBounds(record) ?? checkIds(record, runFolder, optionNames) ?? checkReferences(record, referenceNames);
  return problem ? { problem } : { record };
}

const plural = (n: number, one: string, many: string = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The first id that appears twice in `list`, as a problem at its second place; undefined when all differ. */
function duplicate(list: readonly string[] | undefined, at: JsonPath, what: string): RecordProblem | undefined {
  const seen = new Set<string>();
  for (const [i, id] of (list ?? []).entries()) {
    if (seen.has(id)) return { path: [...at, i], message: `${what} ${q(id)} is listed twice; a record lists each id once.` };
    seen.add(id);
  }
  return undefined;
}

/**
 * Counts and duplicates first (cheap, linear in the record), then the prompts' `base` chains: each prompt's size and
 * depth follow from its base's in one pass over the prompts, without expanding anything.
 */
export function checkBounds(r: RunRecord): RecordProblem | undefined {
  const L = RECORD_LIMITS;
  const tooMany = (n: number, max: number, at: JsonPath, what: string): RecordProblem | undefined =>
    n > max
      ? { path: at, message: `The record has ${n} ${what}, more than ${max} (docs/security.md "Limits"); it is not used.` }
      : undefined;
  let problem =
    tooMany(r.options.length, L.options, ['options', L.options], 'options') ??
    tooMany(r.prompts.length, L.prompts, ['prompts', L.prompts], 'prompts') ??
    tooMany(r.pins?.length ?? 0, L.pins, ['pins', L.pins], 'pins') ??
    tooMany(r.takenIn?.length ?? 0, L.takenIn, ['takenIn', L.takenIn], 'inbox entries taken in');
  if (problem) return problem;
  let messages = 0;
  const messageIds = new Set<string>();
  for (const [j, it] of r.iterations.entries()) {
    messages += it.messages.length;
    if (messages > L.messages) {
      return {
        path: ['iterations', j, 'messages'],
        message: `The record has more than ${L.messages} messages (docs/security.md "Limits"); it is not used.`,
      };
    }
    const at: JsonPath = ['iterations', j];
    problem =
      duplicate(it.candidates, [...at, 'candidates'], 'The candidate') ??
      duplicate(it.ranking, [...at, 'ranking'], 'The ranked id') ??
      duplicate(it.remix?.from, [...at, 'remix', 'from'], 'The remix input') ??
      duplicate(it.references, [...at, 'references'], 'The cited reference') ??
      duplicate(it.remix?.references, [...at, 'remix', 'references'], 'The reference input') ??
      tooMany(it.brief?.coverage.length ?? 0, L.coverage, [...at, 'brief', 'coverage', L.coverage], 'coverage entries in one iteration') ??
      duplicate(
        it.brief?.coverage.map((c) => `${c.designer}: ${c.point}`),
        [...at, 'brief', 'coverage'],
        'The coverage entry',
      );
    if (problem) return problem;
    for (const [m, msg] of it.messages.entries()) {
      if (msg.id !== undefined) {
        if (messageIds.has(msg.id)) {
          return {
            path: [...at, 'messages', m, 'id'],
            message: `The message id ${q(msg.id)} is listed twice; a record lists each id once.`,
          };
        }
        messageIds.add(msg.id);
      }
      const mentions = msg.mentions ?? [];
      problem =
        tooMany(mentions.length, L.mentions, [...at, 'messages', m, 'mentions', L.mentions], 'mentions in one message') ??
        duplicate(mentions, [...at, 'messages', m, 'mentions'], 'The mentioned id');
      if (problem) return problem;
      // A person's message was at most MAX_SAY_CHARS at intake; a longer one was never taken in by the tool.
      if (msg.kind === 'human' && msg.content.length > MAX_SAY_CHARS) {
        return {
          path: [...at, 'messages', m, 'content'],
          message: `A person's message is at most ${MAX_SAY_CHARS} characters; this one has ${msg.content.length}, so the tool never took it in.`,
        };
      }
    }
  }
  problem = duplicate(
    (r.pins ?? []).map((p) => p.message),
    ['pins'],
    'The pinned message',
  );
  if (problem) return { ...problem, path: [...problem.path, 'message'] };
  problem = duplicate(r.takenIn, ['takenIn'], 'The inbox entry');
  if (problem) return problem;

  // Prompts: unique ids; a base is an earlier prompt; sizes and depths in one forward pass.
  const index = new Map<string, number>();
  const size: number[] = [];
  const depth: number[] = [];
  for (const [j, p] of r.prompts.entries()) {
    const at: JsonPath = ['prompts', j];
    if (index.has(p.id)) return { path: [...at, 'id'], message: `The prompt id ${q(p.id)} is listed twice; a record lists each id once.` };
    let n = 0;
    let d = 0;
    if (p.base) {
      const b = index.get(p.base.prompt);
      if (b === undefined) {
        return {
          path: [...at, 'base', 'prompt'],
          message: `Prompt ${q(p.id)} is based on ${q(p.base.prompt)}, which is not an earlier prompt of the run.`,
        };
      }
      const baseSize = entryAt(size, b);
      if (p.base.messages > baseSize) {
        return {
          path: [...at, 'base', 'messages'],
          message: `Prompt ${q(p.id)} takes the first ${p.base.messages} messages of ${q(p.base.prompt)}, which has ${plural(baseSize, 'message')}.`,
        };
      }
      n = p.base.messages;
      d = entryAt(depth, b) + 1;
      if (d > L.baseDepth) {
        return {
          path: [...at, 'base'],
          message: `Prompt ${q(p.id)} is built on a chain of more than ${L.baseDepth} earlier prompts (docs/security.md "Limits"); the record is not used.`,
        };
      }
    }
    for (const [k, [first, count]] of (p.parts ?? []).entries()) {
      if (first + count > L.partLines) {
        return {
          path: [...at, 'parts', k],
          message: `Prompt ${q(p.id)} refers to lines beyond line ${L.partLines} of prompts.jsonl (docs/security.md "Limits"); the record is not used.`,
        };
      }
      n += count;
      if (n > L.promptMessages) {
        return {
          path: [...at, 'parts', k],
          message: `Prompt ${q(p.id)} expands to more than ${L.promptMessages} messages (docs/security.md "Limits"); the record is not used.`,
        };
      }
    }
    index.set(p.id, j);
    size.push(n);
    depth.push(d);
  }
  return undefined;
}

/** Several remixes a round: proposals lettered a, b, … in order, each remix made from one of them, in its own file. */
function checkSeveral(
  r: RunRecord,
  it: RunRecord['iterations'][number],
  at: JsonPath,
  remixPrefix: string,
  known: (list: readonly string[] | undefined, at: JsonPath, what: string) => RecordProblem | undefined,
): RecordProblem | undefined {
  const max = SETTING_BOUNDS.remixesPerIteration.max;
  if ((it.proposals?.length ?? 0) > max || (it.remixes?.length ?? 0) > max) {
    return {
      path: [...at, it.remixes && it.remixes.length > max ? 'remixes' : 'proposals', max],
      message: `Iteration ${it.index} lists more than ${max} remixes; a round makes at most ${max}.`,
    };
  }
  // A round of one remix from one proposal (a pooled round that elected one, issue 41) lists it as its `remix`, lettered.
  const oneFromProposal = it.proposals?.length === 1 && it.remix?.letter === it.proposals[0]?.letter;
  if (((it.proposals && !oneFromProposal) || it.remixes) && it.remix) {
    return { path: [...at, 'remixes'], message: `Iteration ${it.index} has both one remix and several; a round makes one or the other.` };
  }
  // A pooled round (issue 41): the proposals are the elected candidates of its pool, in letter order.
  const poolProblem = it.pool ? checkPool(it.pool, [...at, 'pool'], it.index) : undefined;
  if (poolProblem) return poolProblem;
  const lettersOf = it.pool?.elected.length ? [...it.pool.elected].sort() : undefined;
  for (const [i, p] of (it.proposals ?? []).entries()) {
    const letter = lettersOf ? (lettersOf[i] ?? String.fromCharCode(97 + i)) : String.fromCharCode(97 + i);
    if (p.letter !== letter)
      return {
        path: [...at, 'proposals', i, 'letter'],
        message: `Proposal ${i + 1} of iteration ${it.index} must have the letter ${q(letter)}, not ${q(p.letter)}.`,
      };
    const problem =
      duplicate(p.from, [...at, 'proposals', i, 'from'], 'The remix input') ??
      known(p.from, [...at, 'proposals', i, 'from'], 'The remix input');
    if (problem) return problem;
  }
  const letters = new Set<string>();
  for (const [i, m] of (it.remixes ?? []).entries()) {
    const where = [...at, 'remixes', i];
    const parts = remixParts(m.id);
    if (parts?.k !== it.index || parts.letter === undefined || parts.letter !== m.letter) {
      return {
        path: [...where, 'id'],
        message: `Remix ${i + 1} of iteration ${it.index} must be called r${it.index}${m.letter ?? '<letter>'} (or remix-${it.index}${m.letter ?? '<letter>'}), not ${q(m.id)}.`,
      };
    }
    if (letters.has(parts.letter))
      return { path: [...where, 'letter'], message: `The remix letter ${q(parts.letter)} is listed twice in iteration ${it.index}.` };
    letters.add(parts.letter);
    if (!it.proposals?.some((p) => p.letter === parts.letter)) {
      return { path: [...where, 'letter'], message: `Remix ${q(m.id)} has no proposal ${q(parts.letter)} in iteration ${it.index}.` };
    }
    const file = remixFileInRun(it.index, parts.letter);
    if (m.file !== file) return { path: [...where, 'file'], message: `The file of remix ${q(m.id)} must be ${file}, not ${q(m.file)}.` };
    if (!r.options.some((op) => op.id === m.id && op.file === `${remixPrefix}${file}`)) {
      return { path: [...where, 'id'], message: `The remix ${q(m.id)} is not among the record's options.` };
    }
    const problem = duplicate(m.from, [...where, 'from'], 'The remix input') ?? known(m.from, [...where, 'from'], 'The remix input');
    if (problem) return problem;
    const { fork } = m;
    if (fork) {
      // A fork (issue 33) names a side of one of its round's decision points: the votes on it are counted by that side.
      const point = it.decisionPoints?.[fork.decisionPoint - 1];
      if (!point || point.question !== fork.question || !point.positions.some((p) => p.position === fork.position)) {
        return {
          path: [...where, 'fork'],
          message: `Remix ${q(m.id)} takes a side of decision point ${fork.decisionPoint}, which iteration ${it.index} does not have with that question and position.`,
        };
      }
    }
  }
  return undefined;
}

/** The brief as a checklist (issue 41): a remix's checks name items of the run's checklist, each at most once. */
function checkChecks(r: RunRecord, it: RunRecord['iterations'][number], at: JsonPath): RecordProblem | undefined {
  const items = new Set((r.checklist?.items ?? []).map((i) => i.id));
  const remixes: [RunRecord['iterations'][number]['remix'], JsonPath][] = [
    [it.remix, [...at, 'remix']],
    ...(it.remixes ?? []).map((m, i): [typeof m, JsonPath] => [m, [...at, 'remixes', i]]),
  ];
  for (const [m, where] of remixes) {
    for (const [i, c] of (m?.checks ?? []).entries()) {
      if (!items.has(c.item) || m!.checks!.findIndex((x) => x.item === c.item) !== i) {
        return {
          path: [...where, 'checks', i, 'item'],
          message: `Remix ${q(m!.id)} has a check of ${q(c.item)}, which is not an item of the run's checklist or is checked twice.`,
        };
      }
    }
  }
  return undefined;
}

/** A pool (issue 41): candidates lettered a, b, … in order; every ranking and the elected name its letters, each once. */
function checkPool(pool: NonNullable<RunRecord['iterations'][number]['pool']>, at: JsonPath, index: number): RecordProblem | undefined {
  const letters = pool.candidates.map((c) => c.letter);
  for (const [i, c] of pool.candidates.entries()) {
    const letter = String.fromCharCode(97 + i);
    if (c.letter !== letter)
      return {
        path: [...at, 'candidates', i, 'letter'],
        message: `Candidate ${i + 1} of the pool of iteration ${index} must have the letter ${q(letter)}, not ${q(c.letter)}.`,
      };
  }
  for (const [member, ranking] of Object.entries(pool.rankings)) {
    if (ranking.length !== letters.length || new Set(ranking).size !== ranking.length || ranking.some((l) => !letters.includes(l))) {
      return {
        path: [...at, 'rankings', member],
        message: `The ranking of ${q(member)} in the pool of iteration ${index} must name every letter (${letters.join(', ')}) once.`,
      };
    }
  }
  if (new Set(pool.elected).size !== pool.elected.length || pool.elected.some((l) => !letters.includes(l))) {
    return {
      path: [...at, 'elected'],
      message: `The elected of the pool of iteration ${index} must be distinct letters of its candidates (${letters.join(', ')}).`,
    };
  }
  return undefined;
}

function checkIds(r: RunRecord, runFolder: string, optionNames: readonly string[] | undefined): RecordProblem | undefined {
  const folderId = runFolder.slice(runFolder.lastIndexOf('/') + 1);
  if (r.id !== folderId) {
    return {
      path: ['id'],
      message: `The record's id ${q(r.id)} is not the name of its folder (${q(folderId)}); a record is used only in its own folder.`,
    };
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
      const parts = remixParts(op.id);
      if (parts === undefined) {
        return {
          path: ['options', i, 'id'],
          message: `${q(op.id)} is not a remix id (r<k> or remix-<k>), but its file is in the run folder.`,
        };
      }
      if (op.file !== `${remixPrefix}${remixFileInRun(parts.k, parts.letter)}`) {
        return {
          path: ['options', i, 'file'],
          message: `The file of remix ${q(op.id)} must be ${remixPrefix}${remixFileInRun(parts.k, parts.letter)}, not ${q(op.file)}.`,
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

  for (const ref of r.references ?? []) files.add(ref.file);
  const known = (list: readonly string[] | undefined, at: JsonPath, what: string): RecordProblem | undefined => {
    const bad = (list ?? []).findIndex((id) => !ids.has(id));
    const id = list?.[bad];
    return id === undefined ? undefined : { path: [...at, bad], message: `${what} ${q(id)} is not one of the record's options.` };
  };

  if (r.iterations.length > r.settings.iterations) {
    return {
      path: ['iterations', r.settings.iterations],
      message: `The record has ${r.iterations.length} iterations, more than its settings allow (${r.settings.iterations}).`,
    };
  }
  for (const [j, it] of r.iterations.entries()) {
    const at: JsonPath = ['iterations', j];
    if (it.index !== j + 1)
      return { path: [...at, 'index'], message: `Iteration ${j + 1} has index ${it.index}; iterations are numbered 1, 2, … in order.` };
    const p =
      known(it.candidates, [...at, 'candidates'], 'The candidate') ??
      known(it.ranking, [...at, 'ranking'], 'The ranked id') ??
      known(it.remix?.from, [...at, 'remix', 'from'], 'The remix input') ??
      known(
        it.setAside?.map((x) => x.id),
        [...at, 'setAside'],
        'The remix set aside',
      );
    if (p) return p;
    // A remix set aside (issue 38) is a candidate of no round from the one that set it aside on.
    const aside = r.iterations.slice(0, j + 1).flatMap((x) => (x.setAside ?? []).map((a) => a.id));
    const back = it.candidates.findIndex((c) => aside.includes(c));
    if (back >= 0)
      return {
        path: [...at, 'candidates', back],
        message: `The candidate ${q(it.candidates[back]!)} of iteration ${it.index} was set aside by a decision; it is never a candidate again.`,
      };
    for (const [who, c] of Object.entries(it.backed ?? {})) {
      if (c !== null && !it.candidates.includes(c)) {
        return {
          path: [...at, 'backed', who],
          message: `What ${q(who)}'s proxy backed, ${q(c)}, is not a candidate of iteration ${it.index}.`,
        };
      }
    }
    if (it.brief && it.brief.file !== briefFileInRun(it.index)) {
      return {
        path: [...at, 'brief', 'file'],
        message: `The revised brief of iteration ${it.index} must be ${briefFileInRun(it.index)}, not ${q(it.brief.file)}.`,
      };
    }
    for (const [j, f] of (it.brief?.forks ?? []).entries()) {
      const file = briefForkFileInRun(it.index, f.letter);
      if (f.file !== file)
        return {
          path: [...at, 'brief', 'forks', j, 'file'],
          message: `The passage of fork ${f.letter} in iteration ${it.index} must be ${file}, not ${q(f.file)}.`,
        };
    }
    if (it.remix) {
      const k = remixIteration(it.remix.id);
      if (k !== it.index) {
        return {
          path: [...at, 'remix', 'id'],
          message: `The remix of iteration ${it.index} must be called r${it.index} (or remix-${it.index}), not ${q(it.remix.id)}.`,
        };
      }
      if (it.remix.file !== remixFileInRun(k)) {
        return {
          path: [...at, 'remix', 'file'],
          message: `The remix file of iteration ${it.index} must be ${remixFileInRun(k)}, not ${q(it.remix.file)}.`,
        };
      }
      const remixId = it.remix.id;
      if (!r.options.some((op) => op.id === remixId && op.file === `${remixPrefix}${remixFileInRun(k)}`)) {
        return { path: [...at, 'remix', 'id'], message: `The remix ${q(it.remix.id)} is not among the record's options.` };
      }
      // A pooled round's one remix (issue 41) keeps the letter of the proposal it was made from: the round's only one.
      const letter = it.remix.letter;
      if (letter !== undefined && (it.proposals?.length !== 1 || it.proposals[0]?.letter !== letter)) {
        return {
          path: [...at, 'remix', 'letter'],
          message: it.proposals?.some((p) => p.letter === letter)
            ? `The remix of iteration ${it.index} has the letter ${q(letter)}, but the round has ${it.proposals.length} proposals; several remixes a round are listed in its remixes.`
            : `The remix of iteration ${it.index} has the letter ${q(letter)}, which is not the letter of a proposal of that round.`,
        };
      }
    }
    if (it.poolFellBack !== undefined && it.pool) {
      return {
        path: [...at, 'poolFellBack'],
        message: `Iteration ${it.index} fell back to no pool, so it has no pool of directions.`,
      };
    }
    const several = checkSeveral(r, it, at, remixPrefix, known);
    if (several) return several;
    const checks = checkChecks(r, it, at);
    if (checks) return checks;
  }
  if (r.finalPick !== undefined && !ids.has(r.finalPick)) {
    return { path: ['finalPick'], message: `The final pick ${q(r.finalPick)} is not one of the record's options.` };
  }

  for (const [j, p] of r.prompts.entries()) {
    for (const [m, msg] of (p.messages ?? []).entries()) {
      if (typeof msg.content === 'string') continue;
      for (const [n, part] of msg.content.entries()) {
        if (part.type === 'image' && !files.has(part.file)) {
          return {
            path: ['prompts', j, 'messages', m, 'content', n, 'file'],
            message: `The prompt image ${q(part.file)} is not a file of the record's options or references.`,
          };
        }
      }
    }
    for (const [n, input] of (p.inputs ?? []).entries()) {
      if (!files.has(input.file)) {
        return {
          path: ['prompts', j, 'inputs', n, 'file'],
          message: `The edit input ${q(input.file)} is not a file of the record's options or references.`,
        };
      }
    }
  }
  return undefined;
}

/**
 * The record's references are images of references/ (file `references/<id>.<ext>`, each id once, at most 50), and every
 * reference an iteration cites or sends to an edit is one of them: a record cannot make a reference a candidate.
 */
function checkReferences(r: RunRecord, referenceNames: readonly string[]): RecordProblem | undefined {
  const refs = r.references ?? [];
  if (refs.length > 50)
    return { path: ['references', 50], message: `The record has ${refs.length} references, more than 50; it is not used.` };
  const byId = new Map<string, string>();
  for (const name of referenceNames) {
    const id = optionIdOfName(name);
    if (id !== undefined) byId.set(id, `references/${name}`);
  }
  const ids = new Set<string>();
  for (const [i, ref] of refs.entries()) {
    if (ids.has(ref.id)) return { path: ['references', i, 'id'], message: `The reference id ${q(ref.id)} appears twice in the record.` };
    ids.add(ref.id);
    const expected = byId.get(ref.id);
    if (expected === undefined)
      return { path: ['references', i, 'id'], message: `The record names reference ${q(ref.id)}, which is not an image in references/.` };
    if (ref.file !== expected)
      return { path: ['references', i, 'file'], message: `The file of reference ${q(ref.id)} must be ${q(expected)}, not ${q(ref.file)}.` };
  }
  for (const [j, it] of r.iterations.entries()) {
    const lists: [JsonPath, readonly string[] | undefined][] = [
      [['iterations', j, 'references'], it.references],
      [['iterations', j, 'remix', 'references'], it.remix?.references],
      ...(it.remixes ?? []).map((m, k): [JsonPath, readonly string[] | undefined] => [
        ['iterations', j, 'remixes', k, 'references'],
        m.references,
      ]),
    ];
    for (const [at, list] of lists) {
      const bad = (list ?? []).findIndex((id) => !ids.has(id));
      const id = list?.[bad];
      if (id !== undefined) return { path: [...at, bad], message: `The reference ${q(id)} is not one of the record's references.` };
    }
  }
  return undefined;
}
