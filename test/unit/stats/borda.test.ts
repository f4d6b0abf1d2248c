import * as assert from 'node:assert/strict';
import { bordaCount, isContested, summarizeOptions } from '../../../src/core/stats';

describe('stats: Borda consensus', () => {
  it('points = n − average rank summed; best first; ties share the position (1, 2, 2, 4)', () => {
    // 4 options a b c d, 2 raters
    const ranks = [
      [1, 2, 3, 4], // points 3 2 1 0
      [1, 3, 2, 4], // points 3 1 2 0
    ];
    const b = bordaCount(ranks, ['a', 'b', 'c', 'd']);
    assert.deepEqual(b, [
      { option: 'a', points: 6, position: 1 },
      { option: 'b', points: 3, position: 2 },
      { option: 'c', points: 3, position: 2 },
      { option: 'd', points: 0, position: 4 },
    ]);
  });

  it('tied ranks as written (1,2,2,3) score as average ranks', () => {
    const b = bordaCount([[1, 2, 2, 3]], ['w', 'x', 'y', 'z']);
    assert.deepEqual(
      b.map((e) => [e.option, e.points, e.position]),
      [
        ['w', 3, 1],
        ['x', 1.5, 2],
        ['y', 1.5, 2],
        ['z', 0, 4],
      ],
    );
  });

  it('weighted variant multiplies each rater by the weight and can change the winner', () => {
    const ranks = [
      [1, 2, 3],
      [1, 2, 3],
      [3, 1, 2],
    ];
    const plain = bordaCount(ranks, ['p', 'q', 'r']);
    assert.equal(plain[0]!.option, 'p'); // p: 2+2+0 = 4, q: 1+1+2 = 4 → tie, p first by input order
    assert.equal(plain[0]!.position, 1);
    assert.equal(plain[1]!.position, 1);
    const weighted = bordaCount(ranks, ['p', 'q', 'r'], [1, 1, 3]);
    assert.deepEqual(
      weighted.map((e) => [e.option, e.points, e.position]),
      [
        ['q', 8, 1],
        ['p', 4, 2],
        ['r', 3, 3],
      ],
    );
  });

  it('weighted totals that differ only by float rounding still tie', () => {
    const b = bordaCount(
      [
        [1, 2],
        [2, 1],
      ],
      ['a', 'b'],
      [0.1 + 0.2, 0.3],
    );
    assert.equal(b[0]!.position, 1);
    assert.equal(b[1]!.position, 1);
  });
});

describe('stats: per-option summary', () => {
  it('mean, population sd, min, max of average ranks', () => {
    const s = summarizeOptions(
      [
        [1, 2, 3, 4, 5, 6],
        [4, 1, 2, 3, 6, 5],
        [1, 2, 2, 4, 5, 6], // b and c tie → 2.5
      ],
      ['a', 'b', 'c', 'd', 'e', 'f'],
    );
    const a = s[0]!;
    assert.equal(a.option, 'a');
    assert.equal(a.meanRank, 2);
    assert.ok(Math.abs(a.sd - Math.sqrt(2)) < 1e-15); // ranks 1, 4, 1 → deviations −1, 2, −1 → var 6/3
    assert.equal(a.min, 1);
    assert.equal(a.max, 4);
    assert.equal(a.contested, false, '1st vs 4th of 6 is not top third vs bottom third');
    assert.equal(s[4]!.contested, false);
    assert.equal(s[5]!.contested, false);
    const b = s[1]!;
    assert.equal(b.max, 2.5);
    assert.equal(b.contested, false);
  });

  it('contested rule: someone in the top third and someone in the bottom third', () => {
    // n = 6: top two vs bottom two
    assert.equal(isContested(2, 5, 6), true);
    assert.equal(isContested(1, 6, 6), true);
    assert.equal(isContested(1, 4, 6), false, '1st vs 4th is disagreement, not polarisation');
    assert.equal(isContested(2.5, 6, 6), false);
    assert.equal(isContested(1, 4.5, 6), false);
    // small n: the "third" is at least one place
    assert.equal(isContested(1, 2, 2), true);
    assert.equal(isContested(1, 2, 3), false);
    assert.equal(isContested(1, 3, 3), true);
    assert.equal(isContested(1, 3, 4), false);
    assert.equal(isContested(1, 4, 4), true);
    // n = 50: top 16 vs bottom 16
    assert.equal(isContested(16, 35, 50), true);
    assert.equal(isContested(17, 50, 50), false);
    assert.equal(isContested(1, 34, 50), false);
  });

  it('opposed designers make the ends contested, not the middle', () => {
    const s = summarizeOptions(
      [
        [1, 2, 3, 4, 5, 6],
        [6, 5, 4, 3, 2, 1],
      ],
      ['a', 'b', 'c', 'd', 'e', 'f'],
    );
    assert.deepEqual(
      s.map((o) => o.contested),
      [true, true, false, false, true, true],
    );
    assert.ok(s.every((o) => o.meanRank === 3.5));
  });

  it('a single designer: sd 0, nothing contested', () => {
    const s = summarizeOptions([[2, 1, 3]], ['x', 'y', 'z']);
    assert.ok(s.every((o) => o.sd === 0 && !o.contested));
  });
});
