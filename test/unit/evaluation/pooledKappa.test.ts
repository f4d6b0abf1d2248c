/**
 * Coverage agreement across brief runs (issue 32, items 2 and 6): evaluate pools Cohen's κ between the agent's status and
 * each member's over every confirmed point of every run — one κ on all the points, not a mean of the runs' κ — with n,
 * beside each run's own figure, and per `--by` group; below 10 points, or when κ is undefined, it says "too few to say".
 * Expected values are computed here from the files with κ written out plainly.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { briefFallback } from '../../support/openaiMock';
import { KAPPA_MIN_POINTS, kappaWords, pooledKappa, type ConfirmationTable } from '../../../src/core/evaluation/checks/coverageCheck';
import { completedBriefRun, mockSuite, startCli } from '../run/helpers';
import { makeTempDir } from '../run/fixtures';

type Pair = [agent: string, member: string];

/** Cohen's κ written out plainly: observed agreement against the agreement each rater's own shares give by chance. */
function kappaByHand(pairs: readonly Pair[]): number {
  const n = pairs.length;
  const observed = pairs.filter(([a, m]) => a === m).length / n;
  let chance = 0;
  for (const c of new Set(pairs.flat()))
    chance += (pairs.filter(([a]) => a === c).length / n) * (pairs.filter(([, m]) => m === c).length / n);
  return (observed - chance) / (1 - chance);
}

function pairsOf(table: ConfirmationTable): Pair[] {
  return Object.entries(table).flatMap(([a, row]) =>
    Object.entries(row).flatMap(([m, k]) => Array.from({ length: k }, (): Pair => [a, m])),
  );
}

const close = (a: number | null | undefined, b: number, what: string): void =>
  assert.ok(typeof a === 'number' && Math.abs(a - b) < 1e-9, `${what}: ${a} ≠ ${b}`);

describe("evaluate: Cohen's κ of the coverage confirmations, pooled over runs", function () {
  it("is one κ on every confirmed point of the runs, with n — not the mean of the runs' κ", () => {
    // In each run one member says "kept" of every point: κ 0 in each run alone, yet 10 of the 12 points agree across
    // categories both raters use (by hand: pₒ 10/12, pₑ ½·½ + ½·½ = ½, κ = (5/6 − ½) / ½ = 2/3).
    const a: ConfirmationTable = { kept: { kept: 5 }, changed: { kept: 1 } };
    const b: ConfirmationTable = { changed: { changed: 5 }, kept: { changed: 1 } };
    const pooled = pooledKappa([a, b]);
    assert.equal(pooled.n, 12);
    close(pooled.kappa, 2 / 3, 'pooled κ');
    close(pooled.kappa, kappaByHand([...pairsOf(a), ...pairsOf(b)]), 'pooled κ against the plain computation');
    assert.equal(pooled.kappaNote, null);
    assert.deepEqual([kappaByHand(pairsOf(a)), kappaByHand(pairsOf(b))], [0, 0], 'each run alone: κ 0, so the mean of the runs would be 0');
    assert.equal(kappaWords(pooled), "Cohen's κ 0.67 (n 12)");
    const more = { kept: { kept: 3, 'left-out': 1 }, changed: { changed: 2, unspecified: 1 }, 'left-out': { 'left-out': 2, kept: 1 } };
    close(pooledKappa([a, b, more]).kappa, kappaByHand([...pairsOf(a), ...pairsOf(b), ...pairsOf(more)]), 'three runs, four categories');
  });

  it(`says "too few to say" below ${KAPPA_MIN_POINTS} points, and when both put every point in one category`, () => {
    const few = pooledKappa([{ kept: { kept: 5, changed: 1 }, changed: { changed: 3 } }]);
    assert.deepEqual(few, { n: 9, kappa: null, kappaNote: 'too few to say (9 confirmed points; κ is stated from 10 on)' });
    assert.equal(kappaWords(few), "Cohen's κ: too few to say (9 confirmed points; κ is stated from 10 on)");
    const one = pooledKappa([{ kept: { kept: 6 } }, { kept: { kept: 6 } }]);
    assert.equal(one.n, 12);
    assert.equal(one.kappa, null);
    assert.match(
      one.kappaNote ?? '',
      /^too few to say \(12 confirmed points, all in one and the same category .*chance alone explains the agreement\)$/,
    );
    assert.deepEqual(pooledKappa([]), { n: 0, kappa: null, kappaNote: 'too few to say (0 confirmed points; κ is stated from 10 on)' });
  });
});

