/**
 * evaluate across runs (issue 32, item 6; issue 33): `--by` groups every measure with n, `wBands` counts the agreement
 * bands before and after, grounding is summed over runs, and runs with and without forks give the final pick's rank by
 * its lowest-ranking member and the survey's "represents my view". Every expected number is computed here from the files
 * (compareRun, the re-rankings as written, the records), never copied from evaluate.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compareRun, evaluateFolder, makeRerankSet, writeSurvey } from '../../../src/core/evaluation';
import type { CompareResult } from '../../../src/core/evaluation';
import type { Group } from '../../../src/core/evaluation/evaluate/evaluate';
import { acrossRunsOf, type RunMeasured } from '../../../src/core/evaluation/evaluate/acrossRuns';
import { useBuiltCli } from '../cli/buildCli';
import { editRun, forkFirstRound, makeReviewWithRun, RUN_ID, writeRerankBySource } from './fixtures';

/** Re-rankings (ids best first) of each review's run; the final pick is r2. */
const RERANKS: Record<string, Record<string, string[]>> = {
  a: { d1: ['r2', '4', '3', 'r1', '2'], d2: ['r2', '3', '4', '2', 'r1'], d3: ['4', 'r2', 'r1', '3', '2'] },
  b: { d1: ['4', '3', '2', 'r1', 'r2'], d2: ['3', '4', '2', 'r2', 'r1'], d3: ['2', 'r1', '4', '3', 'r2'] },
  c: {
    d1: ['r1a', 'r2', '4', '3', '2', 'r1b'],
    d2: ['r2', 'r1b', '3', '4', '2', 'r1a'],
    d3: ['r2', 'r1a', 'r1b', '4', '3', '2'],
    d4: ['4', 'r2', '3', '2', 'r1a', 'r1b'],
  },
};

/** The worst (largest) position any re-ranker gave r2, read off the lists above. */
function lowestRankOfPick(review: string): number {
  return Math.max(...Object.values(RERANKS[review]!).map((list) => list.indexOf('r2') + 1));
}

/** The band by the thresholds the docs state (0.2 steps), written out here on its own. */
function band(w: number): string {
  return w < 0.2 ? 'slight' : w < 0.4 ? 'fair' : w < 0.6 ? 'moderate' : w < 0.8 ? 'substantial' : 'almost-perfect';
}

const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
const close = (a: number | null | undefined, b: number, what: string): void =>
  assert.ok(a !== null && a !== undefined && Math.abs(a - b) < 1e-9, `${what}: ${a} ≠ ${b}`);

