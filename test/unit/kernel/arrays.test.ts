import * as assert from 'node:assert/strict';
import { IndexOutOfRangeError, at, cell, num } from '../../../src/core/kernel/arrays';

describe('kernel: checked indexed reads', () => {
  it('at returns the element, including a stored undefined, and throws past either end', () => {
    assert.equal(at(['a', 'b'], 1), 'b');
    assert.equal(at([undefined, 1], 0), undefined, 'an element that is undefined is still an element');
    assert.throws(
      () => at(['a'], 1),
      (e: unknown) => e instanceof IndexOutOfRangeError && /index 1 .* length 1/.test(e.message),
    );
    assert.throws(() => at(['a'], -1), IndexOutOfRangeError, 'no negative indexes');
  });

  it('num reads plain and typed arrays and names the index it could not read', () => {
    assert.equal(num([3, 4], 1), 4);
    assert.equal(num(Int32Array.of(7, 8), 0), 7);
    assert.equal(num(new Float64Array([0.5]), 0), 0.5);
    assert.throws(() => num(new Int32Array(2), 2), /Internal error: index 2 is outside an array of length 2\./);
  });

  it('cell reads a matrix and throws for a missing row or column', () => {
    const m = [
      [1, 2],
      [3, 4],
    ];
    assert.equal(cell(m, 1, 0), 3);
    assert.throws(() => cell(m, 2, 0), IndexOutOfRangeError);
    assert.throws(() => cell(m, 0, 2), IndexOutOfRangeError);
  });
});
