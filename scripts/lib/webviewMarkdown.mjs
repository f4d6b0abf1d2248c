/**
 * How the webview bundle takes markdown-it (esbuild.mjs, and the test that runs the bundled parser against the
 * package's own: test/unit/panel/bundledMarkdown.test.ts).
 *
 * Packages it asks for that the browser stands in for, each a small file of webview/panel/text/: the entity table (the
 * browser decodes named references itself), the bare-link finder (only http(s), www. and e-mail are kept anyway), the
 * Unicode classes (the browser's regular expressions know them) and punycode (the browser's URL parser).
 *
 * And the parts of markdown-it the panel never runs, left out of the bundle. The panel parses a brief
 * with `html: false` and `typographer: false` and builds the DOM from the tokens itself (webview/panel/text/markdown.ts),
 * so markdown-it's HTML renderer, its raw-HTML rules, its typographer rules and the presets it is not made with are dead
 * code there. Each stands in as a module that does what the original does under those options (a rule that finds
 * nothing), and throws if it is ever asked to do more, so turning an option on later fails loudly instead of silently.
 */
import { posix } from 'node:path';

const leftOut = (what) =>
  `throw new Error(${JSON.stringify(`${what} is left out of the webview bundle (scripts/lib/webviewMarkdown.mjs)`)});`;

/** Module path under markdown-it/lib → the source standing in for it. */
const MARKDOWN_IT_UNUSED = {
  'renderer.mjs': `export default class Renderer {
  constructor() { this.rules = {}; }
  render() { ${leftOut("markdown-it's HTML renderer")} }
  renderInline() { ${leftOut("markdown-it's HTML renderer")} }
}`,
  'rules_block/html_block.mjs': `export default function html_block(state) {
  if (state.md.options.html) ${leftOut('Raw HTML (html: true)')}
  return false;
}`,
  'rules_inline/html_inline.mjs': `export default function html_inline(state) {
  if (state.md.options.html) ${leftOut('Raw HTML (html: true)')}
  return false;
}`,
  'rules_core/replacements.mjs': `export default function replace(state) {
  if (state.md.options.typographer) ${leftOut('The typographer (typographer: true)')}
}`,
  'rules_core/smartquotes.mjs': `export default function smartquotes(state) {
  if (state.md.options.typographer) ${leftOut('The typographer (typographer: true)')}
}`,
  'presets/zero.mjs': `export default { get options() { ${leftOut("markdown-it's zero preset")} } };`,
  'presets/commonmark.mjs': `export default { get options() { ${leftOut("markdown-it's commonmark preset")} } };`,
};

/** The esbuild plugin: markdown-it's own imports of those modules get the stand-ins. */
const markdownItUnused = {
  name: 'markdown-it-unused',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\/.*\.mjs$/ }, (args) => {
      const m = /[\\/]node_modules[\\/]markdown-it[\\/]lib[\\/](.*)$/.exec(args.importer);
      if (!m) return undefined;
      const target = posix.join(posix.dirname(m[1].replaceAll('\\', '/')), args.path);
      return target in MARKDOWN_IT_UNUSED ? { path: target, namespace: 'markdown-it-unused' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'markdown-it-unused' }, (args) => ({ contents: MARKDOWN_IT_UNUSED[args.path], loader: 'js' }));
  },
};

/** The webview build's settings for markdown-it: its aliases and the plugin above. */
export const webviewMarkdown = {
  alias: {
    entities: './webview/panel/text/entities.ts',
    'linkify-it': './webview/panel/text/linkify.ts',
    'uc.micro': './webview/panel/text/unicodeClasses.ts',
    'punycode.js': './webview/panel/text/punycode.ts',
  },
  plugins: [markdownItUnused],
};
