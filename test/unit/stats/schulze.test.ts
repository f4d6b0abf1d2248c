import * as assert from 'node:assert/strict';
import { bordaCount, consensusOrder, SeededRandom, schulzeRanking, schulzeSummary } from '../../../src/core/stats';

/**
 * An independent Schulze, written differently on purpose: weights are exact integers (quarters × 4), every simple path is
 * enumerated by depth-first search (no Floyd–Warshall), and an option's tier is the length of the longest chain of options
 * beating it (no peeling).
 */
function bruteForceSchulze(ranks: number[][], options: string[], quarters: number[]): string[][] {
  const n = options.length;
  const pref = (a: number, b: number) => ranks.reduce((sum, row, j) => sum + (row[a]! < row[b]! ? quarters[j]! : 0), 0);
  const link = (a: number, b: number) => (pref(a, b) > pref(b, a) ? pref(a, b) : 0);
  const best = (from: number, to: number): number => {
    let top = 0;
    const walk = (at: number, seen: Set<number>, weakest: number) => {
      for (let next = 0; next < n; next++) {
        if (seen.has(next) || link(at, next) === 0) continue;
        const strength = Math.min(weakest, link(at, next));
        if (next === to) top = Math.max(top, strength);
        else walk(next, new Set([...seen, next]), strength);
      }
    };
    walk(from, new Set([from]), Infinity);
    return top;
  };
  const beats = (a: number, b: number) => best(a, b) > best(b, a);
  const depth = (b: number): number => Math.max(0, ...options.map((_, a) => (a !== b && beats(a, b) ? depth(a) + 1 : 0)));
  const tiers: string[][] = [];
  options.forEach((o, i) => {
    const d = depth(i);
    while (tiers.length <= d) tiers.push([]);
    tiers[d]!.push(o);
  });
  return tiers;
}

/** A seeded random profile: m designers, n options, ranks 1..n drawn with repeats (ties), weights in quarters. */
function randomProfile(rng: SeededRandom, weighted: boolean) {
  const m = 1 + Math.floor(rng.next() * 7);
  const n = 2 + Math.floor(rng.next() * 5);
  const options = Array.from({ length: n }, (_, i) => `o${i + 1}`);
  const ranks = Array.from({ length: m }, () => options.map(() => 1 + Math.floor(rng.next() * n)));
  const quarters = Array.from({ length: m }, () => (weighted ? 1 + Math.floor(rng.next() * 12) : 4));
  return { options, ranks, quarters, weights: quarters.map((q) => q / 4) };
}

