/**
 * THE Markdown writer: the one place where text from files, people or models is made safe for the Markdown files the
 * tool writes. Its rules, one module:
 *   - `codeSpan`: a file name in such a line, as an inline code span no linkifier reads as an address;
 *   - `escapeMarkdown`: a name, a message or a file name on one line of result.md, transcript.md, evaluation.md …,
 *     rendered as the text it is (no Markdown at all);
 *   - `inertMarkdown` / `writeInertMarkdown`: a whole Markdown text written from model or member text (revised briefs,
 *     baseline.md, rerank/A.md and B.md, result.md, transcript.md, evaluation.md) keeps its structure — headings, lists,
 *     quotes, emphasis, tables — but nothing in it is live:
 *       - no raw HTML: every `<` becomes `&lt;` (a tag, a comment or an <autolink> reads as the text it is);
 *       - no links or images, except a relative link to a file of the review itself (checked against the file's own
 *         place): `](` of any other link becomes `]\(`, a reference definition's `]:` becomes `]\:` (so `[x][y]` links
 *         nowhere), and bare web and mail addresses are broken (`https\://`, `www\.`, `javascript\:`, `a\@b.com`) so
 *         no renderer turns them into links;
 *       - no control or bidi characters: removed, also when written as a numeric entity (`&#x202E;`) or `&lrm;`/`&rlm;`.
 *     Code is treated like prose (a fence a renderer reads differently could otherwise carry live HTML out), so a `<` in
 *     code reads `&lt;`. The pass is idempotent, so text already escaped with escapeMarkdown goes through unchanged.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { cutToBytes, type CapLog } from './writeCaps';
import { printable } from '../kernel/text';
import { toRel } from './reviewFiles';
import { writeReviewFile } from './reviewWrites';

/** Bare addresses broken so GFM and linkify do not turn them into links (https\://, www\., javascript\:). */
function breakAddresses(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*):(?=\/\/)/gi, '$1\\:') // https:// …
    .replace(/\b(www)\.(?=\S)/gi, '$1\\.') // www.example.com
    .replace(/\b(mailto|javascript|data|vbscript):/gi, '$1\\:');
}

/**
 * Text on one Markdown line: line breaks become spaces; control and bidi characters are shown escaped (\x1b …); `&` and
 * `<` become entities (no raw HTML, no <autolink>); every character inline Markdown could read as syntax (`* _ [ ] ( ) ! #
 * | ~ > \` and the backtick) is backslash-escaped; bare web addresses are broken so GFM does not turn them into links.
 */
export function escapeMarkdown(text: string): string {
  return breakAddresses(
    printable(text.replace(/\s*[\r\n]+\s*/g, ' '))
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/[\\`*_[\]()#!|~>]/g, (c) => `\\${c}`),
  );
}

/**
 * Text as an inline code span (a file name in a deliverable, issue 39): no viewer's linkifier turns `brief.md` or
 * `comments/ana.md` inside it into a link, and nothing in it is Markdown. Line breaks become spaces and control characters
 * are shown escaped; the fence is one backtick longer than the longest run inside, padded where the text touches it.
 */
export function codeSpan(text: string): string {
  const flat = printable(text.replace(/\s*[\r\n]+\s*/g, ' '));
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat === '' ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** A relative path (forward slashes) as a Markdown link target: every segment percent-encoded, parentheses too. */
export function markdownUrl(rel: string): string {
  return rel
    .split('/')
    .map((seg) =>
      seg === '..' || seg === '.'
        ? seg
        : encodeURIComponent(seg).replace(/[()'!*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join('/');
}

/** C0 (but tab and line feed), DEL, C1, and the bidi controls; removed. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

function isControlCode(code: number): boolean {
  return (
    (code !== 0x09 && code !== 0x0a && code <= 0x1f) ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x61c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff ||
    code > 0x10ffff
  );
}

/** Numeric entities of a control or bidi character, and the named bidi marks: removed (they would render as the character). */
function dropControlEntities(text: string): string {
  return text
    .replace(/&#(x[0-9a-f]+|[0-9]+);?/gi, (m, n: string) =>
      isControlCode(n[0] === 'x' || n[0] === 'X' ? parseInt(n.slice(1), 16) : parseInt(n, 10)) ? '' : m,
    )
    .replace(/&(?:lrm|rlm|lre|rle|pdf|lro|rlo|lri|rli|fsi|pdi|zwnbsp);/gi, '');
}

/** A link target kept live: a plain relative path (no scheme, no leading slash) that stays inside the review. */
function ownRelative(target: string, at: string): boolean {
  if (!/^[A-Za-z0-9._~%/+-]+$/.test(target) || target.startsWith('/')) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return false;
  }
  if (/[\\:\u0000-\u001f]/.test(decoded)) return false;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(toRel(at)) || '.', decoded));
  return resolved !== '..' && !resolved.startsWith('../') && !path.posix.isAbsolute(resolved);
}

/** One line of text made inert (see the module comment); `at` is the written file, relative to the review root. */
function inertLine(line: string, at: string): string {
  const linked = line
    .replace(/</g, '&lt;')
    .replace(
      /(!?)\[([^[\]]*)\]\(([^()\s]*)\)|\]\(/g,
      (m, bang: string | undefined, label: string | undefined, target: string | undefined) => {
        if (target !== undefined && ownRelative(target, at)) return m;
        if (target === undefined) return ']\\(';
        return `${bang ?? ''}[${label}]\\(${target})`;
      },
    )
    .replace(/\]:/g, ']\\:');
  return breakAddresses(linked).replace(/([\w.+-])@(?=[\w-]+\.[\w-])/g, '$1\\@'); // a@b.com
}

/** The text made inert (see the module comment); `at` is the written file relative to the review root. */
export function inertMarkdown(text: string, at: string): string {
  const clean = dropControlEntities(text.replace(/\r\n?/g, '\n').replace(CONTROL, ''));
  return clean
    .split('\n')
    .map((l) => inertLine(l, at))
    .join('\n');
}

/**
 * Writes a Markdown file of the review through the one rule: made inert, then fitted to `cap` bytes (the cap its readers
 * apply; cut at a word boundary and said through `log`), then written (contained, atomically). Returns whether it was cut.
 */
export async function writeInertMarkdown(
  root: string,
  rel: string,
  text: string,
  opts: { cap?: number; log?: CapLog; exclusive?: boolean } = {},
): Promise<{ cut: boolean; sha256: string }> {
  const inert = inertMarkdown(text, rel);
  const fitted = opts.cap === undefined ? { text: inert, cut: false } : cutToBytes(inert, opts.cap, toRel(rel), opts.log);
  await writeReviewFile(root, rel, fitted.text, opts.exclusive ? { exclusive: true } : {});
  return { cut: fitted.cut, sha256: createHash('sha256').update(fitted.text).digest('hex') };
}
