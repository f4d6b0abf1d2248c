import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { buildCli, runCli, type CliRun } from '../cli/buildCli';
import { makeReviewWithRun, RUN_ID, writeRerankRanking } from './fixtures';

const STACK = /^\s+at .+:\d+:\d+\)?$/m;

describe('rerank: CLI rerank / compare (spawned node process)', function () {
  this.timeout(60_000);
  let cli = '';
  let dispose: () => Promise<void> = async () => undefined;
  let root = '';
  const run = (...args: string[]): Promise<CliRun> => runCli(cli, ...args);

  before(async () => {
    ({ cli, dispose } = await buildCli());
    root = await makeReviewWithRun();
  });
  after(async () => {
    await dispose();
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('usage mistakes exit 2', async () => {
    for (const args of [['rerank'], ['rerank', root], ['compare', root], ['compare', root, RUN_ID, 'extra'], ['compare', root, RUN_ID, '--nope']]) {
      const r = await run(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /Usage: teamfusion/);
    }
    const help = await run('--help');
    assert.match(help.stdout, /rerank <review> <run-id>/);
    assert.match(help.stdout, /compare <review> <run-id> \[--json\]/);
  });

  it('compare before any re-ranking: exit 0, W before and how to start', async () => {
    const r = await run('compare', root, RUN_ID);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Agreement before → after: W \d\.\d\d \(\w+\) → … — waiting for re-rankings \(0 of 2\)$/m);
    assert.match(r.stdout, /No re-ranking yet: teamfusion rerank/);
  });

  it('rerank makes the folder (exit 0, its path on stdout), refuses the second time (exit 1, one sentence)', async () => {
    const first = await run('rerank', root, RUN_ID);
    assert.equal(first.code, 0, first.stderr);
    const printed = first.stdout.trim();
    assert.equal(path.resolve(printed), path.join(root, 'runs', RUN_ID, 'rerank'));
    assert.match(first.stderr, /teamfusion compare/);
    assert.deepEqual((await fs.readdir(path.join(root, 'runs', RUN_ID, 'rerank', 'options'))).sort(), ['2.png', '4.png', 'r2.png']);

    const second = await run('rerank', root, RUN_ID);
    assert.equal(second.code, 1);
    assert.match(second.stderr, /^teamfusion rerank: Run .* already has a re-ranking folder/);
    assert.doesNotMatch(second.stderr, STACK);
    const missing = await run('rerank', root, '2026-01-01T00-00-00Z-0000');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /There is no run/);
  });

  it('the re-ranking folder is a review for validate and analyze; compare says converged', async () => {
    const dir = path.join(root, 'runs', RUN_ID, 'rerank');
    await writeRerankRanking(dir, 'ana', { '2': 1, '4': 2, r2: 3 });
    const waiting = await run('compare', root, RUN_ID, '--json');
    assert.equal(waiting.code, 0);
    const w1 = JSON.parse(waiting.stdout) as { after?: unknown; verdict: string; rerankings: number };
    assert.equal(w1.after, undefined);
    assert.equal(w1.rerankings, 1);
    assert.equal(w1.verdict, 'waiting for re-rankings (1 of 2)');

    await writeRerankRanking(dir, 'ben', { '2': 1, '4': 2, r2: 2 });
    const valid = await run('validate', dir);
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    assert.match(valid.stderr, /valid — 3 options, 2 designers/);
    const analysed = await run('analyze', dir, '--json');
    assert.equal(analysed.code, 0, analysed.stderr);
    const a = JSON.parse(analysed.stdout) as { options: string[]; kendall: { w: number } };
    assert.deepEqual(a.options, ['2', '4', 'r2']);

    const text = await run('compare', root, RUN_ID);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /→ 0\.93 \(almost perfect\) — converged$/m);
    assert.match(text.stdout, /^After: +W = 0\.93 .*2 designers, 3 options$/m);
    const json = await run('compare', root, RUN_ID, '--json');
    const c = JSON.parse(json.stdout) as { before: { w: number }; after: { w: number }; converged: boolean; verdict: string; rerankDir: string };
    assert.equal(c.after.w, a.kendall.w, 'compare and analyze agree on W after');
    assert.equal(c.converged, true);
    assert.equal(c.verdict, 'converged');
    assert.equal(c.rerankDir, `runs/${RUN_ID}/rerank`);
  });

  it('compare on an unknown run or an invalid review exits 1 with a sentence', async () => {
    const unknown = await run('compare', root, '2026-01-01T00-00-00Z-0000');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^teamfusion compare: There is no run "2026-01-01T00-00-00Z-0000"/);
    await fs.rm(path.join(root, 'rankings', 'd1.yaml'));
    await fs.writeFile(path.join(root, 'rankings', 'd2.yaml'), 'designer: Ben\nranking: [\n');
    const r = await run('compare', root, RUN_ID);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^teamfusion compare: The review cannot be analysed: rankings\/d2\.yaml:\d+:\d+: error: /);
    assert.doesNotMatch(r.stderr, STACK);
  });
});
