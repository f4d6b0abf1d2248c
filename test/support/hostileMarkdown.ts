/**
 * The hostile Markdown corpus (issue 29): what a model or a member may write to make a deliverable live — raw HTML,
 * script and event handlers, javascript:/data: links, remote tracking images, autolinks, reference-style links, entities,
 * control and bidi characters — and `liveParts`, the check that a written file holds none of it: the file is rendered
 * by markdown-it with raw HTML ON, GFM-style autolinks ON and no link filter (the most permissive reading a viewer could
 * make), and every HTML token, every link or image that is not a relative file of the review, and every control or bidi
 * character is reported.
 */
import * as path from 'node:path';
import MarkdownIt from 'markdown-it';

/** One attack per line (each is also a paragraph of HOSTILE). */
export const HOSTILE_LINES = [
  '<script>alert("script")</script>',
  '<img src=x onerror="alert(1)">',
  '<iframe src="https://evil.example/frame"></iframe>',
  '<!-- hidden --><b onclick="x()">bold</b>',
  '[click me](javascript:alert(1)) and [also](<javascript:alert(2)>) and [spaced]( javascript:alert(3) )',
  '![](https://tracker.example/pixel.png) and ![alt](data:image/png;base64,AAAA)',
  'an autolink <http://evil.example/auto> and <mailto:x@evil.example>',
  'a reference [tracked][r1] and a shortcut [r1]',
  '[r1]: https://evil.example/ref "title"',
  '[r2]:\n  http://evil.example/split-definition',
  '[multi\nline]: https://evil.example/multi-line-label and [multi line]',
  '[r2] uses the split definition',
  '&lt;script&gt;alert(4)&lt;/script&gt; &#60;i&#62; &#x202E;reversed&#x202C; &#0; &rlm;',
  'controls:\u0000\u0007\u001b[31mred\u007f\u0085 end',
  'bidi: \u202Eevil.exe\u202C \u2066isolated\u2069 \u200Fmark',
  'bare https://bare.example/path and www.bare.example and mail@evil.example',
  '[entity link](&#106;avascript:alert(5))',
];

/** The corpus as one Markdown text. */
export const HOSTILE = HOSTILE_LINES.join('\n\n');

/** A brief's structure that must survive the writer: headings, lists, emphasis. */
export const STRUCTURED = '# Revised brief\n\n## Goal\n\n- awareness *first*\n- then **sales**\n\n1. one\n2. two\n\n> a quote\n';

const reader = new MarkdownIt({ html: true, linkify: true });
reader.linkify.set({ fuzzyLink: false }); // GFM's autolinks: scheme, www. and e-mail, not every word with a dot
reader.validateLink = () => true; // report a javascript: link rather than let the renderer hide it

type Token = ReturnType<MarkdownIt['parse']>[number];

/** A target a file may link to: a relative path that stays inside the review (file `at` is relative to the review root). */
function ownFile(target: string, at: string): boolean {
  if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/') || target.startsWith('\\')) return false;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(at), decodeURIComponent(target)));
  return !resolved.startsWith('..') && !path.posix.isAbsolute(resolved);
}

/** What in `markdown` (a file written at `at`, relative to the review root) is live; empty when it is inert. */
export function liveParts(markdown: string, at: string): string[] {
  const found: string[] = [];
  const control = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.exec(markdown);
  if (control) found.push(`control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0')}`);
  const walk = (tokens: Token[]): void => {
    for (const t of tokens) {
      if (t.type === 'html_block' || t.type === 'html_inline') found.push(`raw HTML ${JSON.stringify(t.content.slice(0, 60))}`);
      if (t.type === 'link_open' && !ownFile(String(t.attrGet('href') ?? ''), at))
        found.push(`link to ${JSON.stringify(t.attrGet('href'))}`);
      if (t.type === 'image' && !ownFile(String(t.attrGet('src') ?? ''), at)) found.push(`image from ${JSON.stringify(t.attrGet('src'))}`);
      // Text rendering as a control or bidi character (from an entity).
      if (t.type === 'text' && /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f]/.test(t.content))
        found.push(`control character from an entity in ${JSON.stringify(t.content.slice(0, 40))}`);
      if (t.children) walk(t.children);
    }
  };
  walk(reader.parse(markdown, {}));
  return found;
}

/** The Markdown structure of `markdown`: its headings, list items and emphasis, as token types (for "structure survives"). */
export function structureOf(markdown: string): string[] {
  const out: string[] = [];
  const walk = (tokens: Token[]): void => {
    for (const t of tokens) {
      if (['heading_open', 'bullet_list_open', 'ordered_list_open', 'em_open', 'strong_open', 'blockquote_open'].includes(t.type))
        out.push(t.type);
      if (t.children) walk(t.children);
    }
  };
  walk(reader.parse(markdown, {}));
  return out;
}