describe('teamfusion evaluate: pooled coverage κ over brief runs, and per --by group (command line)', function () {
  this.timeout(240_000);
  const suite = mockSuite({ fallback: () => briefFallback() });

  it("--json and the text give κ on all confirmed points with n beside each run's own; groups too small say so", async () => {
    const top = await makeTempDir('tf-evaluate-kappa-');
    const perRun: Record<string, Pair[]> = {};
    let i = 0;
    for (const [name, members] of [
      ['brief-a', 4],
      ['brief-b', 3],
    ] as const) {
      const r = await completedBriefRun(suite.env, members);
      const root = path.join(top, name);
      await fs.rename(r.root, root);
      const record = JSON.parse(await fs.readFile(path.join(root, 'runs', r.id, 'run.json'), 'utf8')) as {
        iterations: { brief?: { coverage: { designer: string; point: string; status: string }[] } }[];
      };
      const coverage = [...record.iterations].reverse().find((it) => it.brief)!.brief!.coverage;
      const pairs: Pair[] = [];
      const files: Record<string, string[]> = {};
      // Every member confirms every point of theirs: most agree, some correct the status, some disagree without one.
      for (const c of coverage) {
        const other = c.status === 'kept' ? 'changed' : 'kept';
        const k = i++;
        const line = k % 3 === 1 ? `agree: false\n    status: ${other}` : k % 4 === 3 ? 'agree: false' : 'agree: true';
        pairs.push([c.status, k % 3 === 1 ? other : k % 4 === 3 ? 'unspecified' : c.status]);
        (files[c.designer] ??= []).push(`  - point: ${JSON.stringify(c.point)}\n    ${line}\n`);
      }
      const dir = path.join(root, 'runs', r.id, 'coverage');
      await fs.mkdir(dir, { recursive: true });
      for (const [m, points] of Object.entries(files))
        await fs.writeFile(path.join(dir, `${m}.yaml`), `designer: ${m}\npoints:\n${points.join('')}`);
      perRun[name] = pairs;
    }
    const all = [...perRun['brief-a']!, ...perRun['brief-b']!];
    assert.ok(all.length >= KAPPA_MIN_POINTS, `${all.length} confirmed points`);
    const expected = kappaByHand(all);

    type Confirmations = { n: number; kappa: number | null; kappaNote?: string | null };
    type Out = {
      reviews: { path: string; runs: { brief: { coverageCheck: { confirmations: Confirmations } } }[] }[];
      overall: { coverageCheck: { confirmations: Confirmations } };
      groups?: { value: string; n: number; coverageCheck: { confirmations: Confirmations } }[];
    };
    const run = async (...args: string[]): Promise<string> => {
      const r = await startCli(['evaluate', top, ...args], suite.env).done;
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    const e = JSON.parse(await run('--json')) as Out;
    const pooled = e.overall.coverageCheck.confirmations;
    assert.equal(pooled.n, all.length);
    close(pooled.kappa, expected, 'pooled κ');
    assert.equal(pooled.kappaNote, null);
    // Each run's own κ (compare's) stays beside it.
    for (const review of e.reviews)
      close(review.runs[0]!.brief.coverageCheck.confirmations.kappa, kappaByHand(perRun[review.path]!), `${review.path}'s κ`);

    // Grouped by team size: 8 and 6 points, each too few for κ.
    const grouped = JSON.parse(await run('--json', '--by', 'team-size')) as Out;
    assert.deepEqual(
      grouped.groups?.map((g) => [
        g.value,
        g.n,
        g.coverageCheck.confirmations.n,
        g.coverageCheck.confirmations.kappa,
        g.coverageCheck.confirmations.kappaNote,
      ]),
      [
        ['3', 1, perRun['brief-b']!.length, null, `too few to say (${perRun['brief-b']!.length} confirmed points; κ is stated from 10 on)`],
        ['4', 1, perRun['brief-a']!.length, null, `too few to say (${perRun['brief-a']!.length} confirmed points; κ is stated from 10 on)`],
      ],
    );

    const text = await run();
    assert.ok(text.includes(`pooled over them, Cohen's κ ${expected.toFixed(2)} (n ${all.length}).`), text);
    const table = await run('--by', 'team-size');
    assert.match(table, /coverage verified \/ agreed \/ κ/);
    assert.equal(table.match(/κ too few to say/g)?.length, 2, table);
  });
});