describe('stats: Schulze consensus', () => {
  it('the textbook election (45 voters as 8 weighted designers) comes out E > A > C > B > D', () => {
    // Schulze's own example: 5 ACBED, 5 ADECB, 8 BEDAC, 3 CABED, 7 CAEBD, 2 CBADE, 7 DCEBA, 8 EBADC.
    const ballots: [number, string][] = [
      [5, 'ACBED'],
      [5, 'ADECB'],
      [8, 'BEDAC'],
      [3, 'CABED'],
      [7, 'CAEBD'],
      [2, 'CBADE'],
      [7, 'DCEBA'],
      [8, 'EBADC'],
    ];
    const options = ['A', 'B', 'C', 'D', 'E'];
    const ranks = ballots.map(([, order]) => options.map((o) => order.indexOf(o) + 1));
    const s = schulzeRanking(
      ranks,
      options,
      ballots.map(([w]) => w),
    );
    assert.deepEqual(s.ranking, [['E'], ['A'], ['C'], ['B'], ['D']]);
    assert.deepEqual(s.winners, ['E']);
    assert.equal(s.condorcetWinner, null, 'this election has a cycle, so no option beats all the others head to head');
    assert.equal(s.preferences[0]![1], 20); // A over B: 5 + 5 + 3 + 7 = 20
    // The strongest paths of the published worked example.
    assert.deepEqual(s.strongestPaths[0], [0, 28, 28, 30, 24]);
    assert.deepEqual(s.strongestPaths[4], [25, 28, 28, 31, 0]);
  });

  it('a Condorcet winner that Borda does not put first: the one sentence says so', () => {
    // 3 designers A > B > C > D > E, 2 designers B > C > D > E > A: Borda gives B 17 points and A 12, but 3 of 5 prefer A to each.
    const options = ['A', 'B', 'C', 'D', 'E'];
    const ranks = [
      [1, 2, 3, 4, 5],
      [1, 2, 3, 4, 5],
      [1, 2, 3, 4, 5],
      [5, 1, 2, 3, 4],
      [5, 1, 2, 3, 4],
    ];
    const s = schulzeSummary(ranks, options);
    assert.deepEqual(s.winners, ['A']);
    assert.equal(s.condorcetWinner, 'A');
    assert.equal(s.differsFromBorda, true);
    assert.equal(s.sentence, 'Borda puts B first; a majority prefers A to every other option.');
    // Borda ties A and C at 12 points (review order keeps A first).
    assert.deepEqual(consensusOrder('borda', ranks, options), ['B', 'A', 'C', 'D', 'E']);
    assert.deepEqual(consensusOrder('schulze', ranks, options), ['A', 'B', 'C', 'D', 'E']);
  });

  it('a weight can make the majority: the heavier designer tips A over B head to head while weighted Borda still puts B first', () => {
    const options = ['A', 'B', 'C'];
    const ranks = [
      [1, 2, 3],
      [3, 1, 2],
      [3, 1, 2],
    ];
    assert.deepEqual(schulzeSummary(ranks, options).winners, ['B']);
    const heavy = schulzeSummary(ranks, options, [3, 1, 1]);
    assert.deepEqual(heavy.ranking, [['A'], ['B'], ['C']]);
    assert.equal(heavy.condorcetWinner, 'A');
    // Weighted Borda: A 3 × 2 = 6 points, B 3 + 2 + 2 = 7, C 2.
    assert.equal(heavy.differsFromBorda, true);
    assert.equal(heavy.sentence, 'Weighted Borda puts B first; a weighted majority prefers A to every other option.');
  });

  it('a tie stays a tie: a perfect cycle puts every option in the first tier, and the strict order falls back to Borda, then review order', () => {
    const options = ['x', 'y', 'z'];
    const ranks = [
      [1, 2, 3],
      [3, 1, 2],
      [2, 3, 1],
    ];
    const s = schulzeSummary(ranks, options);
    assert.deepEqual(s.ranking, [['x', 'y', 'z']]);
    assert.deepEqual(s.winners, ['x', 'y', 'z']);
    assert.equal(s.condorcetWinner, null);
    assert.equal(s.differsFromBorda, false, 'Borda ties all three as well');
    assert.deepEqual(consensusOrder('schulze', ranks, options), ['x', 'y', 'z']);
    // Tied in Schulze (a designer's own tie counts for neither side) but not in Borda: Borda points decide the strict order.
    const tiedTop = [
      [2, 1, 1],
      [1, 2, 3],
    ];
    assert.deepEqual(schulzeRanking(tiedTop, options).ranking, [['x', 'y'], ['z']]);
    assert.deepEqual(consensusOrder('schulze', tiedTop, options), ['y', 'x', 'z']);
    assert.deepEqual(
      bordaCount(tiedTop, options).map((b) => b.option),
      ['y', 'x', 'z'],
    );
  });

  it('same winner, different order further down: the sentence shows both orders', () => {
    const options = ['a', 'b', 'c', 'd'];
    // a first for everyone; b over c by 2 to 1, but the one c-voter puts b last, so Borda ties b and c.
    const ranks = [
      [1, 2, 3, 4],
      [1, 2, 3, 4],
      [1, 4, 2, 3],
    ];
    const s = schulzeSummary(ranks, options);
    assert.deepEqual(s.ranking, [['a'], ['b'], ['c'], ['d']]);
    assert.equal(s.differsFromBorda, true);
    assert.equal(s.sentence, 'Borda and Schulze both put a first but differ further down (Borda: a, b = c, d; Schulze: a, b, c, d).');
  });

  it('equals an independent brute-force implementation on 600 seeded random profiles, with ties and weights', () => {
    const rng = new SeededRandom(20261126);
    let differing = 0;
    let cyclic = 0;
    for (let k = 0; k < 600; k++) {
      const p = randomProfile(rng, k % 3 !== 0);
      const mine = schulzeRanking(p.ranks, p.options, p.weights);
      const theirs = bruteForceSchulze(p.ranks, p.options, p.quarters);
      assert.deepEqual(mine.ranking, theirs, `profile ${k}: ${JSON.stringify(p)}`);
      assert.deepEqual(mine.winners, theirs[0]);
      if (schulzeSummary(p.ranks, p.options, p.weights).differsFromBorda) differing++;
      if (mine.condorcetWinner === null) cyclic++;
    }
    // The profiles must exercise the interesting cases, not only unanimous ones.
    assert.ok(differing > 50, `Schulze differed from Borda in ${differing} of 600 profiles`);
    assert.ok(cyclic > 50, `no Condorcet winner in ${cyclic} of 600 profiles`);
  });
});
