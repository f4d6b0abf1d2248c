/**
 * A small strict JSON syntax checker that says WHERE the first mistake is and what it is, in words. (JSON.parse on
 * node 20 does not always report a position.) Values themselves are read later through the yaml parser, which keeps
 * node positions; this only guards the syntax so that YAML-only forms (comments, trailing commas, bare words) in a
 * .json file are reported instead of accepted.
 */
export interface JsonSyntaxProblem {
  /** Character offset into the text. */
  offset: number;
  message: string;
}

class Stop extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

// Kept whole (over 100 lines): a hand-written recursive-descent scanner whose small steps share one cursor `i`; split apart they would pass it around.
export function checkJsonSyntax(text: string): JsonSyntaxProblem | undefined {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const describe = (at: number): string => (at >= text.length ? 'the end of the file' : `"${text[at]}"`);
  const fail = (message: string, at = i): never => {
    throw new Stop(at, message);
  };

  const string = (): void => {
    const start = i;
    i++; // opening quote
    for (let c = text[i]; c !== undefined; c = text[i]) {
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('A \\u escape needs four hex digits.', i);
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail(`"\\${e ?? ''}" is not a valid escape in a JSON string.`, i);
        i += 2;
        continue;
      }
      if (c === '\n' || c === '\r') fail('A string cannot run over a line break; close it with " or write \\n.', i);
      if (c < ' ') fail('Control characters must be escaped inside a JSON string.', i);
      i++;
    }
    fail('This string is never closed with a double quote (").', start);
  };

  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === "'") fail('JSON strings use double quotes ("), not single quotes.');
    const num = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (num && num[0].length > 0 && c !== undefined && /[-0-9]/.test(c)) {
      i += num[0].length;
      return;
    }
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    if (c === undefined) fail('The file ends where a value was expected.');
    if (c === '/' || c === '#') fail('JSON does not allow comments.');
    fail(
      `Expected a value (text in double quotes, a number, true, false, null, [ or {) but found ${describe(i)}. Text must be in double quotes.`,
    );
  };

  /** After a member or an element: a comma goes on (false), `close` ends the object or array (true); both are consumed. */
  const closedAfterItem = (close: '}' | ']'): boolean => {
    ws();
    if (text[i] === ',') {
      i++;
      return false;
    }
    if (text[i] === close) {
      i++;
      return true;
    }
    return fail(`Expected "," or "${close}" but found ${describe(i)}. Is a comma missing?`);
  };

  const object = (): void => {
    i++; // {
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] === '}') fail('Remove the comma before "}": JSON does not allow a trailing comma.', i);
      if (text[i] === '/' || text[i] === '#') fail('JSON does not allow comments.');
      if (text[i] !== '"') fail(`Expected a property name in double quotes but found ${describe(i)}.`);
      string();
      ws();
      if (text[i] !== ':') fail(`Expected ":" after the property name but found ${describe(i)}.`);
      i++;
      value();
      if (closedAfterItem('}')) return;
    }
  };

  const array = (): void => {
    i++; // [
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] === ']') fail('Remove the comma before "]": JSON does not allow a trailing comma.', i);
      value();
      if (closedAfterItem(']')) return;
    }
  };

  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value();
    ws();
    if (i < text.length) fail(`Unexpected ${describe(i)} after the end of the JSON value.`);
    return undefined;
  } catch (err) {
    if (err instanceof Stop) return { offset: err.offset, message: err.message };
    // Only a stack overflow on absurdly deep nesting gets here.
    return { offset: 0, message: 'The JSON is nested too deeply to read.' };
  }
}
