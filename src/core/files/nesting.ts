/**
 * Nesting depth of a YAML (or JSON) text, measured on the token stream BEFORE any tree is built. The `yaml` package
 * composes documents recursively, so a file nested 100 000 levels deep would otherwise end in a raw "Maximum call stack
 * size exceeded" (or run out of memory); this check is linear and never recurses.
 *
 * The measure is an upper bound of the real depth: at the start of a line outside flow collections, the indentation
 * plus the number of `-`/`?`/`:` indicators that open the line, plus 2 (a mapping and an indentless sequence may share
 * a column); inside `[…]`/`{…}` that bound at the opening bracket plus the bracket depth. Quoted scalars, comments and
 * block scalars are skipped by the lexer, so brackets or indentation inside text never count.
 */
import { CST, Lexer } from '../yaml';

/** Deepest nesting a review file may have (a ranking needs 3 levels, a run record under 10). docs/security.md "Limits". */
export const MAX_NESTING = 64;

export interface NestingProblem {
  /** 1-based line and column where the nesting first goes deeper than the limit. */
  line: number;
  column: number;
  message: string;
}

const MARKERS = new Set(['doc-mode', 'flow-error-end', 'scalar']);

/** Undefined when the text nests at most `max` levels deep; else where it first goes deeper, in words. */
export function checkNesting(text: string, max: number = MAX_NESTING): NestingProblem | undefined {
  let offset = 0;
  let flow = 0;
  let base = 0;
  let indent = 0;
  let lead = 0;
  let atLineStart = true;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    // Lexer markers (one control character each) are not part of the source text.
    const length = type && MARKERS.has(type) && token.length === 1 ? 0 : token.length;
    const at = offset;
    offset += length;
    if (length === 0) continue;
    switch (type) {
      case 'newline':
        atLineStart = true;
        indent = 0;
        lead = 0;
        continue;
      case 'space':
        if (atLineStart && lead === 0) indent = token.length;
        continue;
      case 'seq-item-ind':
      case 'explicit-key-ind':
      case 'map-value-ind':
        if (atLineStart) lead++;
        break;
      case 'flow-seq-start':
      case 'flow-map-start':
        if (flow === 0) base = indent + lead + 2;
        flow++;
        atLineStart = false;
        break;
      case 'flow-seq-end':
      case 'flow-map-end':
        flow = Math.max(0, flow - 1);
        atLineStart = false;
        break;
      default:
        atLineStart = false;
        // A block scalar's content (or a multi-line token) that ends a line: the next token starts a new line.
        if (token.endsWith('\n')) {
          atLineStart = true;
          indent = 0;
          lead = 0;
        }
    }
    const depth = flow > 0 ? base + flow : indent + lead + 2;
    if (depth > max) {
      const { line, column } = lineColumn(text, at);
      return {
        line,
        column,
        message: `The lists and fields here are nested more than ${max} levels deep; a review file never needs that many, so it is not read.`,
      };
    }
  }
  return undefined;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
