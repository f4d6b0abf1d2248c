/**
 * Where a value sits in a JSON text, for diagnostics that point at it (`file:line:col`). The text has passed
 * checkJsonSyntax (jsonSyntax.ts) first, so this scanner can be small: it walks a path of keys and indexes and returns
 * the offset of the deepest value it reached (the whole document when the first step is already missing).
 */

/** 1-based line and column (in UTF-16 code units) of a character offset. */
export function lineColAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

const isWs = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\uFEFF';

function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text[i])) i++;
  return i;
}

/** End (exclusive) of the string starting at i (text[i] === '"'). */
function skipString(text: string, i: number): number {
  for (i++; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** End (exclusive) of the value starting at i; nesting is walked with a counter, never recursion. */
function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c !== '{' && c !== '[') {
    while (i < text.length && !isWs(text[i]) && text[i] !== ',' && text[i] !== '}' && text[i] !== ']') i++;
    return i;
  }
  let depth = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      i = skipString(text, i);
      continue;
    }
    if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}

/** Offset of the value at `path` (keys of objects, indexes of arrays), or of the deepest ancestor found. */
export function locateJsonValue(text: string, path: readonly (string | number)[]): number {
  let at = skipWs(text, 0);
  for (const step of path) {
    const next = childOffset(text, at, step);
    if (next === undefined) return at;
    at = next;
  }
  return at;
}

function childOffset(text: string, at: number, step: string | number): number | undefined {
  const open = text[at];
  let i = skipWs(text, at + 1);
  if (open === '[' && typeof step === 'number') {
    for (let index = 0; i < text.length && text[i] !== ']'; index++) {
      if (index === step) return i;
      i = skipWs(text, skipValue(text, i));
      if (text[i] === ',') i = skipWs(text, i + 1);
    }
    return undefined;
  }
  if (open !== '{') return undefined;
  let found: number | undefined; // the last of duplicate keys wins, as in JSON.parse
  while (i < text.length && text[i] === '"') {
    const keyEnd = skipString(text, i);
    let key: unknown;
    try {
      key = JSON.parse(text.slice(i, keyEnd));
    } catch {
      return found;
    }
    i = skipWs(text, keyEnd);
    if (text[i] === ':') i = skipWs(text, i + 1);
    if (key === String(step)) found = i;
    i = skipWs(text, skipValue(text, i));
    if (text[i] === ',') i = skipWs(text, i + 1);
  }
  return found;
}
