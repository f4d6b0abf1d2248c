import * as assert from 'node:assert/strict';
import { chiSquareUpperTail, logGamma, regularizedGammaP, regularizedGammaQ } from '../../../src/core/stats';
import { CHI_SQUARE_QUANTILES } from './referenceData';

describe('stats: chi-square upper tail', () => {
  for (const [df, p, x] of CHI_SQUARE_QUANTILES) {
    it(`Q(chi-square ${df} ≥ ${x}) = ${p} (R qchisq), relative error ≤ 1e-10`, () => {
      const got = chiSquareUpperTail(x, df);
      assert.ok(Math.abs(got - p) <= 1e-10 * p, `got ${got}, expected ${p}`);
    });
  }

  it('even df has a closed form: Q = e^(-x/2) Σ_{i<df/2} (x/2)^i / i!; agree to 1e-13', () => {
    for (const df of [2, 4, 6, 10, 20, 48]) {
      for (const x of [0.01, 0.5, 1, 3, 7.5, 15, 30, 60, 100]) {
        let term = 1;
        let sum = 1;
        for (let i = 1; i < df / 2; i++) {
          term *= x / 2 / i;
          sum += term;
        }
        const exact = Math.exp(-x / 2) * sum;
        const got = chiSquareUpperTail(x, df);
        assert.ok(Math.abs(got - exact) <= 1e-13 * Math.max(exact, 1e-300) + 1e-300, `df ${df}, x ${x}: ${got} vs ${exact}`);
      }
    }
  });

  it('P + Q = 1 on both sides of the series / continued-fraction switch', () => {
    for (const a of [0.5, 1, 2.5, 9.5, 24.5]) {
      for (const x of [0.1, a, a + 0.999, a + 1, a + 1.001, 3 * a + 5]) {
        assert.ok(Math.abs(regularizedGammaP(a, x) + regularizedGammaQ(a, x) - 1) < 1e-14, `a ${a}, x ${x}`);
      }
    }
  });

  it('edge values', () => {
    assert.equal(chiSquareUpperTail(0, 3), 1);
    assert.equal(chiSquareUpperTail(-1, 3), 1);
    assert.equal(chiSquareUpperTail(Infinity, 3), 0);
    assert.throws(() => chiSquareUpperTail(1, 0), /degree of freedom/);
  });

  it('logGamma matches factorials and Γ(1/2) = √π', () => {
    assert.ok(Math.abs(logGamma(0.5) - 0.5 * Math.log(Math.PI)) < 1e-14);
    let f = 1;
    for (let k = 1; k <= 30; k++) {
      f *= k;
      assert.ok(Math.abs(logGamma(k + 1) - Math.log(f)) <= 1e-13 * Math.max(1, Math.log(f)), `Γ(${k + 1})`);
    }
  });
});
