/**
 * Quotes checked against the words they claim to quote (issue 34, item 2): a quote counts only when it is found in the
 * file it names after folding — Unicode compatibility forms, case, curly and straight quotes, dashes, and every run of
 * white space (YAML folds lines; Markdown wraps them) made one space. Nothing else is forgiven: a paraphrase is not a quote.
 */

/** The text as compared: NFKC, lower case, one kind of quote and dash, white space folded, Markdown emphasis marks dropped. */
export function foldForQuote(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201a\u201b\u2032\u00b4`]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[*_]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Quotes shorter than this (folded) prove nothing: "the" is in every file. */
export const MIN_QUOTE_CHARS = 8;

/** Whether `quote` is in any of `texts` (the file's bytes as text, and what was parsed out of it). */
export function quoteFound(quote: string, texts: readonly string[]): boolean {
  const q = foldForQuote(quote)
    .replace(/^["']+|["']+$/g, '')
    .trim();
  if (q.length < MIN_QUOTE_CHARS) return false;
  return texts.some((t) => foldForQuote(t).includes(q));
}
