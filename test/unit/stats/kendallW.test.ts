import * as assert from 'node:assert/strict';
import { agreementBand, kendallW } from '../../../src/core/stats';
import { ANXIETY, JASP_ORDERED, JASP_RATERS_IN_ROWS, SCIPY_FRIEDMAN, SIEGEL_CASTELLAN, blocksAsRaters } from './referenceData';

function near(actual: number, expected: number, tol: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} is not within ${tol} of ${expected}`);
}

describe("stats: Kendall's W against published values", () => {
  it('anxiety data (irr / DescTools, ties): corrected and uncorrected W, chi-square, p', () => {
    const r = kendallW(ANXIETY.ratings);
    assert.equal(r.m, 3);
    assert.equal(r.n, 20);
    near(r.w, ANXIETY.w, 5e-8, 'W (DescTools, 7 digits)');
    near(r.w, ANXIETY.wJasp, 1e-6, 'W (JASP)');
    near(r.w, 18024 / 33399, 1e-15, 'W (exact fraction of the formula)');
    near(r.wUncorrected, ANXIETY.wUncorrected, 1e-12, 'uncorrected W (JASP)');
    assert.equal(r.df, ANXIETY.df);
    near(r.chiSquare, ANXIETY.chiSquare, 0.005, 'chi-square (DescTools, 2 decimals)');
    near(r.chiSquare, 57 * r.w, 1e-12, 'chi-square = m(n-1)W');
    near(r.pValue, ANXIETY.pValue, 5e-6, 'p (DescTools)');
    near(r.pValue, ANXIETY.pValueJasp, 1e-6, 'p (JASP)');
    assert.equal(agreementBand(r.w), 'moderate');
  });

  it('Siegel & Castellan (1988) example via DescTools (no ties)', () => {
    const r = kendallW(SIEGEL_CASTELLAN.ranks);
    near(r.w, SIEGEL_CASTELLAN.w, 5e-8, 'W');
    near(r.w, 124 / 189, 1e-15, 'W exact');
    assert.equal(r.wUncorrected, r.w, 'no ties: both variants agree');
    near(r.chiSquare, SIEGEL_CASTELLAN.chiSquare, 5e-4, 'chi-square');
    assert.equal(r.df, SIEGEL_CASTELLAN.df);
    near(r.pValue, SIEGEL_CASTELLAN.pValue, 5e-6, 'p');
  });

  for (const [name, ref] of Object.entries(SCIPY_FRIEDMAN)) {
    it(`scipy test_friedmanchisquare ${name}: m(n-1)W equals Friedman's tie-corrected statistic`, () => {
      const r = kendallW(blocksAsRaters(ref.samples));
      assert.equal(r.df, 3);
      near(r.chiSquare, ref.chiSquare, 1e-6, 'chi-square');
      near(r.w, ref.chiSquare / (r.m * 3), 1e-6, 'W');
      near(r.pValue, ref.pValue, 1e-9, 'p');
    });
  }

  it('ties reduce the denominator: scipy x2 has ties, so corrected W > uncorrected W', () => {
    const r = kendallW(blocksAsRaters(SCIPY_FRIEDMAN.x2.samples));
    assert.ok(r.tieTotal > 0);
    assert.ok(r.w > r.wUncorrected);
    const noTies = kendallW(blocksAsRaters(SCIPY_FRIEDMAN.x3.samples));
    assert.equal(noTies.tieTotal, 0);
    assert.equal(noTies.w, noTies.wUncorrected);
  });

  it('JASP / irr ordered-factor example (ties in every rater)', () => {
    const r = kendallW(JASP_ORDERED.ratings);
    near(r.w, JASP_ORDERED.w, 1e-12, 'W');
    near(r.chiSquare, JASP_ORDERED.chiSquare, 1e-10, 'chi-square');
    assert.equal(r.df, JASP_ORDERED.df);
    near(r.pValue, JASP_ORDERED.pValue, 1e-12, 'p');
  });

  it('JASP / irr raters-in-rows example (average ranks as input)', () => {
    const r = kendallW(JASP_RATERS_IN_ROWS.ratings);
    near(r.w, JASP_RATERS_IN_ROWS.w, 1e-12, 'W');
    near(r.chiSquare, JASP_RATERS_IN_ROWS.chiSquare, 1e-12, 'chi-square');
    assert.equal(r.df, JASP_RATERS_IN_ROWS.df);
    near(r.pValue, JASP_RATERS_IN_ROWS.pValue, 1e-12, 'p');
  });
});

describe("stats: Kendall's W properties", () => {
  it('ranks as written and average ranks give the same result (1,2,2,4 vs 1,2,2,3 vs 1,2.5,2.5,4)', () => {
    const a = kendallW([
      [1, 2, 2, 4],
      [2, 1, 3, 4],
    ]);
    const b = kendallW([
      [1, 2, 2, 3],
      [2, 1, 3, 4],
    ]);
    const c = kendallW([
      [1, 2.5, 2.5, 4],
      [2, 1, 3, 4],
    ]);
    assert.deepEqual(a, b);
    assert.deepEqual(a, c);
    // hand computation: rank sums 3, 3.5, 5.5, 8 → S = 15.5; T = 6; W = 12·15.5 / (4·60 − 2·6) = 186/228
    near(a.w, 186 / 228, 1e-15, 'W by hand');
    near(a.wUncorrected, 186 / 240, 1e-15, 'uncorrected W by hand');
  });

  it('perfect agreement gives exactly 1; perfectly opposed pair gives 0', () => {
    const same = kendallW([
      [1, 2, 3, 4, 5, 6],
      [1, 2, 3, 4, 5, 6],
      [1, 2, 3, 4, 5, 6],
      [1, 2, 3, 4, 5, 6],
    ]);
    assert.equal(same.w, 1);
    assert.equal(same.wUncorrected, 1);
    const opposed = kendallW([
      [1, 2, 3, 4],
      [4, 3, 2, 1],
    ]);
    assert.equal(opposed.w, 0);
    assert.equal(opposed.pValue, 1);
  });

  it('everything tied by everyone: W is reported as 0 with p = 1 (0/0 is undefined)', () => {
    const r = kendallW([
      [1, 1, 1],
      [2, 2, 2],
    ]);
    assert.equal(r.w, 0);
    assert.equal(r.wUncorrected, 0);
    assert.equal(r.pValue, 1);
  });

  it('rejects ragged or too small matrices with a plain sentence', () => {
    assert.throws(() => kendallW([]), /At least one rater/);
    assert.throws(() => kendallW([[1]]), /At least two items/);
    assert.throws(
      () =>
        kendallW([
          [1, 2],
          [1, 2, 3],
        ]),
      /same number of items/,
    );
    assert.throws(() => kendallW([[1, Number.NaN]]), /finite/);
  });
});

describe('stats: agreement bands at their boundaries', () => {
  const cases: [number, string][] = [
    [0, 'slight'],
    [0.19999999, 'slight'],
    [0.2, 'fair'],
    [0.39999999, 'fair'],
    [0.4, 'moderate'],
    [0.59999999, 'moderate'],
    [0.6, 'substantial'],
    [0.79999999, 'substantial'],
    [0.8, 'almost-perfect'],
    [1, 'almost-perfect'],
  ];
  for (const [w, band] of cases) {
    it(`W = ${w} → ${band}`, () => assert.equal(agreementBand(w), band));
  }
});