describe('evaluate across runs: groups, agreement bands, grounding and forks', function () {
  this.timeout(120_000);
  const built = useBuiltCli();
  let top = '';
  const compared: Record<string, CompareResult> = {};

  before(async () => {
    top = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-evaluate-groups-'));
    const make = async (name: string, change: Parameters<typeof editRun>[1]): Promise<string> => {
      const root = path.join(top, name);
      await fs.rename(await makeReviewWithRun(), root);
      await editRun(root, change);
      return root;
    };
    // a: together, 1 turn, one ungrounded citation; b: together, 2 turns, dearer; c: separate, a fork in round 1;
    // d: separate, not re-ranked; e: together but scripted (never summed, never grouped).
    await make('a', (r) => {
      r.settings.mode = 'together';
      r.iterations[0]!.messages[1]!.ungrounded = ['Image 9'];
    });
    await make('b', (r) => {
      r.settings.mode = 'together';
      r.settings.turnsPerAgent = 2;
      r.usage.costUsd = 0.5;
    });
    const c = await make('c', (r) => {
      r.settings.mode = 'separate';
      r.iterations[0]!.messages[0]!.ungrounded = ['Image 12', '@zoe'];
    });
    await forkFirstRound(c);
    await make('d', (r) => {
      r.settings.mode = 'separate';
      r.usage.costUsd = 0.1;
    });
    await make('e', (r) => {
      r.settings.mode = 'together';
      r.scripted = true;
    });
    for (const [name, lists] of Object.entries(RERANKS)) {
      const root = path.join(top, name);
      await makeRerankSet(root, RUN_ID);
      for (const [designer, list] of Object.entries(lists)) await writeRerankBySource(root, designer, list);
      compared[name] = await compareRun(root, RUN_ID);
    }
    await writeSurvey(path.join(top, 'a'), RUN_ID, { designer: 'd1', representative: 4 });
    await writeSurvey(path.join(top, 'a'), RUN_ID, { designer: 'd2', representative: 2, clarity: 3 });
    await writeSurvey(path.join(top, 'c'), RUN_ID, { designer: 'd1', representative: 5 });
    await writeSurvey(path.join(top, 'c'), RUN_ID, { designer: 'd3', representative: 3 });
    await writeSurvey(path.join(top, 'c'), RUN_ID, { designer: 'd4', representative: 4 });
  });
  after(async () => {
    if (top) await fs.rm(top, { recursive: true, force: true });
  });

  it('wBands counts the re-ranked runs by the band of W before and after; scripted and un-re-ranked runs are not counted', async () => {
    const e = await evaluateFolder(top);
    const expected = { before: {} as Record<string, number>, after: {} as Record<string, number> };
    for (const b of ['slight', 'fair', 'moderate', 'substantial', 'almost-perfect']) ((expected.before[b] = 0), (expected.after[b] = 0));
    for (const c of Object.values(compared)) {
      expected.before[band(c.before.w)]!++;
      expected.after[band(c.after!.w)]!++;
    }
    assert.deepEqual(e.wBands, expected);
    assert.deepEqual(e.overall.wBands, e.wBands);
    assert.equal(
      Object.values(e.wBands.after).reduce((s, k) => s + k, 0),
      3,
      'a, b and c were re-ranked',
    );
    assert.deepEqual(
      e.scripted.map((s) => s.path),
      ['e/runs/' + RUN_ID],
    );
    // Fig. 4: every re-ranked run here has a team of 4 (b's and a's re-rankers are 3 of them; the run's team is 4).
    const top1 = Object.values(compared).map((c) => (c.acceptance!.top1 ? 1 : 0));
    assert.deepEqual(Object.keys(e.overall.acceptanceByTeamSize), ['4']);
    close(e.overall.acceptanceByTeamSize['4']!.top1Rate, mean(top1), 'top 1 rate of teams of 4');
  });

  it('--by mode: one group per mode with n and each measure equal to a computation over its runs', async () => {
    const e = await evaluateFolder(top, { by: 'mode' });
    const groups = e.groups!;
    assert.deepEqual(
      groups.map((g) => [g.by, g.value, g.n]),
      [
        ['mode', 'separate', 2],
        ['mode', 'together', 2],
      ],
    );
    const byValue = (v: string): Group => groups.find((g) => g.value === v)!;
    const together = byValue('together');
    const changes = [compared.a!, compared.b!].map((c) => c.paired!.change);
    assert.equal(together.perRun.wChange.n, 2);
    close(together.perRun.wChange.mean, mean(changes), 'mean W change of together');
    close(together.meanChange, mean(changes), 'overall meanChange within the group');
    // 95% t interval over two runs: mean ± t(1) · sd / √2.
    const sd = Math.abs(changes[0]! - changes[1]!) / Math.SQRT2;
    const half = (12.706204736174698 * sd) / Math.SQRT2;
    assert.ok(Math.abs(together.perRun.wChange.high! - together.perRun.wChange.mean! - half) < 1e-6 * half, 'half-width of the interval');
    close(together.totalCostUsd, 0.21 + 0.5, 'cost of together (the scripted run is not in it)');
    assert.equal(together.tooFew, true);
    assert.match(together.note!, /^Too few runs \(2 < 5\)/);
    const separate = byValue('separate');
    assert.equal(separate.rerankedRuns, 1, 'd is not re-ranked');
    assert.equal(separate.perRun.wChange.n, 1);
    assert.equal(separate.perRun.wChange.low, null, 'one run: no interval');
    close(separate.perRun.top1.mean, compared.c!.acceptance!.top1 ? 1 : 0, 'top 1 of separate');
    close(separate.totalCostUsd, 0.21 + 0.1, 'cost of separate');
    // Grounding, counted here from the records as written: a has 1 ungrounded citation, c 2; each run has 4 model-written
    // messages (three of proxies, one of a guest).
    assert.deepEqual(together.grounding, { runs: 2, messages: 8, ungrounded: 1, per100: 12.5 });
    assert.deepEqual(separate.grounding, { runs: 2, messages: 8, ungrounded: 2, per100: 25 });
    assert.deepEqual(e.overall.grounding, { runs: 4, messages: 16, ungrounded: 3, per100: 18.75 });
    assert.equal(e.overall.coverageCheck.runs, 0, 'design runs have no coverage to check');
  });

  it('--by forks and overall.forks: the final pick\'s rank by its lowest-ranking member and "represents my view", with and without forks', async () => {
    const e = await evaluateFolder(top, { by: 'forks' });
    assert.deepEqual(
      e.groups!.map((g) => [g.value, g.n]),
      [
        ['with', 1],
        ['without', 3],
      ],
    );
    const f = e.overall.forks;
    assert.equal(f.with.runs, 1);
    assert.equal(f.with.finalPickLowestRank.mean, lowestRankOfPick('c'));
    assert.equal(f.with.finalPickLowestRank.meanOptions, 6);
    assert.deepEqual(f.with.representative, { n: 3, mean: (5 + 3 + 4) / 3 });
    assert.equal(f.without.runs, 3);
    assert.equal(f.without.finalPickLowestRank.n, 2, 'a and b have their pick in a re-rank set; d has none');
    assert.equal(f.without.finalPickLowestRank.mean, (lowestRankOfPick('a') + lowestRankOfPick('b')) / 2);
    assert.deepEqual(f.without.representative, { n: 2, mean: 3 });
    assert.deepEqual(e.groups![0]!.forks.with, f.with, 'the with-forks group holds the same runs');
    for (const g of e.groups!) assert.equal(g.runs, g.n);
  });

  it("--by turns, team-size, iteration, model and remixes read each run's settings", async () => {
    const values = async (by: 'turns' | 'team-size' | 'iteration' | 'model' | 'remixes'): Promise<[string, number][]> =>
      (await evaluateFolder(top, { by })).groups!.map((g) => [g.value, g.n]);
    assert.deepEqual(await values('turns'), [
      ['1', 3],
      ['2', 1],
    ]);
    assert.deepEqual(await values('team-size'), [['4', 4]]);
    assert.deepEqual(await values('iteration'), [['3', 4]]);
    assert.deepEqual(await values('model'), [['gpt-4o', 4]]);
    assert.deepEqual(await values('remixes'), [['1', 4]]);
  });

  it('CLI: --by groups in --json, a grouped table and text bars of bands and top 1 / top 2 in the terminal and evaluation.md; an unknown --by is a usage error', async () => {
    const out = path.join(top, 'evaluation-out');
    const r = await built.run('evaluate', top, '--by', 'forks', '--json', '--out', out);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as { wBands: unknown; groups: { by: string; value: string; n: number }[] };
    assert.deepEqual(
      json.groups.map((g) => [g.by, g.value, g.n]),
      [
        ['forks', 'with', 1],
        ['forks', 'without', 3],
      ],
    );
    assert.deepEqual(json.wBands, (await evaluateFolder(top)).wBands);
    const plain = await built.run('evaluate', top);
    assert.equal(plain.code, 0, plain.stderr);
    assert.ok('wBands' in (JSON.parse((await built.run('evaluate', top, '--json')).stdout) as object), '--json always has wBands');
    assert.doesNotMatch(plain.stdout, /Runs grouped by/);
    const text = await built.run('evaluate', top, '--by', 'mode');
    assert.match(text.stdout, /^Runs grouped by the discussion mode: 2 groups\./m);
    assert.match(text.stdout, /^together\s+2\s+.*too few runs \(< 5\)$/m);
    assert.match(text.stdout, /^slight\s+0\.0–0\.2\s+█+ 3/m, 'every run starts at W = 1/7: three runs in the slight band before');
    assert.match(text.stdout, /^4\s+3\s+█+ \d+%\s+█+ \d+%$/m);
    const md = await fs.readFile(path.join(out, 'evaluation.md'), 'utf8');
    assert.match(md, /^## Across runs$/m);
    assert.match(md, /^\| slight \| 0\.0–0\.2 \| █+ 3 \|/m);
    assert.match(md, /^\| with \| 1 \| .* \| too few runs \\\(&lt; 5\\\) \|$/m, 'cells escaped by the one Markdown escape');
    const bad = await built.run('evaluate', top, '--by', 'colour');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--by takes one of mode, team-size, iteration, model, turns, remixes, forks, pool\./);
  });
});

