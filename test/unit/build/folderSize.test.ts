/**
 * A folder a newcomer can read at a glance: no folder of src/ or webview/ holds more than MAX_TS_FILES TypeScript files
 * (subfolders are rooms of their own, named for what they hold). docs/development.md states the same limit.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
export const MAX_TS_FILES = 14;

function crowded(root: string): string[] {
  return [...tsCounts(root, new Map())].filter(([, n]) => n > MAX_TS_FILES).map(([dir, n]) => `${path.relative(REPO, dir) || dir}: ${n}`);
}

function tsCounts(dir: string, out: Map<string, number>): Map<string, number> {
  let n = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) tsCounts(path.join(dir, entry.name), out);
    else if (entry.name.endsWith('.ts')) n++;
  }
  out.set(dir, n);
  return out;
}

describe('folder size', () => {
  for (const top of ['src', 'webview']) {
    it(`no folder under ${top}/ holds more than ${MAX_TS_FILES} TypeScript files`, () => {
      assert.deepEqual(crowded(path.join(REPO, top)), []);
    });
  }

  it('finds a planted folder one file over the limit, and not one at the limit beside it', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'tf-folders-'));
    try {
      for (const [name, n] of [
        ['over', MAX_TS_FILES + 1],
        ['at', MAX_TS_FILES],
      ] as const) {
        mkdirSync(path.join(root, name));
        for (let i = 0; i < n; i++) writeFileSync(path.join(root, name, `f${i}.ts`), '');
      }
      assert.deepEqual(
        crowded(root).map((line) => line.replace(/^.*[\\/]/, '')),
        [`over: ${MAX_TS_FILES + 1}`],
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
