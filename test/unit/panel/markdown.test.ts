import * as assert from 'node:assert/strict';
import { markdownTree, type MdNode } from '../../../webview/panel/text/markdown';

const BASE = 'https://file+.vscode-resource.example/review';

/** Every element in the tree, depth first. */
function elements(nodes: MdNode[]): Exclude<MdNode, string>[] {
  return nodes.flatMap((n) => (typeof n === 'string' ? [] : [n, ...elements(n.children)]));
}
function text(nodes: MdNode[]): string {
  return nodes.map((n) => (typeof n === 'string' ? n : text(n.children))).join('');
}

describe("the brief's Markdown as DOM nodes (webview markdown.ts)", () => {
  it('builds headings, paragraphs, emphasis, lists, quotes, code and tables as elements of their own', () => {
    const tree = markdownTree(
      '# Lumen\n\nA **bold** and *calm* hero.\n\n1. one\n2. two\n\n> quoted\n\n`inline` code\n\n```\nblock <b>\n```\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n---\n',
      BASE,
    );
    const tags = elements(tree).map((e) => e.tag);
    for (const t of ['h1', 'p', 'strong', 'em', 'ol', 'li', 'blockquote', 'code', 'pre', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'hr'])
      assert.ok(tags.includes(t), t);
    const pre = elements(tree).find((e) => e.tag === 'pre');
    assert.equal(text(pre ? [pre] : []), 'block <b>\n', 'code keeps its text exactly, markup included, as text');
    assert.ok(
      elements(tree).every((e) => !('style' in e.attrs)),
      "no style attribute (a table column's alignment is not kept)",
    );
  });

  it('keeps HTML in the brief as text: no element but the allowed ones is ever made', () => {
    const tree = markdownTree(
      'Hello <img src=x onerror="alert(1)"> and <script>alert(2)</script>\n\n<iframe src="x.html"></iframe>\n',
      BASE,
    );
    assert.deepEqual(
      elements(tree).map((e) => e.tag),
      ['p', 'p'],
    );
    assert.match(text(tree), /<img src=x onerror="alert\(1\)">/);
    assert.match(text(tree), /<script>alert\(2\)<\/script>/);
    assert.match(text(tree), /<iframe src="x\.html"><\/iframe>/);
  });

  it('links only to http(s) and mailto, opened outside the panel; any other link keeps its words without an address', () => {
    const tree = markdownTree(
      '[site](https://example.com/a) [mail](mailto:a@b.example) [cmd](command:workbench.action.terminal.new) [ftp](ftp://files.example/x) [bad](javascript:alert(1)) https://bare.example/x\n',
      BASE,
    );
    const links = elements(tree).filter((e) => e.tag === 'a');
    assert.deepEqual(
      links.map((l) => l.attrs.href ?? null),
      ['https://example.com/a', 'mailto:a@b.example', null, null, 'https://bare.example/x'],
    );
    for (const l of links.filter((l) => l.attrs.href)) assert.equal(l.attrs.rel, 'noopener noreferrer');
    assert.match(text(tree), /cmd ftp \[bad\]\(javascript:alert\(1\)\)/, 'the words of a refused link stay');
  });

  it('shows images only from inside the review folder, through its webview address', () => {
    const tree = markdownTree(
      '![hero *shot*](options/a%20b.png) ![up](../secret.png) ![abs](/etc/x.png) ![web](https://example.com/t.png) ![data](data:image/png;base64,AAAA) ![dot](./brief/logo.png)\n',
      BASE,
    );
    const imgs = elements(tree).filter((e) => e.tag === 'img');
    assert.deepEqual(
      imgs.map((i) => i.attrs.src),
      [`${BASE}/options/a%2520b.png`, `${BASE}/brief/logo.png`],
    );
    assert.equal(imgs[0]?.attrs.alt, 'hero shot');
    assert.deepEqual(
      markdownTree('![x](a.png)', '')
        .flatMap((n) => elements([n]))
        .filter((e) => e.tag === 'img'),
      [],
      'no folder address: no image',
    );
  });

  it("keeps a numbered list's start, and line breaks as text or <br>", () => {
    const tree = markdownTree('3. three\n4. four\n\nline one\nline two  \nline three\n', BASE);
    assert.deepEqual(elements(tree).find((e) => e.tag === 'ol')?.attrs, { start: '3' });
    assert.ok(elements(tree).some((e) => e.tag === 'br'));
    assert.match(text(tree), /line one\nline two/);
  });
});
