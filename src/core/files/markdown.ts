/**
 * The one place where text from files, people or models is made safe for the Markdown files the tool writes
 * (transcript.md, result.md, evaluation.md …): it renders as the text it is, never as HTML, a link, an image or a control
 * character. Used for every name, message and file name those files carry.
 */
import { printable } from '../kernel/text';

/**
 * Text on one Markdown line: line breaks become spaces; control and bidi characters are shown escaped (\x1b …); `&` and
 * `<` become entities (no raw HTML, no <autolink>); every character inline Markdown could read as syntax (`* _ [ ] ( ) ! #
 * | ~ > \` and the backtick) is backslash-escaped; bare web addresses are broken so GFM does not turn them into links.
 */
export function escapeMarkdown(text: string): string {
  return printable(text.replace(/\s*[\r\n]+\s*/g, ' '))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/[\\`*_[\]()#!|~>]/g, (c) => `\\${c}`)
    .replace(/\b([a-z][a-z0-9+.-]*):(?=\/\/)/gi, '$1\\:') // https:// …
    .replace(/\b(www)\.(?=\S)/gi, '$1\\.') // www.example.com
    .replace(/\b(mailto|javascript|data|vbscript):/gi, '$1\\:');
}

/** A relative path (forward slashes) as a Markdown link target: every segment percent-encoded, parentheses too. */
export function markdownUrl(rel: string): string {
  return rel
    .split('/')
    .map((seg) => (seg === '..' || seg === '.' ? seg : encodeURIComponent(seg).replace(/[()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)))
    .join('/');
}