describe('evaluate across runs: a per-run measure is picked up wherever a run carries it', () => {
  it("compare's fidelity lift (design) and a brief run's are summarised with n and a 95% t interval; runs without one do not count", () => {
    const run = (over: Partial<RunMeasured> & { lift?: number; briefLift?: number }): RunMeasured => ({
      costUsd: null,
      grounding: { messages: 0, ungrounded: 0, per100: null },
      groupValues: {
        mode: 'together',
        'team-size': '3',
        iteration: '3',
        model: 'm',
        turns: '1',
        remixes: '1',
        forks: 'without',
        pool: 'not pooled',
      },
      compare: null,
      brief: null,
      ...over,
      ...(over.lift !== undefined ? { compare: { ...design, fidelity: { meanLift: over.lift } } as RunMeasured['compare'] } : {}),
      ...(over.briefLift !== undefined
        ? { brief: { survey: noSurvey, fidelity: { meanLift: over.briefLift } } as RunMeasured['brief'] }
        : {}),
    });
    const noSurvey = { representative: null, answered: { representative: 0 } };
    const design = {
      before: { w: 0.1, band: 'slight' as const, designers: ['a', 'b', 'c'] },
      after: null,
      acceptance: null,
      finalPick: null,
      survey: noSurvey,
    };
    const lifts = [0.3, -0.1, 0.5];
    const a = acrossRunsOf([run({ lift: lifts[0]! }), run({ lift: lifts[1]! }), run({ briefLift: lifts[2]! }), run({})]);
    const m = mean(lifts);
    const sd = Math.sqrt(lifts.reduce((s, x) => s + (x - m) ** 2, 0) / 2);
    const half = (4.302652729911275 * sd) / Math.sqrt(3);
    assert.equal(a.perRun.fidelityLift.n, 3);
    close(a.perRun.fidelityLift.mean, m, 'mean lift');
    assert.ok(Math.abs(a.perRun.fidelityLift.high! - m - half) < 1e-6 * half, 'upper end of the 95% interval');
    assert.deepEqual(acrossRunsOf([run({})]).perRun.fidelityLift, { n: 0, mean: null, low: null, high: null });
  });
});
