/**
 * THE table of every kind of file TeamFusion reads: where it lives, its byte cap, how deep it may nest, how it is parsed,
 * and how many diagnostics one file of it may give (then one "… and N more" line). Every read of a kind goes through
 * `readKindText` (the file room's contained, regular, capped read, then the nesting check on the tokens before any
 * tree is built), and every list of diagnostics through `capKindDiagnostics`; the Limits table of docs/security.md is checked
 * against this table by a unit test, and the hostile corpus (test/unit/files/corpusProbes.ts, run by hostileKinds1 and
 * hostileKinds2.test.ts) is generated from it: a kind added here is capped, documented and attacked without anything
 * else to remember.
 */
import { error, capPerFile, MAX_DIAGNOSTICS_PER_FILE } from '../diagnostics/diagnostics';
import type { Diagnostic } from '../diagnostics/diagnostics';
import { MAX_NESTING, checkNesting } from './nesting';
import { LIMITS, ReviewFileError, readReviewText, toRel } from './reviewFiles';

/** How a kind is parsed (after the byte cap and, for trees, the nesting check). */
export type FileParser = 'yaml' | 'json' | 'jsonl' | 'markdown' | 'text' | 'image' | 'csv';

export interface FileKind {
  /** Where files of this kind are, relative to the review root (`<run>` a run id, `<designer>` a designer id). */
  readonly path: string;
  /** In words, for docs/security.md. */
  readonly what: string;
  readonly maxBytes: number;
  /** Deepest nesting of lists and fields (tree formats); null for text and images. */
  readonly nesting: number | null;
  readonly parser: FileParser;
  /** Diagnostics listed per file before the one "… and N more problems" line. */
  readonly diagnostics: number;
  /** Named after a designer: matched to the team with the one id rule (designerId.ts); others refused in words. */
  readonly perDesigner?: boolean;
}

const tree = (parser: 'yaml' | 'json' | 'jsonl', path: string, what: string, maxBytes: number, perDesigner?: boolean): FileKind => ({
  path,
  what,
  maxBytes,
  nesting: MAX_NESTING,
  parser,
  diagnostics: MAX_DIAGNOSTICS_PER_FILE,
  ...(perDesigner ? { perDesigner } : {}),
});
const flat = (parser: FileParser, path: string, what: string, maxBytes: number): FileKind => ({
  path,
  what,
  maxBytes,
  nesting: null,
  parser,
  diagnostics: MAX_DIAGNOSTICS_PER_FILE,
});

/** Byte caps of kinds that have no entry in the file room's LIMITS. */
export const KIND_BYTES = {
  /** runs/<id>/prompts.jsonl (a 48-designer run writes well under 1 MB). */
  promptParts: 64 * 1024 * 1024,
  /** runs/<id>/.driver.lock: a pid, a host and a time. */
  driverLock: 4096,
  /** One entry of a run's inbox (a message is at most 4000 characters). */
  inboxEntry: 64 * 1024,
  /** A batch output file downloaded from the Batch API. */
  batchOutput: 64 * 1024 * 1024,
  /** runs/<id>/judge.json. */
  judge: 8 * 1024 * 1024,
  /** runs/<id>/journal.jsonl (a 48-designer run with 1 KB messages writes well under 2 MB). */
  journal: 32 * 1024 * 1024,
} as const;

/** Every kind of file the tool reads. */
export const FILE_KINDS = {
  brief: flat('markdown', 'brief.md', 'The brief', LIMITS.brief),
  reviewConfig: tree('yaml', 'review.yaml', 'The review settings', LIMITS.reviewConfig),
  ranking: tree('yaml', 'rankings/<designer>.yaml', 'A designer ranking (`.yaml`, `.yml`, `.json`)', LIMITS.ranking, true),
  image: flat('image', 'options/<id>.png', 'One image (option or remix), and a remix downloaded from the image model', LIMITS.imageBytes),
  csv: flat('csv', '<file>.csv', 'A CSV to import', LIMITS.csv),
  runRecord: tree('json', 'runs/<run>/run.json', 'A run record', LIMITS.runRecord),
  promptParts: tree('jsonl', 'runs/<run>/prompts.jsonl', "A run's prompt parts", KIND_BYTES.promptParts),
  driverLock: tree('json', 'runs/<run>/.driver.lock', 'The lock of the process driving a run', KIND_BYTES.driverLock),
  inboxEntry: tree('json', 'runs/<run>/inbox/<entry>.json', 'One inbox entry (a message or a pin)', KIND_BYTES.inboxEntry, true),
  ratings: tree('yaml', 'runs/<run>/ratings/<designer>.yaml', "A designer's ratings of their proxy", LIMITS.smallFile, true),
  survey: tree(
    'yaml',
    'runs/<run>/survey/<designer>.yaml',
    "A designer's survey answers (at the root, `survey/`, for a usual-way review)",
    LIMITS.smallFile,
    true,
  ),
  preference: tree('yaml', 'runs/<run>/preference/<designer>.yaml', "A designer's preference", LIMITS.smallFile, true),
  votes: tree('yaml', 'runs/<run>/votes/<designer>.yaml', "A member's votes on a run's forks", LIMITS.smallFile, true),
  coverage: tree(
    'yaml',
    'runs/<run>/coverage/<designer>.yaml',
    "A member's confirmations of the coverage of their points",
    LIMITS.smallFile,
    true,
  ),
  decision: tree('yaml', 'decision.yaml', 'What a team working the usual way picked, and when', LIMITS.smallFile),
  comments: {
    ...flat('markdown', 'comments/<designer>.md', "A designer's comments on the brief (front matter, then Markdown)", LIMITS.comment),
    perDesigner: true,
  },
  revisedBrief: flat(
    'markdown',
    'runs/<run>/iteration-<k>/brief.md',
    'A revised brief, its forks (`fork-<letter>.md`, the contested passage each way) and the baseline (`baseline.md`)',
    LIMITS.briefText,
  ),
  references: tree('yaml', 'references.yaml', 'The references list', LIMITS.smallFile),
  referencesNotes: flat('markdown', 'references/README.md', "The references' notes", LIMITS.brief),
  rerankKey: tree('json', 'runs/<run>/rerank/key.json', 'The blind re-ranking key', LIMITS.smallFile),
  analysis: tree('json', 'runs/<run>/analysis.json', 'The coding of a discussion', LIMITS.analysis),
  judge: tree('json', 'runs/<run>/judge.json', "A judge's verdicts", KIND_BYTES.judge),
  forecast: tree('json', 'runs/<run>/forecast.json', "The proxies' sealed forecasts of their designers' blind re-rank", LIMITS.smallFile),
  criteria: tree('json', 'criteria.json', "The team's criteria (found by `teamfusion criteria`)", LIMITS.smallFile),
  batchOutput: tree('jsonl', '(Batch API output file)', 'A batch output file downloaded from the Batch API', KIND_BYTES.batchOutput),
  journal: tree('jsonl', 'runs/<run>/journal.jsonl', "A run's journal (what it added since run.json was rewritten)", KIND_BYTES.journal),
  prices: tree('json', '$TEAMFUSION_PRICES', 'A price table', LIMITS.smallFile),
} as const satisfies Record<string, FileKind>;

