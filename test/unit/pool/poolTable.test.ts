/**
 * A pooled round side by side (issue 41): the panel's columns, one per candidate in letter order, with who ranked it first,
 * whether it was elected and the remix it became (poolTableOf, read by webview/panel/views/run/pools.ts).
 */
import * as assert from 'node:assert/strict';
import { poolTableOf } from '../../../src/protocol/shared';
import type { Iteration } from '../../../src/core/record/record';

const candidates = ['a', 'b', 'c', 'd'].map((letter) => ({
  letter,
  editingDirections: `Directions ${letter}.`,
  from: ['1', '2'],
  differs: `unlike the others, ${letter}`,
}));
const base = {
  candidates,
  rankings: { Ana: ['c', 'a', 'b', 'd'], Ben: ['a', 'b', 'c', 'd'], Chloe: ['c', 'b', 'a', 'd'] },
  method: 'schulze' as const,
  diversity: 0.71,
  reasked: true,
};

describe('pool table: a pooled round side by side', function () {
  it('one column per candidate: who ranked it first, elected or not, the remix it became', () => {
    const it: Pick<Iteration, 'index' | 'pool' | 'remix' | 'remixes'> = {
      index: 2,
      pool: { ...base, elected: ['c', 'a'], leftOut: [{ member: 'Dan', reason: 'not a permutation' }] },
      remixes: [
        { id: 'r2a', letter: 'a', file: 'iteration-2/remix-a.png' },
        { id: 'r2c', letter: 'c', file: 'iteration-2/remix-c.png' },
      ],
    };
    const t = poolTableOf(it)!;
    assert.equal(t.iteration, 2);
    assert.equal(t.diversity, 0.71);
    assert.equal(t.reasked, true);
    assert.deepEqual(t.leftOut, [{ member: 'Dan', reason: 'not a permutation' }]);
    assert.deepEqual(
      t.columns.map((c) => [c.letter, c.rankedFirstBy, c.elected, c.remix ?? null]),
      [
        ['a', ['Ben'], true, 'r2a'],
        ['b', [], false, null],
        ['c', ['Ana', 'Chloe'], true, 'r2c'],
        ['d', [], false, null],
      ],
    );
    assert.equal(t.columns[2]!.editingDirections, 'Directions c.');
    assert.equal(t.columns[2]!.differs, 'unlike the others, c');
  });

  it("one elected and the round's one remix: the column names it; a round without a pool has no table", () => {
    const t = poolTableOf({ index: 1, pool: { ...base, elected: ['b'] }, remix: { id: 'r1', file: 'iteration-1/remix.png' } })!;
    assert.deepEqual(
      t.columns.map((c) => [c.letter, c.elected, c.remix ?? null]),
      [
        ['a', false, null],
        ['b', true, 'r1'],
        ['c', false, null],
        ['d', false, null],
      ],
    );
    assert.equal(poolTableOf({ index: 1, remix: { id: 'r1', file: 'iteration-1/remix.png' } }), undefined);
  });
});
