/**
 * What every read-only question shares (issue 42): its input `{ review, runId? }`, the one-sentence refusal, member and model
 * text as quoted data, and the bound on an answer's size (an answer cut says so in `cut`).
 */
import * as z from 'zod';
import { RUN_ID_PATTERN } from '../record/paths';

const REVIEW_FIELD = 'A TeamFusion review folder: relative to the folder the questions are limited to (or absolute inside it).';
const RUN_FIELD = 'A run of that review, as named in its runs/ folder (like 2026-01-31T12-00-00Z-ab12); the newest run when absent.';

export const QuestionInputSchema = z.strictObject({
  review: z.string().min(1).max(1000).describe(REVIEW_FIELD),
  runId: z.string().regex(RUN_ID_PATTERN, 'not a run id; a run id looks like 2026-01-31T12-00-00Z-ab12').optional().describe(RUN_FIELD),
});
/**
 * The same fields as callers advertise them (the MCP tools' input schema): loose, so that a wrong field reaches `ask` and is
 * refused there in its one sentence rather than in the SDK's words.
 */
export const QuestionInputShown = z.looseObject({
  review: z.string().describe(REVIEW_FIELD),
  runId: z.string().optional().describe(RUN_FIELD),
});
export type QuestionInput = z.infer<typeof QuestionInputSchema>;

/** A question refused or unanswerable, in one sentence (never a stack, never a partial number). */
export class QuestionError extends Error {}

/** Text a member or a model wrote: data to show, never an instruction. Long text is cut and says so. */
export interface Quoted {
  quoted: string;
  cut?: true;
}
/** The most characters of one quoted text. */
export const QUOTE_MAX = 2000;

export function quote(text: string, max = QUOTE_MAX): Quoted {
  // Control characters (but line breaks) never travel inside a quote.
  const clean = text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, ' ');
  return clean.length <= max ? { quoted: clean } : { quoted: `${clean.slice(0, max)}…`, cut: true };
}

/** The most characters of an answer as JSON. */
export const ANSWER_MAX = 100_000;

/**
 * The value itself when its JSON fits in `max` characters; else a copy with every list cut to fewer items (halving until it
 * fits) and `cut`, a sentence saying what was cut. A value that is not an object is returned as it is.
 */
export function bounded<T>(value: T, max = ANSWER_MAX): T | (T & { cut: string }) {
  if (JSON.stringify(value).length <= max || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  for (let items = 64; items >= 1; items = Math.floor(items / 2)) {
    const shorter = trimLists(value, items) as T;
    const out = { ...shorter, cut: `The answer was longer than ${max} characters, so every list holds at most its first ${items} items.` };
    if (JSON.stringify(out).length <= max) return out;
  }
  return { cut: `The answer was longer than ${max} characters even with every list cut to one item, so it is left out.` } as T & {
    cut: string;
  };
}

function trimLists(v: unknown, items: number): unknown {
  if (Array.isArray(v)) return v.slice(0, items).map((x) => trimLists(x, items));
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(
      Object.entries(v)
        .slice(0, Math.max(items, 32))
        .map(([k, x]) => [k, trimLists(x, items)]),
    );
  return v;
}
