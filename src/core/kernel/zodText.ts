/**
 * THE way a zod failure is shown to people: one sentence naming the field, what was wrong and what is allowed — never a
 * dumped schema error (a JSON list of issues). Every user-facing `safeParse` failure goes through `zodSentence`.
 */
import type * as z from 'zod';
import { printable } from './text';

type Issue = z.core.$ZodIssue;

/** zod's own messages ("Too big: expected string to have <=4000 characters", "Invalid input: …"). */
const DEFAULT_MESSAGE = /^(Too big|Too small|Invalid|Unrecognized key|Expected|Required|String must|Number must|Array must)/;

function where(path: readonly PropertyKey[], subject: string): string {
  const p = path
    .filter((x): x is string | number => typeof x !== 'symbol')
    .map((x, i) => (typeof x === 'number' ? `[${x}]` : i === 0 ? printable(x) : `.${printable(x)}`))
    .join('');
  return p || subject;
}

function count(n: number | bigint, one: string): string {
  return `${n} ${one}${Number(n) === 1 ? '' : 's'}`;
}

/** One issue as a sentence. `subject` names the whole value when the issue has no path ("the entry", "the key" …). */
export function zodIssueSentence(issue: Issue, subject = 'the value'): string {
  const at = where(issue.path, subject);
  const input = (issue as { input?: unknown }).input;
  // A message the schema wrote itself (the setting bounds, refinements) is already a sentence: keep it.
  if (!DEFAULT_MESSAGE.test(issue.message)) return `${at}: ${printable(issue.message).replace(/\.?$/, '.')}`;
  switch (issue.code) {
    case 'too_big': {
      const max = issue.maximum;
      if (issue.origin === 'string')
        return `${at} is too long (${typeof input === 'string' ? count(input.length, 'character') + '; ' : ''}at most ${count(max, 'character')}).`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `${at} has too many entries (${Array.isArray(input) ? `${input.length}; ` : ''}at most ${max}).`;
      return `${at} must be at most ${max}.`;
    }
    case 'too_small': {
      const min = issue.minimum;
      if (issue.origin === 'string')
        return Number(min) <= 1 ? `${at} must not be empty.` : `${at} is too short (at least ${count(min, 'character')}).`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `${at} needs at least ${count(min, 'entry').replace(/entrys$/, 'entries')}.`;
      return `${at} must be at least ${min}.`;
    }
    case 'invalid_type': {
      const received = /received (\w+)/.exec(issue.message)?.[1];
      if (received === 'undefined' || (received === undefined && input === undefined)) return `${at} is missing.`;
      const found =
        input !== undefined ? shownType(input) : received === 'array' ? 'a list' : received === 'object' ? 'a group of fields' : received;
      return `${at} must be ${article(issue.expected)}${found ? ` (found ${found})` : ''}.`;
    }
    case 'invalid_value':
      return `${at} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'unrecognized_keys':
      return `${at === subject ? subject : at} has fields that are not allowed: ${issue.keys.map((k) => printable(k)).join(', ')}.`;
    case 'invalid_union':
      return `${at} is not any of the shapes allowed here.`;
    case 'invalid_format':
      return `${at} is not in the form expected (${issue.format}).`;
    default:
      return `${at} is not valid.`;
  }
}

/** The first issue of a failed parse as one sentence (see zodIssueSentence). */
export function zodSentence(error: z.ZodError, subject?: string): string {
  const issue = error.issues[0];
  return issue ? zodIssueSentence(issue, subject) : `${subject ?? 'the value'} is not valid.`;
}

function article(expected: string): string {
  const word = expected === 'array' ? 'list' : expected === 'object' ? 'group of fields' : expected;
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

function shownType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return v.length > 40 ? `"${printable(v.slice(0, 40))}…"` : `"${printable(v)}"`;
  if (typeof v === 'object') return 'a group of fields';
  return printable(String(v));
}
