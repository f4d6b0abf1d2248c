// Bundles the extension host code, the CLI and the webview app.
//   node esbuild.mjs                development: readable bundles with linked source maps
//   node esbuild.mjs --production   what ships (`npm run package`): minified, tree-shaken, no source maps, and
//                                   <outdir>/meta.json (esbuild's metafile: what each bundle is made of; not shipped)
//   node esbuild.mjs --watch        rebuilds on change
// The extension's core is dist/extension-core.js, loaded by dist/extension.js (the activation shell) on first use.
// openai, yaml and csv-parse are files of their own (dist/openai.js, yaml.js, csv-parse.js) that the extension and the
// CLI load on first use: activation parses none of them. sharp is native and ships as node_modules/sharp + @img/* (scripts/package.mjs).
import * as esbuild from 'esbuild';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const outdirFlag = process.argv.indexOf('--outdir');
/** Where the bundles go: dist/ unless `--outdir DIR` (scripts/package.mjs builds the shipped ones into .package/dist). */
const outdir = outdirFlag > 0 ? process.argv[outdirFlag + 1] : 'dist';
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

/**
 * Libraries the extension and the CLI load on first use, each bundled into a file of its own next to them:
 * `require('openai')` becomes `require('./openai.js')`. Sources take them through one accessor each (src/core/llm/sdk.ts,
 * src/core/yaml.ts, the CSV import), so activation parses none of them.
 */
const CHUNKS = { openai: 'openai.js', yaml: 'yaml.js', 'csv-parse/sync': 'csv-parse.js' };
const chunks = {
  name: 'lazy-chunks',
  setup(build) {
    build.onResolve({ filter: /^(openai|yaml|csv-parse\/sync)$/ }, (args) => ({ path: `./${CHUNKS[args.path]}`, external: true }));
  },
};

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  treeShaking: true,
  legalComments: production ? 'none' : 'inline',
  metafile: production,
  logLevel: 'warning',
  define: { __TEAMFUSION_VERSION__: JSON.stringify(version), ...(production ? { 'process.env.NODE_ENV': '"production"' } : {}) },
};
const node = { ...common, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode', 'sharp'], plugins: [chunks] };
/**
 * The extension's activation shell (src/extension/extension.ts) loads the core (src/extension/core.ts) on first use:
 * its `require('./core')` becomes `require('./extension-core.js')`, a bundle of its own, so activation parses none of it.
 */
const lazyCore = {
  name: 'lazy-core',
  setup(build) {
    build.onResolve({ filter: /^\.\/core$/ }, (args) =>
      /[\\/]src[\\/]extension[\\/]extension\.ts$/.test(args.importer) ? { path: './extension-core.js', external: true } : undefined,
    );
  },
};

/** `teamfusion mcp` loads the MCP SDK on first use: src/cli/mcpSdk.ts is dist/mcp-sdk.js, a bundle of its own. */
const mcpChunk = {
  name: 'mcp-chunk',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/mcpSdk(\.js)?$/ }, () => ({ path: './mcp-sdk.js', external: true }));
  },
};

const builds = [
  { ...node, entryPoints: ['src/extension/extension.ts'], outfile: `${outdir}/extension.js`, plugins: [lazyCore, chunks] },
  { ...node, entryPoints: ['src/extension/core.ts'], outfile: `${outdir}/extension-core.js` },
  {
    ...node,
    entryPoints: ['src/cli/main.ts'],
    outfile: `${outdir}/cli.js`,
    banner: { js: '#!/usr/bin/env node' },
    plugins: [mcpChunk, chunks],
  },
  { ...node, entryPoints: ['src/cli/mcpSdk.ts'], outfile: `${outdir}/mcp-sdk.js` },
  ...Object.entries(CHUNKS).map(([pkg, file]) => ({
    ...common,
    entryPoints: [require.resolve(pkg)],
    outfile: `${outdir}/${file}`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  })),
  {
    ...common,
    entryPoints: ['webview/panel/main.ts'],
    outfile: `${outdir}/webview/panel.js`,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    // markdown-it's entity table: the browser decodes named references itself (webview/panel/text/entities.ts).
    // and its bare-link finder: only http(s), www. and e-mail are kept anyway (webview/panel/text/linkify.ts).
    alias: { entities: './webview/panel/text/entities.ts', 'linkify-it': './webview/panel/text/linkify.ts' },
  },
];

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('esbuild: watching…');
} else {
  rmSync(outdir, { recursive: true, force: true });
  const results = await Promise.all(builds.map((b) => esbuild.build(b)));
  // The `teamfusion` bin: executable, so it runs from a checkout and after `npm install -g` alike.
  chmodSync(`${outdir}/cli.js`, 0o755);
  if (production) {
    const outputs = Object.assign({}, ...results.map((r) => r.metafile.outputs));
    const inputs = Object.assign({}, ...results.map((r) => r.metafile.inputs));
    writeFileSync(`${outdir}/meta.json`, JSON.stringify({ inputs, outputs }));
  }
}
