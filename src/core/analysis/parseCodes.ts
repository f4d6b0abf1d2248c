/**
 * Reads one coding answer: which of the asked messages got a valid category, and what was wrong with the rest.
 * Nothing is guessed or clamped: a category outside 1–13, an id that was not asked for, a message coded twice with two
 * different categories, or a message left out are problems, and those messages stay uncoded (to be retried).
 */
import { isCategory } from './bales';

export interface ParsedCodes {
  codes: Map<string, number>;
  /** In words, for the repair message and the log; empty when every asked message got a valid code. */
  problems: string[];
}

export function parseCodes(content: string, ids: readonly string[]): ParsedCodes {
  const codes = new Map<string, number>();
  const problems: string[] = [];
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch {
    return { codes, problems: ['the answer is not valid JSON.'] };
  }
  const list = typeof json === 'object' && json !== null ? (json as { codes?: unknown }).codes : undefined;
  if (!Array.isArray(list)) return { codes, problems: ['the answer has no "codes" list.'] };
  const asked = new Set(ids);
  const conflicting = new Set<string>();
  for (const entry of list) {
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as { message?: unknown; category?: unknown };
    const id = typeof e.message === 'string' ? e.message : undefined;
    if (id === undefined || !asked.has(id)) {
      problems.push(`${JSON.stringify(e.message ?? null)} is not one of the messages asked for.`);
      continue;
    }
    if (!isCategory(e.category)) {
      problems.push(`the category ${JSON.stringify(e.category ?? null)} given for ${id} is not a category number from 1 to 13.`);
      continue;
    }
    const before = codes.get(id);
    if (before !== undefined && before !== e.category) conflicting.add(id);
    codes.set(id, e.category);
  }
  for (const id of conflicting) {
    codes.delete(id);
    problems.push(`${id} was given two different categories.`);
  }
  const missing = ids.filter((id) => !codes.has(id) && !conflicting.has(id));
  if (missing.length) problems.push(`no valid code for ${missing.join(', ')}.`);
  return { codes, problems };
}
