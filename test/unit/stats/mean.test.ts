/** One mean (null for none) and one 95% t interval, which the evaluation, the baselines and the forecasts share. */
import * as assert from 'node:assert/strict';
import { meanOrNull, tInterval95 } from '../../../src/core/stats/mean';

describe('stats: the mean and its 95% t interval', () => {
  it('the mean is null for no values', () => {
    assert.equal(meanOrNull([]), null);
    assert.equal(meanOrNull([1, 2, 3, 6]), 3);
  });

  it('the interval has null bounds below two values, and t(n − 1) · sd / √n around the mean otherwise', () => {
    assert.deepEqual(tInterval95([]), { n: 0, mean: null, low: null, high: null });
    assert.deepEqual(tInterval95([5]), { n: 1, mean: 5, low: null, high: null });
    // 1, 2, 3: mean 2, sample SD 1, t(2) at 0.975 = 4.302653 → half-width 2.484138.
    const { n, mean, low, high } = tInterval95([1, 2, 3]);
    assert.equal(n, 3);
    assert.equal(mean, 2);
    assert.ok(Math.abs(low! - (2 - 2.484138)) < 1e-5, String(low));
    assert.ok(Math.abs(high! - (2 + 2.484138)) < 1e-5, String(high));
    assert.deepEqual(tInterval95([4, 4, 4]), { n: 3, mean: 4, low: 4, high: 4 });
  });
});
