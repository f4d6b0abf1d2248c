/**
 * The pool and the checklist in compare and evaluate (issue 41, items 2 and 4): compare reports each pooled round's
 * diversity, its re-ask and whether the election chose the agent's own first proposal ("a"), and the final pick's failed
 * checklist items with their quotes; evaluate averages those over runs (and per `--by pool` group) with the final picks'
 * checklist pass rate, each with n. Every expected number is worked out here from the records as written.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compareRun, evaluateFolder } from '../../../src/core/evaluation';
import type { RunRecord } from '../../../src/core/record/record';
import { useBuiltCli } from '../cli/buildCli';
import { editRun, makeReviewWithRun, RUN_ID } from './fixtures';

const MEMBERS = ['d1', 'd2', 'd3', 'd4'];
const ITEMS = [
  { id: 'k1', text: 'Light, calm and premium', quote: 'light, calm, premium', verified: true as const },
  { id: 'k2', text: 'Speaks to a young urban audience', quote: 'for a young urban audience', verified: true as const },
  { id: 'k3', text: 'A unisex perfume', quote: 'a new unisex perfume', verified: true as const },
];
const FAIL_REASON = 'The figure reads as middle-aged and rural.';

/** A pool of four on round `index` of the fixture run, electing `elected`. */
function pool(r: RunRecord, index: number, o: { diversity: number; reasked: boolean; elected: string[] }): void {
  const letters = ['a', 'b', 'c', 'd'];
  r.iterations[index - 1]!.pool = {
    candidates: letters.map((letter) => ({
      letter,
      editingDirections: `Direction ${letter}.`,
      from: ['2', '4'],
      differs: `the ${letter} one`,
    })),
    rankings: Object.fromEntries(MEMBERS.map((m) => [m, [...o.elected, ...letters.filter((l) => !o.elected.includes(l))]])),
    elected: o.elected,
    method: 'schulze',
    diversity: o.diversity,
    reasked: o.reasked,
  };
}

/** The checklist of the run, with the final pick r2 checked as `results` (item order). */
function checklist(r: RunRecord, results: ('pass' | 'fail' | 'unclear')[]): void {
  r.checklist = { items: ITEMS, repeat: 1 };
  r.iterations[1]!.remix!.checks = ITEMS.map((item, i) => ({
    item: item.id,
    result: results[i]!,
    reason: results[i] === 'fail' ? FAIL_REASON : 'Seen in the image.',
  }));
  r.iterations[0]!.remix!.checks = ITEMS.map((item) => ({ item: item.id, result: 'fail', reason: 'Not the final pick.' }));
}

const close = (a: number | null | undefined, b: number, what: string): void =>
  assert.ok(a !== null && a !== undefined && Math.abs(a - b) < 1e-9, `${what}: ${a} ≠ ${b}`);