export type FileKindName = keyof typeof FILE_KINDS;

/** A file nested deeper than its kind allows; `line`/`column` say where it first goes too deep. */
export class FileTooDeepError extends ReviewFileError {
  constructor(
    file: string,
    readonly line: number,
    readonly column: number,
    max: number,
  ) {
    super(
      file,
      `${file} nests lists and fields more than ${max} levels deep (line ${line}, column ${column}); a review file never needs that many, so it is not read.`,
      'too-large',
    );
    this.name = 'FileTooDeepError';
  }
}

/**
 * Depth of brackets of a JSON text (strings skipped), linear and without recursion; where it first goes deeper than
 * `max`, or undefined. JSON needs no YAML lexer: this is fast on an 8 MB record.
 */
export function checkJsonNesting(text: string, max: number = MAX_NESTING): { line: number; column: number } | undefined {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: skip to its closing quote (escapes skipped); a string never spans a line in valid JSON
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22 || s === 0x0a) break;
      }
      if (text.charCodeAt(i) === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    } else if (c === 0x0a) {
      line++;
      lineStart = i + 1;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return { line, column: i - lineStart + 1 };
    } else if (c === 0x5d || c === 0x7d) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

/** The nesting problem of a text of this kind, or undefined. */
export function nestingOf(kind: FileKind, text: string): { line: number; column: number } | undefined {
  if (kind.nesting === null) return undefined;
  if (kind.parser === 'yaml') {
    const p = checkNesting(text, kind.nesting);
    return p && { line: p.line, column: p.column };
  }
  return checkJsonNesting(text, kind.nesting);
}

/**
 * THE read of a file of a kind: contained, a regular file, at most the kind's bytes, UTF-8, and (tree formats) nested at
 * most the kind's depth — checked on the text before any parser builds a tree. Throws ReviewFileError naming the file
 * (FileTooDeepError with the place when it nests too deep).
 */
export async function readKindText(root: string, rel: string, kind: FileKindName | FileKind): Promise<string> {
  const k = typeof kind === 'string' ? FILE_KINDS[kind] : kind;
  const text = await readReviewText(root, rel, k.maxBytes);
  checkKindText(toRel(rel), text, k);
  return text;
}

/** The nesting check of readKindText for a text already in hand (an editor's buffer, a file named on the command line). */
export function checkKindText(file: string, text: string, kind: FileKindName | FileKind): void {
  const k = typeof kind === 'string' ? FILE_KINDS[kind] : kind;
  const deep = nestingOf(k, text);
  if (deep) throw new FileTooDeepError(file, deep.line, deep.column, k.nesting!);
}

/** A ReviewFileError as a diagnostic of its file (at the place it names, when it names one). */
export function fileErrorDiagnostic(err: ReviewFileError): Diagnostic {
  return err instanceof FileTooDeepError ? error(err.file, err.message, err.line, err.column) : error(err.file, err.message);
}

/** Diagnostics of files of a kind, capped per file (the first `diagnostics` of each, then one "… and N more" line). */
export function capKindDiagnostics(diagnostics: readonly Diagnostic[], kind: FileKindName | FileKind = 'ratings'): Diagnostic[] {
  const k = typeof kind === 'string' ? FILE_KINDS[kind] : kind;
  return capPerFile(diagnostics, k.diagnostics);
}

/** The table of file kinds in docs/security.md, one row per kind (a unit test checks the page holds exactly these rows). */
export function fileKindRows(): string[] {
  return Object.entries(FILE_KINDS).map(([name, k]: [string, FileKind]) => {
    const nesting = k.nesting === null ? '—' : `${k.nesting} levels`;
    const size =
      k.maxBytes >= 1024 * 1024 ? `${k.maxBytes / 1024 / 1024} MB` : k.maxBytes >= 1024 ? `${k.maxBytes / 1024} KB` : `${k.maxBytes} bytes`;
    const who = k.perDesigner ? ' (matched to the team)' : '';
    return `| \`${k.path}\` | ${k.what}${who} | ${size} | ${nesting} | ${k.parser} | ${k.diagnostics} | \`${name}\` |`;
  });
}
