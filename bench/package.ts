/**
 * SHIPPING benchmark: sizes read from the packaged linux-x64 VSIX (`npm run package` → vsix/), and the timings the VSIX
 * stage of `npm test` measured on that VSIX installed in a real VS Code (.test-output/timings.json, see
 * scripts/test-vsix.mjs). Missing files make the rows say "not available" rather than invent numbers.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

interface Entry {
  name: string;
  size: number;
  compressed: number;
}

const REPO = path.resolve(__dirname, '..', '..');
/** sharp's own packages; the VSIX size goal counts everything else. Same rule as scripts/vsix-targets.mjs. */
const SHARP_PACKAGES = /^extension\/node_modules\/(sharp|@img\/[^/]+)\//;

function zipEntries(file: string): Promise<Entry[]> {
  // yauzl comes with @vscode/vsce (a dev dependency); typed loosely here.
  const yauzl = require('yauzl') as {
    open(
      f: string,
      o: object,
      cb: (
        err: Error | null,
        zip?: {
          on(ev: string, fn: (x: { fileName: string; uncompressedSize: number; compressedSize: number }) => void): void;
          readEntry(): void;
        },
      ) => void,
    ): void;
  };
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error(`cannot open ${file}`));
      const out: Entry[] = [];
      zip.on('entry', (e) => {
        out.push({ name: e.fileName, size: e.uncompressedSize, compressed: e.compressedSize });
        zip.readEntry();
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject as never);
      zip.readEntry();
    });
  });
}

export async function benchPackage(): Promise<{ name: string; value: number; goal: number; unit: string }[]> {
  const { version } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
  const vsix = path.join(REPO, 'vsix', `teamfusion-linux-x64-${version}.vsix`);
  if (!existsSync(vsix)) throw new Error('no vsix/teamfusion-linux-x64 VSIX: run `npm run package` first');
  const entries = await zipEntries(vsix);
  const size = (name: string) => {
    const e = entries.find((x) => x.name === `extension/${name}`);
    if (!e) throw new Error(`${name} is not in the VSIX`);
    return e.size / 1024;
  };
  const rest = entries.filter((e) => !SHARP_PACKAGES.test(e.name)).reduce((a, e) => a + e.compressed, 0) / 1024;
  const rows = [
    { name: 'dist/extension.js, parsed at activation (packaged)', value: size('dist/extension.js'), goal: 10, unit: 'KB' },
    {
      // The extension's core reads the core rooms from shared-core.js (the bundle the CLI reads too): first use parses both.
      name: 'dist/extension-core.js + dist/shared-core.js, parsed on first use (packaged)',
      value: size('dist/extension-core.js') + size('dist/shared-core.js'),
      goal: 400,
      unit: 'KB',
    },
    { name: 'webview script dist/webview/panel.js (packaged)', value: size('dist/webview/panel.js'), goal: 300, unit: 'KB' },
    { name: 'VSIX without sharp packages, compressed', value: rest, goal: 1024, unit: 'KB' },
  ];
  const timingsFile = path.join(REPO, '.test-output', 'timings.json');
  if (existsSync(timingsFile)) {
    const t = JSON.parse(readFileSync(timingsFile, 'utf8')) as Record<string, unknown>;
    const add = (key: string, name: string, goal: number) => {
      if (typeof t[key] === 'number') rows.push({ name, value: t[key] as number, goal, unit: 'ms' });
    };
    add('activationMs', 'activation (VS Code measure, installed VSIX)', 50);
    add('openSampleMs', 'Open Review → rendered panel, sample', 1000);
    add('open50x50Ms', 'Open Review → rendered panel, 50 × 50', 2000);
    add('open50x50AgreementMs', 'Open Review → agreement shown, 50 × 50', 2000);
    // Against the floor of the same run (a minimal extension beside it): ratios, goal ≤ 1.5.
    const addRatio = (key: string, name: string) => {
      if (typeof t[key] === 'number') rows.push({ name, value: t[key] as number, goal: 1.5, unit: '× floor' });
    };
    addRatio('activationRatio', "activation ÷ the floor extension's");
    addRatio('openSampleRatio', "Open Review → rendered, sample ÷ a minimal panel's");
    addRatio('open50x50Ratio', "Open Review → rendered, 50 × 50 ÷ a minimal panel's");
  }
  return rows;
}
