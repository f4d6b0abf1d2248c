/** Building, ordering and printing diagnostics (contract §3: `<file>:<line>:<col>: error|warning: <message>`). */
import type { Diagnostic, Severity } from './model';
import { naturalCompare } from './naturalOrder';

export function diag(file: string, line: number, column: number, severity: Severity, message: string): Diagnostic {
  return { file, line, column, severity, message };
}

export function error(file: string, message: string, line = 0, column = 0): Diagnostic {
  return diag(file, line, column, 'error', message);
}

export function warning(file: string, message: string, line = 0, column = 0): Diagnostic {
  return diag(file, line, column, 'warning', message);
}

export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}`;
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

/** Forward slashes, for `file` fields and messages. */
export function toPosix(p: string): string {
  return p.split('\\').join('/');
}
