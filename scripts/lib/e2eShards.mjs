/**
 * How `npm test` splits the e2e files (out/test/e2e/*.e2e.js) over mocha processes that run at once (scripts/test.mjs):
 * into groups of about equal time, on the seconds each file took when measured.
 */

/**
 * Seconds each e2e file took in one mocha process with nothing else of `npm test` beside it, on 2 cores that other work
 * loaded as well: the mean of two runs (the suites' own `[timing …] in all` with TEAMFUSION_E2E_TIMING=1; 671 s and 597 s
 * summed). Only their ratios matter here. A file missing here counts as the median of the others.
 */
export const E2E_SECONDS = {
  briefReview: 54,
  discussionAnalysis: 50,
  evaluation: 36,
  forks: 75,
  gallery: 23,
  panel: 114,
  people: 32,
  pools: 19,
  severalRemixes: 26,
  ship: 69,
  teamSync: 51,
  trust: 42,
  vscodeModel: 44,
};

/** The measured seconds of an e2e file (its path or name, `.e2e.js` or `.e2e.ts`), else the median of the table. */
export function e2eSeconds(file) {
  const name = file
    .split(/[\\/]/)
    .pop()
    .replace(/\.e2e\.[jt]s$/, '');
  if (name in E2E_SECONDS) return E2E_SECONDS[name];
  const known = Object.values(E2E_SECONDS).sort((a, b) => a - b);
  return known[Math.floor(known.length / 2)] ?? 60;
}

/**
 * `files` in at most `n` groups of about equal time (the longest file first, each onto the group with the least time so
 * far); each group keeps the files' own order and says its measured seconds.
 */
export function e2eShards(files, n, seconds = e2eSeconds) {
  const shards = Array.from({ length: Math.max(1, Math.min(n, files.length)) }, () => ({ files: [], seconds: 0 }));
  for (const f of [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b))) {
    const lightest = shards.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    lightest.files.push(f);
    lightest.seconds += seconds(f);
  }
  for (const s of shards) s.files.sort((a, b) => files.indexOf(a) - files.indexOf(b));
  return shards;
}
