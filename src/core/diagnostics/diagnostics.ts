/** Building, ordering and printing diagnostics (contract §3: `<file>:<line>:<col>: error|warning: <message>`). */
import { naturalCompare } from '../kernel/naturalOrder';
import { printable } from '../kernel/text';

export type Severity = 'error' | 'warning';

/** One problem found in a review folder. `file` is relative to the review root, with forward slashes. */
export interface Diagnostic {
  file: string;
  /** 1-based; 0 when unknown. */
  line: number;
  /** 1-based; 0 when unknown. */
  column: number;
  severity: Severity;
  message: string;
}

export function diag(file: string, line: number, column: number, severity: Severity, message: string): Diagnostic {
  return { file, line, column, severity, message };
}

export function error(file: string, message: string, line = 0, column = 0): Diagnostic {
  return diag(file, line, column, 'error', message);
}

export function warning(file: string, message: string, line = 0, column = 0): Diagnostic {
  return diag(file, line, column, 'warning', message);
}

/** One line (contract §3); control characters in file names or messages are escaped (see printable). */
export function formatDiagnostic(d: Diagnostic): string {
  return printable(`${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`);
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** By file (natural order, the review root "." first), then line, then column; stable otherwise. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort((x, y) => {
      if (x.d.file !== y.d.file) {
        if (x.d.file === '.') return -1;
        if (y.d.file === '.') return 1;
        return naturalCompare(x.d.file, y.d.file);
      }
      return x.d.line - y.d.line || x.d.column - y.d.column || x.i - y.i;
    })
    .map((x) => x.d);
}

/** Diagnostics kept per file; the rest are counted in one more diagnostic for that file (docs/security.md "Limits"). */
export const MAX_DIAGNOSTICS_PER_FILE = 50;

/** The count line of each capped file, and how many problems it stands for (so capping twice adds up, never nests). */
const summaries = new WeakMap<Diagnostic, { count: number; errors: number }>();

/**
 * At most MAX_DIAGNOSTICS_PER_FILE diagnostics per file (the first ones, in the given order), then one more for that file
 * right after its last kept one: "… and N more problems in <file>". Idempotent (a count line from an earlier cap is
 * merged, not counted). Never builds argument lists from the input (no spreads), so 200 000 problems are fine.
 */
export function capPerFile(diagnostics: readonly Diagnostic[], max: number = MAX_DIAGNOSTICS_PER_FILE): Diagnostic[] {
  const kept: Diagnostic[] = [];
  const keptPerFile = new Map<string, number>();
  const lastKept = new Map<string, number>();
  const extra = new Map<string, { count: number; errors: number }>();
  for (const d of diagnostics) {
    const earlier = summaries.get(d);
    const n = keptPerFile.get(d.file) ?? 0;
    if (!earlier && n < max) {
      keptPerFile.set(d.file, n + 1);
      lastKept.set(d.file, kept.length);
      kept.push(d);
      continue;
    }
    const e = extra.get(d.file) ?? { count: 0, errors: 0 };
    e.count += earlier ? earlier.count : 1;
    e.errors += earlier ? earlier.errors : d.severity === 'error' ? 1 : 0;
    extra.set(d.file, e);
  }
  if (extra.size === 0) return kept;
  const after = new Map<number, Diagnostic[]>();
  for (const [file, e] of extra) {
    const summary = diag(
      file,
      0,
      0,
      e.errors > 0 ? 'error' : 'warning',
      `… and ${e.count} more problem${e.count === 1 ? '' : 's'} in ${file} (only the first ${max} are listed).`,
    );
    summaries.set(summary, e);
    const at = lastKept.get(file) ?? -1;
    const list = after.get(at) ?? [];
    list.push(summary);
    after.set(at, list);
  }
  const out: Diagnostic[] = [];
  for (const s of after.get(-1) ?? []) out.push(s);
  kept.forEach((d, i) => {
    out.push(d);
    for (const s of after.get(i) ?? []) out.push(s);
  });
  return out;
}

/**
 * A run record that cannot be used; the message is its diagnostics, one per line. It lives here, below the record's
 * schemas, so the command line tells it apart (src/cli/main.ts) without loading them before a command needs them.
 */
export class RunRecordError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'RunRecordError';
  }
}
