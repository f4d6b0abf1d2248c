/**
 * The e2e stage of `npm test` (scripts/test.mjs): its files run as mocha processes at once, split by
 * scripts/lib/e2eShards.mjs into groups of about equal measured time; the table of measured seconds names every e2e file.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../support/builtCli';

interface Shard {
  files: string[];
  seconds: number;
}
interface ShardsModule {
  E2E_SECONDS: Record<string, number>;
  e2eSeconds(file: string): number;
  e2eShards(files: string[], n: number, seconds?: (file: string) => number): Shard[];
}

const shardsModule = (): Promise<ShardsModule> =>
  import(pathToFileURL(path.join(REPO_ROOT, 'scripts', 'lib', 'e2eShards.mjs')).href) as Promise<ShardsModule>;

const e2eFiles = (): string[] =>
  readdirSync(path.join(REPO_ROOT, 'test', 'e2e'))
    .filter((f) => f.endsWith('.e2e.ts'))
    .sort();

describe('the e2e stage', () => {
  it('has a measured time for every e2e file, and none for a file that is gone', async () => {
    const { E2E_SECONDS } = await shardsModule();
    assert.deepEqual(
      Object.keys(E2E_SECONDS).sort(),
      e2eFiles().map((f) => f.replace(/\.e2e\.ts$/, '')),
    );
    for (const [name, s] of Object.entries(E2E_SECONDS)) assert.ok(Number.isFinite(s) && s > 0, `${name}: ${s}`);
  });

  it('splits the files into groups of about equal time, each file once, in their own order', async () => {
    const { e2eShards, e2eSeconds } = await shardsModule();
    const files = e2eFiles().map((f) => path.join('out', 'test', 'e2e', f.replace(/\.ts$/, '.js')));
    for (const n of [2, 3]) {
      const shards = e2eShards(files, n);
      assert.equal(shards.length, n);
      assert.deepEqual(shards.flatMap((s) => s.files).sort(), [...files].sort(), 'every file in one group');
      for (const s of shards) {
        assert.deepEqual(
          s.files,
          [...s.files].sort((a, b) => files.indexOf(a) - files.indexOf(b)),
          'their own order',
        );
        assert.equal(
          s.seconds,
          s.files.reduce((a, f) => a + e2eSeconds(f), 0),
        );
      }
      // Longest first onto the lightest group: no group is more than the longest file above another.
      const times = shards.map((s) => s.seconds);
      const longest = Math.max(...files.map((f) => e2eSeconds(f)));
      assert.ok(Math.max(...times) - Math.min(...times) <= longest, `groups of ${times.join(', ')} s`);
    }
    assert.deepEqual(e2eShards(files, 1), [{ files, seconds: files.reduce((a, f) => a + e2eSeconds(f), 0) }]);
  });

  it('balances on the times it is given (a file it does not know counts as the median)', async () => {
    const { e2eShards, e2eSeconds, E2E_SECONDS } = await shardsModule();
    const times: Record<string, number> = { a: 60, b: 50, c: 40, d: 30, e: 20 };
    // Longest first onto the lightest gives 110 s (a, d, e) and 90 s (b, c); swapping a and b then makes both 100 s.
    const shards = e2eShards(Object.keys(times), 2, (f) => times[f]!);
    assert.deepEqual(
      shards.map((s) => [s.files, s.seconds]),
      [
        [['b', 'd', 'e'], 100],
        [['a', 'c'], 100],
      ],
    );
    const known = Object.values(E2E_SECONDS).sort((x, y) => x - y);
    assert.equal(e2eSeconds('out/test/e2e/notMeasured.e2e.js'), known[Math.floor(known.length / 2)]);
  });

  it('runs two processes unless TEAMFUSION_E2E_SHARDS says otherwise, as docs/development.md says', () => {
    const script = readFileSync(path.join(REPO_ROOT, 'scripts', 'test.mjs'), 'utf8');
    assert.match(script, /runE2e\(files, Number\(process\.env\.TEAMFUSION_E2E_SHARDS \?\? 2\), lane\)/);
    const docs = readFileSync(path.join(REPO_ROOT, 'docs', 'development.md'), 'utf8');
    assert.match(docs, /two mocha processes at once/);
    assert.match(docs, /`TEAMFUSION_E2E_SHARDS=1`/);
  });
});
