import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import LinkifyShim from '../../../webview/panel/text/linkify';

/** markdown-it as the webview builds it: its bare-link finder is the panel's own (esbuild.mjs aliases linkify-it). */
function render(text: string): string {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
  (md as unknown as { linkify: unknown }).linkify = new LinkifyShim();
  return md.render(text);
}

describe("bare links in the brief (the webview's linkify)", () => {
  it('links http(s), www. and e-mail addresses, leaving trailing punctuation out', () => {
    const html = render('See https://example.com/brief_v2.pdf. Or www.maison-aurel.fr, and write to lead@studio.example!');
    assert.match(html, /<a href="https:\/\/example\.com\/brief_v2\.pdf">https:\/\/example\.com\/brief_v2\.pdf<\/a>\. /);
    assert.match(html, /<a href="http:\/\/www\.maison-aurel\.fr">www\.maison-aurel\.fr<\/a>,/);
    assert.match(html, /<a href="mailto:lead@studio\.example">lead@studio\.example<\/a>!/);
  });

  it('leaves other schemes and plain words alone', () => {
    const html = render('javascript:alert(1) ftp://files.example and a word.with.dots');
    assert.doesNotMatch(html, /<a /);
  });

  it('keeps explicit Markdown links as they are', () => {
    assert.match(render('[the brief](https://example.com/x)'), /<a href="https:\/\/example\.com\/x">the brief<\/a>/);
  });
});
