/**
 * The brief's Markdown → DOM, built element by element from markdown-it's tokens: text always goes in as text nodes and
 * only the elements and attributes named here are ever made, so nothing a brief says becomes markup, a style or a
 * script (no HTML string is parsed, so no sanitiser is needed). markdown-it runs with `html: false`, so raw HTML in the
 * Markdown is text. Links may only go to http(s) or mailto (VS Code opens them outside the panel); images may only
 * come from the review folder. `markdownTree` is the pure half (unit tested); `renderMarkdown` makes the nodes.
 */
import MarkdownIt from 'markdown-it';
import { append, fileUrl, h, type Child } from '../dom';

type Token = ReturnType<MarkdownIt['parse']>[number];

/** Text, or an element of the allowed tags with its (already checked) attributes. */
export type MdNode = string | { tag: string; attrs: Record<string, string>; children: MdNode[] };

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

/** The elements a brief may hold: anything else markdown-it makes keeps its content without its element. */
const TAGS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'ul',
  'ol',
  'li',
  'pre',
  'code',
  'hr',
  'br',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'em',
  'strong',
  's',
  'a',
  'img',
]);
const SAFE_LINK = /^(?:https?:|mailto:)/i;

/** The attributes kept for an element (each checked); `undefined`: the element is dropped, content and all. */
function attributesOf(t: Token, base: string): Record<string, string> | undefined {
  const attr = (name: string) => String(t.attrGet(name) ?? '').trim();
  switch (t.tag) {
    case 'a': {
      const href = attr('href');
      return SAFE_LINK.test(href) ? { href, rel: 'noopener noreferrer', title: href } : {};
    }
    case 'img': {
      const src = attr('src');
      const relative = !!src && !/^[a-z][a-z0-9+.-]*:/i.test(src) && !src.startsWith('/') && !src.split('/').includes('..');
      return relative && base
        ? { src: fileUrl(base, src.replace(/^\.\//, '')), alt: (t.children ?? []).map((c) => c.content).join('') }
        : undefined;
    }
    case 'ol': {
      const start = attr('start');
      return /^\d{1,9}$/.test(start) ? { start } : {};
    }
    default:
      return {};
  }
}

/** The brief's Markdown as nodes; relative image paths resolve against the review folder's webview URI `base`. */
export function markdownTree(markdown: string, base: string): MdNode[] {
  const root: MdNode[] = [];
  // The children being filled, innermost last; a dropped element's content is kept in its parent's.
  const stack: MdNode[][] = [root];
  // markdown-it's tokens open and close in pairs, so the root is never popped.
  const innermost = (): MdNode[] => stack.at(-1) ?? root;
  const add = (n: MdNode) => innermost().push(n);
  const open = (t: Token) => {
    const attrs = TAGS.has(t.tag) ? attributesOf(t, base) : undefined;
    if (attrs === undefined) {
      stack.push(innermost());
      return;
    }
    const el = { tag: t.tag, attrs, children: [] as MdNode[] };
    add(el);
    stack.push(el.children);
  };
  const walk = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.nesting === 1) open(t);
      else if (t.nesting === -1) stack.pop();
      else if (t.type === 'inline') walk(t.children ?? []);
      else if (t.type === 'softbreak') add('\n');
      else if (t.type === 'fence' || t.type === 'code_block')
        add({ tag: 'pre', attrs: {}, children: [{ tag: 'code', attrs: {}, children: [t.content] }] });
      else if (t.type === 'code_inline') add({ tag: 'code', attrs: {}, children: [t.content] });
      else if (t.type === 'image') {
        const attrs = attributesOf(t, base);
        if (attrs) add({ tag: 'img', attrs, children: [] });
      } else if (t.type === 'hr' || t.type === 'hardbreak') add({ tag: t.tag, attrs: {}, children: [] });
      else if (t.content) add(t.content); // text (and raw HTML, which html: false leaves as text)
    }
  };
  walk(md.parse(markdown, {}));
  return root;
}

function materialise(n: MdNode): Child {
  if (typeof n === 'string') return n;
  return h(n.tag, n.attrs, ...n.children.map(materialise));
}

/** Renders `markdown` as DOM; relative image paths resolve against the review folder's webview URI `base`. */
export function renderMarkdown(markdown: string, base: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  append(fragment, ...markdownTree(markdown, base).map(materialise));
  return fragment;
}
