/** Text as the tool shows it in sentences: values and names from files and models made safe and short. */

/**
 * Text from files or models made safe for one terminal line: C0 controls (newline as \n, tab as \t, CR as \r, ESC as
 * \x1b …), DEL, C1 (U+0080–U+009F) and bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C) are escaped.
 */
export function printable(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** How a value looks in a message: text in quotes, numbers as written, lists/maps by kind. */
export function shown(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'a list';
  return 'a group of fields';
}
