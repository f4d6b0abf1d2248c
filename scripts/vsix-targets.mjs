// The platforms TeamFusion ships a VSIX for, how npm installs sharp's binaries for each, and what each VSIX must hold.
// One place for the rule, used by scripts/package.mjs (build + check), scripts/test-vsix.mjs and the bench.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** VS Code target → npm's --os/--cpu/--libc and the @img packages sharp needs there (nothing else from @img/sharp-*). */
export const TARGETS = {
  'linux-x64': { os: 'linux', cpu: 'x64', libc: 'glibc', img: ['sharp-linux-x64', 'sharp-libvips-linux-x64'] },
  'linux-arm64': { os: 'linux', cpu: 'arm64', libc: 'glibc', img: ['sharp-linux-arm64', 'sharp-libvips-linux-arm64'] },
  'alpine-x64': { os: 'linux', cpu: 'x64', libc: 'musl', img: ['sharp-linuxmusl-x64', 'sharp-libvips-linuxmusl-x64'] },
  'darwin-x64': { os: 'darwin', cpu: 'x64', img: ['sharp-darwin-x64', 'sharp-libvips-darwin-x64'] },
  'darwin-arm64': { os: 'darwin', cpu: 'arm64', img: ['sharp-darwin-arm64', 'sharp-libvips-darwin-arm64'] },
  'win32-x64': { os: 'win32', cpu: 'x64', img: ['sharp-win32-x64'] },
  'win32-arm64': { os: 'win32', cpu: 'arm64', img: ['sharp-win32-arm64'] },
};

/** sharp's own packages in a VSIX (sharp, its binaries and helpers); the size goal counts everything else. */
export const SHARP_PACKAGES = /^extension\/node_modules\/(sharp|@img\/[^/]+)\//;
/** What may ship from node_modules at all: sharp and its runtime dependencies. */
export const ALLOWED_NODE_MODULES = /^extension\/node_modules\/(sharp|detect-libc|semver|@img\/[^/]+)\//;

export function vsixName(version, target) {
  return `teamfusion-${target}-${version}.vsix`;
}

/** Every entry of a zip file: name, size, compressed size. */
export function zipEntries(file) {
  const yauzl = require('yauzl');
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error(`cannot open ${file}`));
      const out = [];
      zip.on('entry', (e) => {
        out.push({ name: e.fileName, size: e.uncompressedSize, compressed: e.compressedSize });
        zip.readEntry();
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** Problems with a VSIX for `target`: missing or foreign @img packages, files that must not ship. Empty when right. */
export function vsixProblems(entries, target) {
  const want = TARGETS[target].img;
  const names = entries.map((e) => e.name);
  const img = new Set(names.map((n) => /^extension\/node_modules\/@img\/([^/]+)\//.exec(n)?.[1]).filter(Boolean));
  const problems = [];
  for (const p of want) if (!img.has(p)) problems.push(`@img/${p} is missing`);
  for (const p of img) if (p.startsWith('sharp-') && !want.includes(p)) problems.push(`@img/${p} belongs to another platform`);
  if (!names.includes('extension/node_modules/sharp/package.json')) problems.push('sharp is missing');
  for (const f of [
    'extension/dist/extension.js',
    'extension/dist/extension-core.js',
    'extension/dist/shared-core.js',
    'extension/dist/cli.js',
    'extension/dist/openai.js',
    'extension/dist/webview/panel.js',
    'extension/media/icon.png',
    'extension/package.json',
  ]) {
    if (!names.includes(f)) problems.push(`${f} is missing`);
  }
  const extra = names.filter(
    (n) =>
      (n.startsWith('extension/node_modules/') && !ALLOWED_NODE_MODULES.test(n)) ||
      /\.map$/.test(n) ||
      /^extension\/(src|test|out|webview|scripts|bench)\//.test(n),
  );
  if (extra.length) problems.push(`${extra.length} files that must not ship, e.g. ${extra.slice(0, 3).join(', ')}`);
  return problems;
}
