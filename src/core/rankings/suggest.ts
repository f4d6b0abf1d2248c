/** "Did you mean …?" for option ids a designer mistyped. */

/** The edit distance from a to b, or `limit + 1` as soon as it is sure to be more than `limit`. */
function editDistance(a: string, b: string, limit = Infinity): number {
  // One row of the table at a time: prev[j] is the distance from a's first i characters to b's first j (j ≤ b.length).
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  const cell = (j: number): number => prev[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    let diagonal = cell(0);
    prev[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const above = cell(j);
      prev[j] = Math.min(above + 1, cell(j - 1) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
      rowMin = Math.min(rowMin, cell(j));
    }
    // A row's least value never goes down in the rows below it.
    if (rowMin > limit) return limit + 1;
  }
  return cell(b.length);
}

/** The option id a written value most likely meant, or undefined when nothing is close. */
export function closestId(written: string, ids: readonly string[]): string | undefined {
  const trimmed = written.trim();
  // Path-like values ("options/4.png", "../4", "4.png"): the id is the bare file name without extension.
  const base = trimmed.split(/[\\/]/).pop() ?? trimmed;
  const bare = base.replace(/\.(png|jpe?g|webp)$/i, '');
  const lowered = ids.map((id) => id.toLowerCase());
  for (const candidate of [trimmed, bare]) {
    const lowerCandidate = candidate.toLowerCase();
    const exact = ids.find((id) => id === candidate) ?? ids.find((_, k) => lowered[k] === lowerCandidate);
    if (exact !== undefined && exact !== written) return exact;
  }
  // Only a distance within `allowed` is ever suggested, so an id whose length alone puts it further away is skipped
  // unmeasured, and a measure stops once it is past `allowed`: the answer is the same, and tens of thousands of unknown
  // names cost a length check or a few rows each, not a full table.
  const allowed = Math.max(1, Math.floor(Math.max(bare.length, 1) / 3));
  const lower = bare.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const [k, id] of ids.entries()) {
    const other = lowered[k]!;
    if (Math.abs(other.length - lower.length) > allowed) continue;
    const d = editDistance(lower, other, allowed);
    if (d < bestDistance) {
      bestDistance = d;
      best = id;
    }
  }
  // Never "correct" a value by replacing all of it ("7" is not a typo of "1").
  return best !== undefined && bestDistance <= allowed && bestDistance < bare.length ? best : undefined;
}

export function didYouMean(written: string, ids: readonly string[]): string {
  const guess = closestId(written, ids);
  return guess === undefined ? '' : ` Did you mean "${guess}"?`;
}
