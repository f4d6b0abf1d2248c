/**
 * Terminal-safe output of the CLI. Text from files or models never reaches the terminal as a control sequence:
 * every line goes through `printable()` (C0 incl. newline/tab/CR/ESC, DEL, C1, bidi controls escaped), so one problem
 * is always one line. `--json` output escapes the same characters as \uXXXX inside strings (valid JSON, and safe to
 * print: JSON.stringify alone escapes C0 but not DEL, C1, bidi controls or U+2028/U+2029).
 */
import { printable } from '../core/kernel/text';
import { formatDiagnostic } from '../core/diagnostics/diagnostics';
import type { Diagnostic } from '../core/diagnostics/diagnostics';

export { printable };

/** Writes one line: `text` with every control character escaped, then a newline. */
export function writeLine(stream: NodeJS.WritableStream, text: string): void {
  stream.write(`${printable(text)}\n`);
}

/** Text of several lines (e.g. a table with names from files): each line made printable, the line breaks kept. */
export function printableLines(text: string): string {
  return text
    .split('\n')
    .map((l) => printable(l))
    .join('\n');
}

/**
 * One diagnostic, one line. One about the review folder as a whole (no file inside it, no position: it does not exist,
 * it is a file) is said as a sentence, `error: …`, not `.:0:0: error: …`.
 */
export function writeDiagnostic(stream: NodeJS.WritableStream, d: Diagnostic): void {
  if (d.file === '.' && d.line === 0 && d.column === 0) writeLine(stream, `${d.severity}: ${d.message}`);
  else writeLine(stream, formatDiagnostic(d));
}

/** JSON.stringify (2-space indented) with DEL, C1, bidi controls and U+2028/U+2029 escaped as \uXXXX as well. */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
