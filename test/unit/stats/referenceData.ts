/**
 * Published reference vectors for the agreement statistics, with where each one is printed.
 * Matrices here are raters × items (one row per rater), the orientation `kendallW` takes.
 */

/** Turns "arrays of samples" (Friedman: one array per treatment, one entry per block) into raters × items. */
export function blocksAsRaters(samples: number[][]): number[][] {
  return samples[0]!.map((_, b) => samples.map((s) => s[b]!));
}

/**
 * irr / DescTools "anxiety" data: 20 subjects rated 1–6 by 3 raters (heavy ties within raters).
 * Data and tie-corrected results: DescTools::KendallW examples,
 *   https://andrisignorell.github.io/DescTools/reference/KendallW.html
 *   (man/KendallW.Rd in github.com/AndriSignorell/DescTools):
 *   KendallW(anxiety, TRUE) → 0.5396569; with test: Kendall chi-squared = 30.76, df = 19, p-value = 0.04288.
 * Uncorrected W at full precision: jasp-stats/jaspReliability tests/testthat/test-raterAgreement.R,
 *   "Uncorrected Kendall's W on tied data matches irr": 0.501921470342523 (chi-squared 28.6095238095238 = 57 × W).
 * (The same JASP file's tie-corrected row prints 0.539656900212835 / 30.7604444444444 / 0.0428834698290932,
 *  2e-8 / 3e-6 / 3e-9 away from the exact formula value 18024/33399 = 0.5396568759…; DescTools' printed
 *  digits agree with the exact value, so chi-squared is checked to DescTools' printed precision.)
 */
export const ANXIETY = {
  ratings: [
    [3, 3, 3, 4, 5, 5, 2, 3, 5, 2, 2, 6, 1, 5, 2, 2, 1, 2, 4, 3],
    [3, 6, 4, 6, 2, 4, 2, 4, 3, 3, 2, 3, 3, 3, 2, 2, 1, 3, 3, 4],
    [2, 1, 4, 4, 3, 2, 1, 6, 1, 1, 1, 2, 3, 3, 1, 1, 3, 3, 2, 2],
  ],
  w: 0.5396569, // DescTools, 7 digits
  wJasp: 0.539656900212835,
  wUncorrected: 0.501921470342523, // JASP
  chiSquare: 30.76, // DescTools, 4 significant digits
  df: 19,
  pValue: 0.04288, // DescTools
  pValueJasp: 0.0428834698290932,
};

/**
 * Siegel & Castellan (1988), Nonparametric Statistics for the Behavioral Sciences, 2nd ed., Kendall's W example
 * (3 raters, 8 job-attribute items, no ties), as reproduced in the DescTools::KendallW examples (URL above):
 *   Kendall chi-squared = 13.778, df = 7, p-value = 0.05528, W = 0.6560847 (and friedman.test gives the same).
 */
export const SIEGEL_CASTELLAN = {
  ranks: [
    // airfare, climate, season, people, program, publicity, present, interest
    [5, 6, 7, 1, 2, 4, 3, 8],
    [1, 7, 6, 2, 3, 5, 4, 8],
    [4, 5, 1, 3, 2, 7, 6, 8],
  ],
  w: 0.6560847,
  chiSquare: 13.778,
  df: 7,
  pValue: 0.05528,
};

/**
 * SciPy's own test of scipy.stats.friedmanchisquare (github.com/scipy/scipy, scipy/stats/tests/test_stats.py,
 * test_friedmanchisquare). Friedman's tie-corrected statistic equals m (n − 1) W with the blocks as raters
 * (m) and the samples as items (n). x1 and x2 have ties within blocks, x3 has none.
 */
