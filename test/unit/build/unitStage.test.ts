/**
 * The unit stage (issue 43, item 6): its files run in parallel worker processes, as many at a time as docs/development.md
 * says; the one CLI the tests run is the build's dist/cli.js, refused when missing or older than the sources.
 */
import * as assert from 'node:assert/strict';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bundleProblem, CLI_PATH, REPO_ROOT } from '../../support/builtCli';

describe('the unit stage', () => {
  it('runs its files in parallel, as many at a time as docs/development.md says', () => {
    const config = JSON.parse(readFileSync(path.join(REPO_ROOT, '.mocharc.json'), 'utf8')) as { parallel?: boolean; jobs?: number };
    assert.equal(config.parallel, true);
    assert.ok(Number.isInteger(config.jobs) && config.jobs! >= 2, `jobs: ${config.jobs}`);
    const docs = readFileSync(path.join(REPO_ROOT, 'docs', 'development.md'), 'utf8');
    assert.ok(docs.includes(`\`jobs: ${config.jobs}\``), 'docs/development.md names the jobs of .mocharc.json');
  });

  it("the tests' CLI is dist/cli.js, refused when it is missing or older than a source file, accepted once rebuilt", async () => {
    assert.equal(path.relative(REPO_ROOT, CLI_PATH), path.join('dist', 'cli.js'));
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-bundle-'));
    try {
      const src = path.join(dir, 'src');
      await fs.mkdir(path.join(src, 'core'), { recursive: true });
      await fs.writeFile(path.join(src, 'core', 'a.ts'), 'export const a = 1;\n');
      const cli = path.join(dir, 'cli.js');
      assert.match(bundleProblem(cli, src) ?? '', /cli\.js is missing: run `npm run build` first\./);
      await fs.writeFile(cli, '// bundle\n');
      const past = new Date(Date.now() - 60_000);
      await fs.utimes(cli, past, past);
      assert.match(bundleProblem(cli, src) ?? '', /cli\.js is older than .*src[\\/]core[\\/]a\.ts: run `npm run build` first\./);
      const now = new Date();
      await fs.utimes(cli, now, now);
      await fs.utimes(path.join(src, 'core', 'a.ts'), past, past);
      assert.equal(bundleProblem(cli, src), undefined);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
