/**
 * How `npm test` splits the e2e files (out/test/e2e/*.e2e.js) over mocha processes that run at once (scripts/test.mjs):
 * into groups of about equal time, on the seconds each file took when measured.
 */

/**
 * Seconds each e2e file took in `npm test` on a fresh clone (`.ci/run`, 2 cores), its two processes beside integration,
 * package and vsix: the suites' own `[timing …] in all` with TEAMFUSION_E2E_TIMING=1 (1,386 s summed). Only their ratios
 * matter here. A file missing here counts as the median of the others.
 */
export const E2E_SECONDS = {
  briefReview: 160,
  discussionAnalysis: 117,
  evaluation: 97,
  forks: 171,
  gallery: 66,
  panel: 215,
  people: 59,
  pools: 50,
  severalRemixes: 65,
  ship: 142,
  teamSync: 157,
  trust: 49,
  vscodeModel: 37,
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
 * `files` in at most `n` groups of about equal time: the longest file first, each onto the group with the least time so
 * far; then, while moving one file from the longest group to another, or swapping it for one of the other's, makes the
 * longest group shorter, that is done. Each group keeps the files' own order and says its measured seconds.
 */
export function e2eShards(files, n, seconds = e2eSeconds) {
  const shards = Array.from({ length: Math.max(1, Math.min(n, files.length)) }, () => ({ files: [], seconds: 0 }));
  for (const f of [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b))) {
    const lightest = shards.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    lightest.files.push(f);
    lightest.seconds += seconds(f);
  }
  while (improveLongest(shards, seconds));
  for (const s of shards) s.files.sort((a, b) => files.indexOf(a) - files.indexOf(b));
  return shards;
}

/**
 * One step that shortens the longest group: the move or swap between it and another group that leaves the longer of the
 * two shortest, if any does. Returns whether a step was taken.
 */
function improveLongest(shards, seconds) {
  const longest = shards.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  let best;
  for (const other of shards) {
    if (other === longest) continue;
    for (const [i, f] of longest.files.entries()) {
      // A move (g undefined) or a swap with each file g of the other group.
      for (const [j, g] of [[-1, undefined], ...other.files.entries()]) {
        const delta = seconds(f) - (g === undefined ? 0 : seconds(g));
        const after = Math.max(longest.seconds - delta, other.seconds + delta);
        if (after < (best?.after ?? longest.seconds)) best = { other, i, j, delta, after };
      }
    }
  }
  if (!best) return false;
  const f = longest.files[best.i];
  if (best.j < 0) longest.files.splice(best.i, 1);
  else [longest.files[best.i]] = best.other.files.splice(best.j, 1, f);
  if (best.j < 0) best.other.files.push(f);
  longest.seconds -= best.delta;
  best.other.seconds += best.delta;
  return true;
}
