/** "Did you mean …?" for option ids a designer mistyped. */

function editDistance(a: string, b: string): number {
  // One row of the table at a time: prev[j] is the distance from a's first i characters to b's first j (j ≤ b.length).
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  const cell = (j: number): number => prev[j] ?? 0;
  for (let i = 1; i <= a.length; i++) {
    let diagonal = cell(0);
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = cell(j);
      prev[j] = Math.min(above + 1, cell(j - 1) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return cell(b.length);
}

/** The option id a written value most likely meant, or undefined when nothing is close. */
export function closestId(written: string, ids: readonly string[]): string | undefined {
  const trimmed = written.trim();
  // Path-like values ("options/4.png", "../4", "4.png"): the id is the bare file name without extension.
  const base = trimmed.split(/[\\/]/).pop() ?? trimmed;
  const bare = base.replace(/\.(png|jpe?g|webp)$/i, '');
  for (const candidate of [trimmed, bare]) {
    const exact = ids.find((id) => id === candidate) ?? ids.find((id) => id.toLowerCase() === candidate.toLowerCase());
    if (exact !== undefined && exact !== written) return exact;
  }
  // Only a distance within `allowed` is ever suggested, so an id whose length alone puts it further away is skipped
  // unmeasured: the answer is the same, and tens of thousands of unknown names cost a length check each, not a table.
  const allowed = Math.max(1, Math.floor(Math.max(bare.length, 1) / 3));
  const lower = bare.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const id of ids) {
    const other = id.toLowerCase();
    if (Math.abs(other.length - lower.length) > allowed) continue;
    const d = editDistance(lower, other);
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