describe('compare and evaluate: pools and the checklist (issue 41)', function () {
  this.timeout(120_000);
  const built = useBuiltCli();
  let top = '';

  before(async () => {
    top = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-pool-checks-'));
    const make = async (name: string, change: Parameters<typeof editRun>[1]): Promise<void> => {
      const root = path.join(top, name);
      await fs.rename(await makeReviewWithRun(), root);
      await editRun(root, change);
    };
    // p: two pooled rounds (diversity 0.6 then 0.1, the second asked again; "a" elected in the first only), the final
    // pick passes 2 of 3 items; q: one pooled round (0.4, "b" elected), the final pick passes all 3; n: no pool, no checklist.
    await make('p', (r) => {
      pool(r, 1, { diversity: 0.6, reasked: false, elected: ['a'] });
      pool(r, 2, { diversity: 0.1, reasked: true, elected: ['c'] });
      checklist(r, ['pass', 'fail', 'pass']);
    });
    await make('q', (r) => {
      pool(r, 1, { diversity: 0.4, reasked: false, elected: ['b'] });
      checklist(r, ['pass', 'pass', 'pass']);
    });
    await make('n', () => {});
  });

  after(async () => {
    await fs.rm(top, { recursive: true, force: true });
  });

  it('compare: each pooled round with its diversity, re-ask and whether "a" was elected; the final pick\'s failed items with quotes', async () => {
    const c = await compareRun(path.join(top, 'p'), RUN_ID);
    assert.deepEqual(c.pool, [
      { iteration: 1, candidates: 4, elected: ['a'], diversity: 0.6, reasked: false, firstElected: true },
      { iteration: 2, candidates: 4, elected: ['c'], diversity: 0.1, reasked: true, firstElected: false },
    ]);
    assert.deepEqual(c.checklist, {
      remix: 'r2',
      items: 3,
      pass: 2,
      fail: 1,
      unclear: 0,
      passRate: 2 / 3,
      failed: [{ item: 'k2', text: ITEMS[1]!.text, quote: ITEMS[1]!.quote, reason: FAIL_REASON }],
    });
    const plain = await compareRun(path.join(top, 'n'), RUN_ID);
    assert.deepEqual(plain.pool, []);
    assert.equal(plain.checklist, null);
  });

  it("CLI compare: the same in --json, and in words with the failed item's quote", async () => {
    const json = await built.run('compare', path.join(top, 'p'), RUN_ID, '--json');
    const parsed = JSON.parse(json.stdout) as {
      pool: { firstElected: boolean; reasked: boolean; diversity: number }[];
      checklist: { passRate: number; failed: { quote: string }[] };
    };
    assert.deepEqual(
      parsed.pool.map((r) => [r.diversity, r.reasked, r.firstElected]),
      [
        [0.6, false, true],
        [0.1, true, false],
      ],
    );
    close(parsed.checklist.passRate, 2 / 3, 'passRate');
    assert.deepEqual(
      parsed.checklist.failed.map((f) => f.quote),
      [ITEMS[1]!.quote],
    );
    const text = await built.run('compare', path.join(top, 'p'), RUN_ID);
    assert.match(
      text.stdout,
      /^Round 1 elected a of a pool of 4 \(diversity 0\.60\); the election chose the agent's own first proposal \(a\)\.$/m,
    );
    assert.match(
      text.stdout,
      /^Round 2 elected c of a pool of 4 \(diversity 0\.10, asked again for directions that differ\); the election did not choose/m,
    );
    assert.match(text.stdout, /^The final pick r2 passed 2 of the brief's 3 checklist items \(67%; 1 failed, 0 unclear\)\.$/m);
    assert.ok(text.stdout.includes(`Failed: ${ITEMS[1]!.text} — the brief: "${ITEMS[1]!.quote}" (${FAIL_REASON})`), text.stdout);
  });

  it('evaluate: mean diversity, re-ask rate, first proposal elected and checklist pass rate over runs, each with n, and per --by pool group', async () => {
    const e = await evaluateFolder(top, { by: 'pool' });
    // Per run: p over its two rounds, q over its one.
    const p = { diversity: (0.6 + 0.1) / 2, reasked: 1 / 2, first: 1 / 2, pass: 2 / 3 };
    const q = { diversity: 0.4, reasked: 0, first: 0, pass: 1 };
    const m = e.overall.perRun;
    assert.deepEqual([m.poolDiversity.n, m.poolReasked.n, m.poolFirstElected.n, m.checklistPass.n], [2, 2, 2, 2]);
    close(m.poolDiversity.mean, (p.diversity + q.diversity) / 2, 'mean diversity');
    close(m.poolReasked.mean, (p.reasked + q.reasked) / 2, 're-ask rate');
    close(m.poolFirstElected.mean, (p.first + q.first) / 2, 'first proposal elected');
    close(m.checklistPass.mean, (p.pass + q.pass) / 2, 'checklist pass rate');
    const pooled = e.groups!.find((g) => g.value === 'pooled')!;
    const not = e.groups!.find((g) => g.value === 'not pooled')!;
    assert.equal(pooled.n, 2);
    close(pooled.perRun.poolDiversity.mean, (p.diversity + q.diversity) / 2, 'pooled group diversity');
    close(pooled.perRun.checklistPass.mean, (p.pass + q.pass) / 2, 'pooled group pass rate');
    assert.deepEqual([not.n, not.perRun.poolDiversity.n, not.perRun.checklistPass.n], [1, 0, 0]);
    assert.equal(not.perRun.poolDiversity.mean, null);
  });

  it('CLI evaluate: the figures in --json per group and in words', async () => {
    const r = await built.run('evaluate', top, '--by', 'pool', '--json');
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as {
      runs?: unknown;
      groups: { value: string; perRun: Record<string, { n: number; mean: number | null }> }[];
    };
    const pooled = json.groups.find((g) => g.value === 'pooled')!;
    assert.deepEqual(
      ['poolDiversity', 'poolReasked', 'poolFirstElected', 'checklistPass'].map((k) => pooled.perRun[k]!.n),
      [2, 2, 2, 2],
    );
    close(pooled.perRun.poolReasked!.mean, 0.25, 'reasked in --json');
    const text = await built.run('evaluate', top);
    assert.match(
      text.stdout,
      /^Pools over 2 pooled runs .*: diversity 0\.38 \[.*\] \(n 2\); asked again 25% \[.*\] \(n 2\); the election chose the agent's own first proposal 25% \[.*\] \(n 2\)\.$/m,
    );
    assert.match(
      text.stdout,
      /^Checklist: the final picks passed 83% \[.*\] \(n 2\) of the brief's checklist items \(mean over runs\)\.$/m,
    );
  });
});
