/**
 * One person, one ranking (and one comment): two files of a folder whose `designer:` names are the same person (the same
 * name, folded as designer ids are: case, Unicode spelling, spaces) are an error at the second file, naming the first,
 * so nobody counts twice when a file is copied under another id.
 */
import { error } from '../diagnostics/diagnostics';
import type { Diagnostic } from '../diagnostics/diagnostics';
import { designerKey } from '../rankings/designerId';

/** A display name as a person's key: trimmed, inner spaces folded, then folded as designer ids are. */
export function personKey(name: string): string {
  return designerKey(name.trim().replace(/\s+/g, ' '));
}

/** Line and column (1-based) of the `designer` field in a YAML, JSON or front-matter text; [0, 0] when not found. */
function designerFieldAt(text: string): [number, number] {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = /(^|[\s{,])("?)designer\2\s*:/.exec(lines[i]!);
    if (m) return [i + 1, m.index + m[1]!.length + 1];
  }
  return [0, 0];
}

/** The files of one folder, met in order: `add` answers the diagnostic for a person met before. */
export class OnePersonOneFile {
  private readonly seen = new Map<string, string>();

  constructor(private readonly what: 'ranking' | 'comment') {}

  add(rel: string, name: string, text: string): Diagnostic | undefined {
    const key = personKey(name);
    if (!key) return undefined;
    const earlier = this.seen.get(key);
    if (earlier === undefined) {
      this.seen.set(key, rel);
      return undefined;
    }
    const [line, column] = designerFieldAt(text);
    return error(
      rel,
      `designer "${name}" is the same person as in ${earlier}: one person, one ${this.what}. Keep one of the two files (merge them), or correct the name if they are two people.`,
      line,
      column,
    );
  }
}
