import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { useBuiltCli } from '../cli/buildCli';
import { makeReviewWithRun, RUN_ID, writeRerankBySource } from './fixtures';

const STACK = /^\s+at .+:\d+:\d+\)?$/m;

describe('rerank: CLI rerank / compare (spawned node process)', function () {
  this.timeout(60_000);
  const { run } = useBuiltCli();
  let root = '';

  before(async () => {
    root = await makeReviewWithRun();
  });
  after(async () => {
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it('usage mistakes exit 2', async () => {
    for (const args of [
      ['rerank'],
      ['rerank', root],
      ['compare', root],
      ['compare', root, RUN_ID, 'extra'],
      ['compare', root, RUN_ID, '--nope'],
    ]) {
      const r = await run(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, new RegExp(`^teamfusion ${args[0]}: .+\\nSee \`teamfusion ${args[0]} --help\`\\.\\n$`));
    }
    assert.match((await run('rerank', '--help')).stdout, /^Usage: teamfusion rerank <review> <run-id> \[options\]\n[\s\S]*\n {2}--top N +/);
    assert.match(
      (await run('compare', '--help')).stdout,
      /^Usage: teamfusion compare <review> <run-id> \[options\]\n[\s\S]*\n {2}--json +/,
    );
  });

  it('compare before any re-rank set: exit 1, W before and what is missing', async () => {
    const r = await run('compare', root, RUN_ID);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^Before the run: W = 0\.14 among 4 designers on 6 options/m);
    assert.match(r.stderr, /no re-rank set yet: make it with "teamfusion rerank/);
    const json = await run('compare', root, RUN_ID, '--json');
    assert.equal(json.code, 1);
    assert.equal((JSON.parse(json.stdout) as { after: unknown }).after, null);
  });

  it('rerank makes the blind set (exit 0, its path on stdout), refuses the second time (exit 1, one sentence)', async () => {
    const bad = await run('rerank', root, RUN_ID, '--top', 'x');
    assert.equal(bad.code, 2);
    const first = await run('rerank', root, RUN_ID);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(path.resolve(first.stdout.trim()), path.join(root, 'runs', RUN_ID, 'rerank'));
    assert.match(first.stderr, /5 candidates \(A, B, C, D, E\)/);
    assert.deepEqual((await fs.readdir(path.join(root, 'runs', RUN_ID, 'rerank', 'options'))).sort(), [
      'A.png',
      'B.png',
      'C.png',
      'D.png',
      'E.png',
    ]);
    const second = await run('rerank', root, RUN_ID);
    assert.equal(second.code, 1);
    assert.match(second.stderr, /^teamfusion rerank: Run .* already has a re-rank folder/);
    assert.doesNotMatch(second.stderr, STACK);
    const missing = await run('rerank', root, '2026-01-01T00-00-00Z-0000');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /There is no run/);
  });

  it("compare --json after the re-rankings: the issue's fields, consistent with analyze; sentences in text", async () => {
    await writeRerankBySource(root, 'd1', ['r2', '4', '3', 'r1', '2']);
    const waiting = await run('compare', root, RUN_ID, '--json');
    assert.equal(waiting.code, 1);
    assert.match(waiting.stderr, /1 of the 2 re-rankings/);
    await writeRerankBySource(root, 'd2', ['r2', '3', '4', '2', 'r1']);
    const dir = path.join(root, 'runs', RUN_ID, 'rerank');
    const analysed = await run('analyze', dir, '--json');
    assert.equal(analysed.code, 0, analysed.stderr);
    const a = JSON.parse(analysed.stdout) as { kendall: { w: number; pPermutation: number } };
    const json = await run('compare', root, RUN_ID, '--json');
    assert.equal(json.code, 0, json.stderr);
    const c = JSON.parse(json.stdout) as {
      before: { w: number; meanSpearman: number; designers: string[]; options: number; pValue: number; pPermutation: number };
      after: { w: number; meanSpearman: number; designers: string[]; options: number; pPermutation: number };
      paired: { designers: string[]; wBefore: number; wAfter: number; change: number; interval: [number, number]; verdict: string };
      acceptance: {
        ranking: string[];
        generated: string[];
        top1: boolean;
        top2: boolean;
        bestGenerated: { letter: string; id: string; position: number };
      };
      ratings: { n: number; mean: null };
      survey: { n: number; representative: null };
    };
    assert.equal(c.after.w, a.kendall.w, 'compare and analyze agree on W after');
    assert.equal(c.after.pPermutation, a.kendall.pPermutation);
    assert.deepEqual(c.after.designers, ['d1', 'd2']);
    assert.equal(c.after.options, 5);
    assert.ok(Math.abs(c.after.meanSpearman - (2 * c.after.w - 1)) < 1e-12);
    assert.deepEqual(c.paired.designers, ['d1', 'd2']);
    assert.ok(Math.abs(c.paired.change - (c.after.meanSpearman - (2 * c.paired.wBefore - 1))) < 1e-12);
    assert.ok(['converged', 'diverged', 'no evidence'].includes(c.paired.verdict));
    assert.equal(c.acceptance.bestGenerated.id, 'r2');
    assert.equal(c.acceptance.top1, true);
    assert.equal(c.ratings.n, 0);
    assert.equal(c.ratings.mean, null);
    assert.equal(c.survey.representative, null);
    const text = await run('compare', root, RUN_ID);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^For the 2 designers who ranked both times, mean Spearman changed by [+−]\d\.\d\d \(90% interval/m);
    assert.match(text.stdout, /best generated option \([A-E] = r2\) came 1st of 5/);
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
