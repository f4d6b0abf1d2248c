/**
 * zod schemas of the fields of a ranking file (contract §1), each with the message a designer reads when it fails.
 * Positions are attached by rankingText.ts, which checks one field at a time so that every problem is reported.
 */
import * as z from 'zod';
import { shown } from '../kernel/text';

const textNote = (value: unknown): string =>
  typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? ', which is text: remove the quotes' : '';

/** A line break, a control character (C0, DEL, C1) or a bidi control: never in a name or a role. */
const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * A name or a role is data, one line of text: a line break or a control character could forge a line of a prompt
 * (another member speaking, a "SYSTEM:" line), so it is refused at validation, at the value's place.
 */
export function isOneLine(s: string): boolean {
  return !NOT_ONE_LINE.test(s);
}

/** The sentence for a name or role that is not one line (`what`: "The designer name", "A guest's role" …). */
export function notOneLineMessage(what: string, input: unknown): string {
  return `${what} must be one line of text, without line breaks or control characters (found ${shown(input)}).`;
}

export const designerField = z
  .string({ error: (iss) => `The designer must be a name in text (found ${shown(iss.input)}).` })
  .refine((s) => s.trim() !== '', { error: 'The designer name is empty. Write the display name, e.g. designer: Ana Ruiz.' })
  .refine(isOneLine, { error: (iss) => notOneLineMessage('The designer name', iss.input) });

export const roleField = z
  .string({ error: (iss) => `The role must be text, e.g. role: Art Director (found ${shown(iss.input)}).` })
  .refine(isOneLine, { error: (iss) => notOneLineMessage('The role', iss.input) });

export const weightField = z
  .number({ error: (iss) => `The weight must be a number greater than 0 (found ${shown(iss.input)}${textNote(iss.input)}).` })
  .refine((n) => Number.isFinite(n) && n > 0, {
    error: (iss) => `The weight must be a number greater than 0 (found ${shown(iss.input)}). Leave it out for the default weight 1.`,
  });

const rankMessage = (input: unknown): string => `Rank must be a whole number of 1 or more (found ${shown(input)}${textNote(input)}).`;

export const rankField = z
  .number({ error: (iss) => rankMessage(iss.input) })
  .int({ error: (iss) => rankMessage(iss.input) })
  .min(1, { error: (iss) => rankMessage(iss.input) });

export const justificationField = z
  .string({ error: (iss) => `The justification must be text (found ${shown(iss.input)}).` })
  .refine((s) => s.trim() !== '', {
    error: 'The justification is empty. Write a sentence on why this option has this rank.',
  });

export const optionField = z.union([z.string(), z.number().int().nonnegative()], {
  error: (iss) => `The option must be an option id in quotes, e.g. option: "4" (found ${shown(iss.input)}).`,
});

export const rankingListField = z.array(z.unknown(), {
  error: (iss) => `ranking must be a list of entries, each starting with "- option:" (found ${shown(iss.input)}).`,
});

export const TOP_LEVEL_FIELDS = ['designer', 'role', 'weight', 'ranking'] as const;
export const ENTRY_FIELDS = ['option', 'rank', 'justification'] as const;