export const SCIPY_FRIEDMAN = {
  x1: {
    samples: [
      [0.763, 0.599, 0.954, 0.628, 0.882, 0.936, 0.661, 0.583, 0.775, 1.0, 0.94, 0.619, 0.972, 0.957],
      [0.768, 0.591, 0.971, 0.661, 0.888, 0.931, 0.668, 0.583, 0.838, 1.0, 0.962, 0.666, 0.981, 0.978],
      [0.771, 0.59, 0.968, 0.654, 0.886, 0.916, 0.609, 0.563, 0.866, 1.0, 0.965, 0.614, 0.9751, 0.946],
      [0.798, 0.569, 0.967, 0.657, 0.898, 0.931, 0.685, 0.625, 0.875, 1.0, 0.962, 0.669, 0.975, 0.97],
    ],
    chiSquare: 10.2283464566929,
    pValue: 0.0167215803284414,
  },
  x2: {
    samples: [
      [4, 3, 5, 3, 5, 3, 2, 5, 4, 4, 4, 3],
      [2, 2, 1, 2, 3, 1, 2, 3, 2, 1, 1, 3],
      [2, 4, 3, 3, 4, 3, 3, 4, 4, 1, 2, 1],
      [3, 5, 4, 3, 4, 4, 3, 3, 3, 4, 4, 4],
    ],
    chiSquare: 18.9428571428571,
    pValue: 0.000280938375189499,
  },
  x3: {
    samples: [
      [7.0, 9.9, 8.5, 5.1, 10.3],
      [5.3, 5.7, 4.7, 3.5, 7.7],
      [4.9, 7.6, 5.5, 2.8, 8.4],
      [8.8, 8.9, 8.1, 3.3, 9.1],
    ],
    chiSquare: 10.68,
    pValue: 0.0135882729582176,
  },
};

/**
 * jasp-stats/jaspReliability tests/testthat/test-raterAgreement.R, "Kendall's W and Krippendorff's alpha respect
 * ordered factor levels" (reference there: irr::kendall on the level codes low = 1, medium = 2, high = 3):
 * W = 0.777777777777778, chi-squared 11.6666666666667, df 5, p 0.0396519759960316. Ties within every rater.
 */
export const JASP_ORDERED = {
  ratings: [
    [1, 2, 3, 1, 2, 3],
    [1, 3, 2, 1, 2, 3],
    [2, 2, 3, 1, 1, 3],
  ],
  w: 0.777777777777778,
  chiSquare: 11.6666666666667,
  df: 5,
  pValue: 0.0396519759960316,
};

/**
 * Same JASP file, "Kendall's W with raters in rows matches raters-in-columns reference" (irr::kendall(t(df),
 * correct = TRUE)): 3 raters × 4 subjects, W = 0.2, chi-squared 1.8, df 3, p 0.614934935782537.
 */
export const JASP_RATERS_IN_ROWS = {
  ratings: [
    [1, 2, 3, 4],
    [2, 3, 1, 4],
    [1.5, 2.5, 3.5, 1.0],
  ],
  w: 0.2,
  chiSquare: 1.8,
  df: 3,
  pValue: 0.614934935782537,
};

/**
 * scipy.stats.kendalltau documentation example (with ties):
 *   https://docs.scipy.org/doc/scipy/reference/generated/scipy.stats.kendalltau.html
 *   x1 = [12, 2, 1, 12, 2], x2 = [1, 4, 7, 1, 0] → tau = -0.47140452079103173 (tau-b, the default variant).
 */
export const SCIPY_KENDALLTAU = { x: [12, 2, 1, 12, 2], y: [1, 4, 7, 1, 0], tau: -0.47140452079103173 };

/**
 * Chi-square upper-tail quantiles: R's qchisq(p, df, lower.tail = FALSE) printed with sprintf("%.17g")
 * (the same numbers as scipy.stats.chi2.isf; rounded to 3 decimals they are the NIST/SEMATECH e-Handbook
 * table 1.3.6.7.4 of chi-square critical values, e.g. df 5 at 0.05: 11.070). [df, upper tail p, x].
 */
export const CHI_SQUARE_QUANTILES: [number, number, number][] = [
  [5, 0.05, 11.070497693516351],
  [1, 0.05, 3.841458820694124],
  [19, 0.05, 30.14352720564616],
  [1, 0.01, 6.6348966010212127],
  [1, 0.001, 10.827566170662729],
  [1, 1e-6, 23.928126976934827],
  [1, 1e-12, 50.844127911818148],
  [2, 0.01, 9.2103403719761818],
  [2, 1e-12, 55.262042231857095],
  [3.5, 0.01, 12.329572300734482],
  [3.5, 1e-6, 32.051284971150487],
  [10, 0.01, 23.209251158954359],
  [10, 0.001, 29.588298445074418],
  [10, 1e-12, 78.471646562845237],
  [10, 1e-50, 262.99562096122946],
  [79, 0.01, 111.14401942288376],
  [79, 1e-6, 153.70652642291878],
  [79, 1e-100, 702.48904219394194],
];
