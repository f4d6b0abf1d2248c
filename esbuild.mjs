// Bundles the extension host code, the CLI and the webview app.
//   node esbuild.mjs                development: readable bundles with linked source maps
//   node esbuild.mjs --production   what ships (`npm run package`): minified, tree-shaken, no source maps, and
//                                   <outdir>/meta.json (esbuild's metafile: what each bundle is made of; not shipped)
//   node esbuild.mjs --watch        rebuilds on change
// The extension's core is dist/extension-core.js, loaded by dist/extension.js (the activation shell) on first use.
// openai, yaml and csv-parse are files of their own (dist/openai.js, yaml.js, csv-parse.js) that the extension and the
// CLI load on first use: activation parses none of them. sharp is native and ships as node_modules/sharp + @img/* (scripts/package.mjs).
import * as esbuild from 'esbuild';
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { createRequire } from 'node:module';
import { zodMembersNamed } from './scripts/lib/zodMembers.mjs';
import { webviewMarkdown } from './scripts/lib/webviewMarkdown.mjs';

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

const SHARED_CORE = 'shared-core.js';
const coreRoot = resolve('src', 'core');
const src = resolve('src');
/** The TypeScript files under `dir`, and the folders walked (for watch mode). */
const tsUnder = (dir, dirs = []) => {
  dirs.push(dir);
  const files = readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const f = join(dir, e.name);
    return e.isDirectory() ? tsUnder(f, dirs).files : f.endsWith('.ts') && !f.endsWith('.d.ts') ? [f] : [];
  });
  return { files, dirs };
};
/** A core file's entry name: its path under src/core without `.ts` ("record/store"). */
const coreKey = (file) => relative(coreRoot, file).split(sep).join('/').replace(/\.ts$/, '');
/**
 * The shared bundle's entry, made anew on every build (in watch mode too: a core file added is an entry at the next
 * rebuild): a getter per core file, and `zod`, the members of zod the sources outside the core read (`z.object`, …; see
 * scripts/lib/zodMembers.mjs), so the bundle keeps only what is used of zod and holds its one copy.
 */
const sharedCoreEntries = {
  name: 'shared-core-entries',
  setup(build) {
    build.onResolve({ filter: /^shared-core:(entries|zod)$/ }, (args) => ({ path: args.path, namespace: 'shared-core-entries' }));
    build.onLoad({ filter: /^shared-core:entries$/, namespace: 'shared-core-entries' }, () => {
      const { files, dirs } = tsUnder(coreRoot);
      const getters = files.map(
        (f) =>
          `  get ${JSON.stringify(coreKey(f))}() { return require(${JSON.stringify(`./${relative('.', f).split(sep).join('/')}`)}); },`,
      );
      return {
        contents: `module.exports = {\n${getters.join('\n')}\n  get zod() { return require('shared-core:zod'); },\n};\n`,
        resolveDir: resolve('.'),
        loader: 'js',
        watchDirs: dirs,
      };
    });
    build.onLoad({ filter: /^shared-core:zod$/, namespace: 'shared-core-entries' }, async () => {
      const outside = ['cli', 'extension', 'protocol'].map((d) => tsUnder(join(src, d)));
      const zod = await import('zod');
      const members = zodMembersNamed(outside.flatMap((o) => o.files)).filter((m) => m in zod); // types (z.infer) have no value
      return {
        contents: `import * as z from 'zod';\n${members.map((m, i) => `const m${i} = z.${m};\nexport { m${i} as ${m} };`).join('\n')}\n`,
        resolveDir: resolve('.'),
        loader: 'js',
        watchFiles: outside.flatMap((o) => o.files),
        watchDirs: outside.flatMap((o) => o.dirs),
      };
    });
  },
};
/**
 * The core (src/core) is one bundle of its own, dist/shared-core.js, that the command line and the extension's core both
 * load, so the package carries it once. Each file of the core is an entry of that bundle, run the first time it is read
 * (esbuild keeps a module's top-level work until it is required): a command or a panel starts only the rooms it uses.
 * In cli.js and extension-core.js a source's import of a core file, or of zod, becomes a read of its entry; the
 * activation shell (extension.js) takes none of it.
 */
const sharedCore = {
  name: 'shared-core',
  setup(build) {
    const fromSources = (args) => args.importer.startsWith(src + sep);
    build.onResolve({ filter: /^zod$/ }, (args) => (fromSources(args) ? { path: 'zod', namespace: 'shared-core' } : undefined));
    build.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData?.sharedCore || !fromSources(args)) return undefined;
      const r = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: { sharedCore: true },
      });
      if (r.errors.length > 0 || !r.path.startsWith(coreRoot + sep)) return undefined;
      return { path: coreKey(r.path), namespace: 'shared-core' };
    });
    build.onLoad({ filter: /.*/, namespace: 'shared-core' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(`./${SHARED_CORE}`)})[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
    build.onResolve({ filter: new RegExp(`^\\./${SHARED_CORE.replace('.', '\\.')}$`) }, (args) => ({ path: args.path, external: true }));
  },
};

const builds = [
  { ...node, entryPoints: ['src/extension/extension.ts'], outfile: `${outdir}/extension.js`, plugins: [lazyCore, chunks] },
  { ...node, entryPoints: ['src/extension/core.ts'], outfile: `${outdir}/extension-core.js`, plugins: [sharedCore, chunks] },
  {
    ...node,
    entryPoints: ['src/cli/main.ts'],
    outfile: `${outdir}/cli.js`,
    banner: { js: '#!/usr/bin/env node' },
    plugins: [sharedCore, mcpChunk, chunks],
  },
  { ...node, entryPoints: ['shared-core:entries'], outfile: `${outdir}/${SHARED_CORE}`, plugins: [sharedCoreEntries, chunks] },
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
    // markdown-it with the browser standing in for some of its packages, without the parts the panel never runs.
    ...webviewMarkdown,
    // Non-ASCII text as it is, not as \u escapes (the page and the script are UTF-8: src/extension/panel/html.ts).
    charset: 'utf8',
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
