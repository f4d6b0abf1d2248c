/**
 * The brief's Markdown as the webview bundle parses it: markdown-it with the browser standing in for some of its packages
 * and without the parts the panel never runs (scripts/lib/webviewMarkdown.mjs, the webview build's own settings). Built
 * here with those settings and run beside the same file built on markdown-it's own packages: the trees must be the same.
 * Both find bare links with the panel's own finder (its rules are pinned by linkify.test.ts; linkify-it, which knows
 * top-level domains, links fewer).
 */
import * as assert from 'node:assert/strict';
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { HOSTILE_LINES } from '../../support/hostileMarkdown';
import { REPO_ROOT } from '../../support/builtCli';
import { makeTempDir } from '../run/fixtures';
import type { MdNode } from '../../../webview/panel/text/markdown';

type Tree = (markdown: string, base: string) => MdNode[];
type Settings = { alias: Record<string, string>; plugins: esbuild.Plugin[] };

const BASE = 'https://file+.vscode-resource.example/review';
/** Named references need the browser's DOMParser (entities.ts): numeric ones and the rest run in Node as they are. */
const NAMED_REFERENCE = /&[a-z][a-z0-9]*;/i;

/** webview/panel/text/markdown.ts built for Node, with the webview's markdown settings or without them. */
async function build(
  dir: string,
  name: string,
  settings?: Settings,
  entry = "export { markdownTree } from './webview/panel/text/markdown';",
): Promise<string> {
  const outfile = path.join(dir, `${name}.js`);
  await esbuild.build({
    stdin: { contents: entry, resolveDir: REPO_ROOT, loader: 'ts' },
    absWorkingDir: REPO_ROOT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile,
    logLevel: 'silent',
    ...(settings ?? {}),
  });
  return outfile;
}

describe('the webview bundle parses Markdown as markdown-it does', function () {
  this.timeout(60_000);
  let dir = '';
  let bundled: Tree;
  let packaged: Tree;
  let settings: Settings;

  before(async () => {
    dir = await makeTempDir('tf-webview-md-');
    ({ webviewMarkdown: settings } = (await import(pathToFileURL(path.join(REPO_ROOT, 'scripts', 'lib', 'webviewMarkdown.mjs')).href)) as {
      webviewMarkdown: Settings;
    });
    bundled = (require(await build(dir, 'bundled', settings)) as { markdownTree: Tree }).markdownTree;
    const ownFinder = { alias: { 'linkify-it': settings.alias['linkify-it']! }, plugins: [] };
    packaged = (require(await build(dir, 'packaged', ownFinder)) as { markdownTree: Tree }).markdownTree;
  });
  after(async () => fs.rm(dir, { recursive: true, force: true }));

  it('the same tree for the sample briefs, the hostile corpus and emphasis beside Unicode punctuation and symbols', () => {
    const inputs = [
      readFileSync(path.join(REPO_ROOT, 'samples', 'lumen-perfume', 'brief.md'), 'utf8'),
      readFileSync(path.join(REPO_ROOT, 'samples', 'brief-review', 'brief.md'), 'utf8'),
      ...HOSTILE_LINES,
      '*«calm»* and **“premium”**, _€5_ or *¿qué?* — ~~old~~ *a*—*b* **x**.**y** *→*',
      // Between letters, a star opens or closes emphasis only if the character beside it is not punctuation or a symbol.
      'a*«b»*c and a**€5**b and a*¿b?*c and a*→b←*c and a*b*c',
      'A link to [the shop](https://shop.example/path?q=1#top) and https://bare.example/x, mail@studio.example.',
      '| a | b |\n|---|---|\n| `code` | **bold** |\n\n- [x] done\n- item\n\n> quote\n\n```\n<b>code</b>\n```',
    ].filter((md) => !NAMED_REFERENCE.test(md));
    assert.ok(inputs.length >= 20, `only ${inputs.length} inputs`);
    for (const md of inputs) assert.deepEqual(bundled(md, BASE), packaged(md, BASE), md.slice(0, 80));
  });

  it('a host name outside ASCII becomes its ASCII form in the link; the text keeps it as the brief wrote it', () => {
    const tree = bundled('[shop](https://bücher.example/x) and https://xn--bcher-kva.example/y', BASE);
    const links = JSON.stringify(tree);
    assert.match(links, /"href":"https:\/\/xn--bcher-kva\.example\/x"/);
    assert.match(links, /"https:\/\/xn--bcher-kva\.example\/y"\]/, 'the bare link is shown as written');
    assert.deepEqual(bundled('[shop](https://bücher.example/x)', BASE), packaged('[shop](https://bücher.example/x)', BASE));
  });

  it('the parts left out throw when an option would reach them, instead of doing nothing', async () => {
    const entry = "import MarkdownIt from 'markdown-it'; export const parse = (o, s) => new MarkdownIt(o).parse(s, {});";
    const { parse } = require(await build(dir, 'options', settings, entry)) as { parse: (o: object, s: string) => unknown };
    assert.ok(parse({ html: false, typographer: false }, '<b>x</b> "quoted" (c)'));
    assert.throws(() => parse({ html: true }, '<b>x</b>'), /Raw HTML \(html: true\) is left out of the webview bundle/);
    assert.throws(() => parse({ typographer: true }, '"quoted" (c)'), /typographer .* is left out of the webview bundle/);
  });
});
