/**
 * Coverage you can verify (issue 32, item 2): a coverage quote is checked against the revised brief it claims to quote.
 * Both are folded the same way first — Unicode NFKC, case, every kind of quotation mark and dash to one, runs of
 * whitespace (and Markdown emphasis marks) to one space — so "Tone:  calm" quotes "**tone**: Calm"; anything else is
 * `verified: false`. A member with a comment and no point at all is "unreported": the engine asks once for a repair, then
 * says so in words ("the agent reported nothing for <name>"), never a blank.
 */
import type { Coverage } from '../record/record';

const QUOTES = /[\u2018\u2019\u201A\u201B\u2032\u2035`´"\u201C\u201D\u201E\u201F\u2033\u2036«»‹›]/g;
const DASHES = /[\u2010-\u2015\u2212]/g;

/** The text as quotes are compared: NFKC, lower case, one kind of quote and dash, emphasis marks and whitespace runs folded. */
export function foldForQuote(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(QUOTES, "'").replace(DASHES, '-').replace(/[*_]+/g, '').replace(/\s+/g, ' ').trim();
}

/** A quote folded, without the quotation marks a model may put around it. */
function foldQuote(quote: string): string {
  return foldForQuote(quote)
    .replace(/^'+|'+$/g, '')
    .trim();
}

/** Whether `quote` occurs in `text` once both are folded; an empty quote is never found. */
export function quoteFound(quote: string, text: string): boolean {
  const q = foldQuote(quote);
  return q !== '' && foldForQuote(text).includes(q);
}

/** The coverage with `verified` set on every entry that has a quote (left-out entries have none and get none). */
export function markVerified(coverage: readonly Coverage[], revisedBrief: string): Coverage[] {
  const folded = foldForQuote(revisedBrief);
  return coverage.map((c) => {
    const { verified: _old, ...rest } = c;
    if (c.status === 'left-out') return rest;
    // A point the brief is said to carry, with no quote to show where, is not verified either.
    const q = c.quote === undefined ? '' : foldQuote(c.quote);
    return { ...rest, verified: q !== '' && folded.includes(q) };
  });
}

/** The members (in the order given) who have no coverage entry at all. */
export function unreportedMembers(coverage: readonly Coverage[], memberIds: readonly string[]): string[] {
  const seen = new Set(coverage.map((c) => c.designer));
  return memberIds.filter((id) => !seen.has(id));
}

/** Coverage entries that claim the brief carries a point but give no quote, or a quote the brief does not hold. */
export function unverifiedEntries(coverage: readonly Coverage[]): Coverage[] {
  return coverage.filter((c) => c.status !== 'left-out' && c.verified !== true);
}

/** What is wrong with a round's coverage, in a sentence for the remix agent; undefined when nothing is. */
export function coverageProblem(coverage: readonly Coverage[], memberIds: readonly string[]): string | undefined {
  const parts: string[] = [];
  const bad = unverifiedEntries(coverage);
  if (bad.length) {
    const listed = bad
      .slice(0, 20)
      .map((c) => `${c.designer}: ${JSON.stringify(c.point)}${c.quote ? ` (quote ${JSON.stringify(c.quote)})` : ' (no quote)'}`);
    parts.push(
      `${bad.length} coverage quote${bad.length === 1 ? ' is' : 's are'} not found word for word in your revisedBrief: ${listed.join('; ')}${bad.length > 20 ? '; …' : ''}. ` +
        'Give as "quote" a short passage copied exactly from revisedBrief, or mark the point "left-out" when the brief does not carry it.',
    );
  }
  const missing = unreportedMembers(coverage, memberIds);
  if (missing.length) {
    parts.push(`Every member who commented must have at least one coverage entry; there is none for ${missing.join(', ')}.`);
  }
  return parts.length ? parts.join(' ') : undefined;
}

/** How many problems a round's coverage has (for choosing the better of an answer and its repair). */
export function coverageProblemCount(coverage: readonly Coverage[], memberIds: readonly string[]): number {
  return unverifiedEntries(coverage).length + unreportedMembers(coverage, memberIds).length;
}

/** The words for a member who commented and got no coverage entry at all (result.md, the log, the panel). */
export function reportedNothing(name: string): string {
  return `the agent reported nothing for ${name}`;
}
