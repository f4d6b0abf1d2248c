/**
 * Nothing is written past its own read cap: a file the tool writes is checked against the cap its readers apply
 * (FILE_KINDS, the one table of caps) BEFORE a byte is written. Text meant for people (a revised brief, the baseline) is
 * cut at a word boundary and the cut is said; a machine file (judge.json, analysis.json, prompts.jsonl …) is refused in
 * words, so the file as it was, and the run, stay usable.
 */
import { FILE_KINDS, type FileKind, type FileKindName } from './fileKinds';
import { ReviewFileError, formatBytes } from './reviewFiles';
import { writeReviewFile } from './reviewWrites';

/** Where a writer says what it did (the run's log, stderr …). */
export type CapLog = (line: string) => void;

/** The note a cut text ends with (inside the cap). */
function cutNote(cap: number): string {
  return `\n\n*(Cut here: the text was longer than the ${formatBytes(cap)} this file may hold.)*\n`;
}

/**
 * `text` within `cap` bytes of UTF-8: unchanged when it fits; otherwise cut at the last word boundary before the cap
 * (never inside a character), a note appended, and one line said through `log` naming the file and both sizes.
 */
export function cutToBytes(text: string, cap: number, file: string, log?: CapLog): { text: string; cut: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= cap) return { text, cut: false };
  const note = cutNote(cap);
  let end = Math.max(0, cap - Buffer.byteLength(note, 'utf8'));
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--; // not inside a character
  let kept = bytes.subarray(0, end).toString('utf8');
  const lastSpace = kept.search(/\s\S*$/);
  if (lastSpace > 0) kept = kept.slice(0, lastSpace);
  const out = `${kept.trimEnd()}${note}`;
  log?.(
    `${file} was cut at a word boundary to ${formatBytes(Buffer.byteLength(out, 'utf8'))}: the text was ${formatBytes(bytes.length)}, and its readers read at most ${formatBytes(cap)}.`,
  );
  return { text: out, cut: true };
}

/** Throws (in words, naming the file) when `bytes` would pass `cap`; nothing is written. `already`: bytes the file has (an append). */
export function refuseOverCap(file: string, bytes: number, cap: number, already = 0): void {
  if (already + bytes <= cap) return;
  const grow = already ? `would grow to ${formatBytes(already + bytes)}` : `would be ${formatBytes(bytes)}`;
  throw new ReviewFileError(
    file,
    `${file} ${grow}, over the ${formatBytes(cap)} its readers read; it is not written, and the file as it was stays usable.`,
    'too-large',
  );
}

/** `data` as text or bytes, measured. */
export function byteLength(data: string | Uint8Array): number {
  return typeof data === 'string' ? Buffer.byteLength(data, 'utf8') : data.byteLength;
}

/**
 * Writes a file of a kind the tool reads back (judge.json, analysis.json, ratings, decision.yaml, a ranking …) only when
 * it fits that kind's read cap (FILE_KINDS); otherwise refused in words before anything is written (refuseOverCap).
 */
export async function writeKindFile(
  root: string,
  rel: string,
  kind: FileKindName | FileKind,
  data: string | Uint8Array,
  opts: { exclusive?: boolean; sync?: boolean } = {},
): Promise<void> {
  const k = typeof kind === 'string' ? FILE_KINDS[kind] : kind;
  refuseOverCap(rel, byteLength(data), k.maxBytes);
  await writeReviewFile(root, rel, data, opts);
}
