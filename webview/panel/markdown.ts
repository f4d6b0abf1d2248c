/**
 * The brief's Markdown → a sanitised DocumentFragment. markdown-it runs with `html: false` (raw HTML in the Markdown
 * shows as text), then DOMPurify removes anything active that might remain. Links may only go to http(s) or mailto
 * (VS Code opens them outside the panel); images may only come from the review folder.
 */
import MarkdownIt from 'markdown-it';
import DOMPurify from 'dompurify';
import { fileUrl } from './dom';

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

const SAFE_LINK = /^(?:https?:|mailto:)/i;
let currentBase = '';
let hooked = false;

function installHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (!SAFE_LINK.test(href.trim())) {
        node.removeAttribute('href');
      } else {
        node.setAttribute('rel', 'noopener noreferrer');
        node.setAttribute('title', href);
      }
      node.removeAttribute('target');
    }
    if (node.tagName === 'IMG') {
      const src = (node.getAttribute('src') ?? '').trim();
      const relative = src && !/^[a-z][a-z0-9+.-]*:/i.test(src) && !src.startsWith('/') && !src.split('/').includes('..');
      if (relative && currentBase) {
        node.setAttribute('src', fileUrl(currentBase, src.replace(/^\.\//, '')));
      } else {
        node.remove();
      }
    }
  });
}

/** Renders `markdown`; relative image paths resolve against the review folder's webview URI `base`. */
export function renderMarkdown(markdown: string, base: string): DocumentFragment {
  installHooks();
  currentBase = base;
  const html = md.render(markdown);
  return DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
    FORBID_ATTR: ['style', 'srcset'],
    ALLOW_DATA_ATTR: false,
  });
}
