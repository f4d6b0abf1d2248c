import * as assert from 'node:assert/strict';
import { closestId, didYouMean } from '../../../src/core/rankings/suggest';
import { parseReviewConfig } from '../../../src/core/review/reviewConfig';

/** Plain Levenshtein distance over UTF-16 units, the full table (the reference closestId is checked against). */
function fullDistance(a: string, b: string): number {
  const t = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      t[i]![j] = Math.min(t[i - 1]![j]! + 1, t[i]![j - 1]! + 1, t[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return t[a.length]![b.length]!;
}

/** The suggestion by measuring every id (what closestId answered before it skipped ids too long or short to be near). */
function referenceClosest(written: string, ids: readonly string[]): string | undefined {
  const trimmed = written.trim();
  const bare = (trimmed.split(/[\\/]/).pop() ?? trimmed).replace(/\.(png|jpe?g|webp)$/i, '');
  for (const candidate of [trimmed, bare]) {
    const exact = ids.find((id) => id === candidate) ?? ids.find((id) => id.toLowerCase() === candidate.toLowerCase());
    if (exact !== undefined && exact !== written) return exact;
  }
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const id of ids) {
    const d = fullDistance(bare.toLowerCase(), id.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = id;
    }
  }
  const allowed = Math.max(1, Math.floor(Math.max(bare.length, 1) / 3));
  return best !== undefined && bestDistance <= allowed && bestDistance < bare.length ? best : undefined;
}

describe('closestId (did you mean)', () => {
  it('suggests the near id, and nothing for a value nothing is near', () => {
    assert.equal(closestId('iteratons', ['title', 'iterations', 'turns']), 'iterations');
    assert.equal(closestId('options/hero-blu.png', ['hero-blue', 'hero-red']), 'hero-blue');
    assert.equal(closestId('7', ['1', '2']), undefined);
    assert.equal(closestId('q12345', ['title', 'iterations', 'turns']), undefined);
    assert.equal(didYouMean('Hero-Blue', ['hero-blue']), ' Did you mean "hero-blue"?');
  });

  it('answers as measuring every id would, for 20 000 generated values (lengths far apart, near, equal; case; İ)', () => {
    // A small deterministic generator: the same values on every run.
    let seed = 12345;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const letters = 'abcdeABİı-._/1';
    const word = (): string => Array.from({ length: next(12) }, () => letters[next(letters.length)]).join('');
    let suggested = 0;
    for (let k = 0; k < 20_000; k++) {
      const ids = Array.from({ length: 1 + next(8) }, word);
      // Half the values are an id with a few edits, so that suggestions are often made.
      let written = word();
      if (k % 2 === 0) {
        const id = ids[next(ids.length)]!;
        const at = next(id.length + 1);
        written = next(2) ? id.slice(0, at) + letters[next(letters.length)] + id.slice(at) : id.slice(0, at) + id.slice(at + 1);
      }
      const want = referenceClosest(written, ids);
      assert.equal(closestId(written, ids), want, `${JSON.stringify(written)} among ${JSON.stringify(ids)}`);
      if (want !== undefined) suggested++;
    }
    assert.ok(suggested > 2000, `only ${suggested} suggestions: the values do not exercise it`);
  });

  it('review.yaml with 6000 unknown settings: one warning each, the near one still suggested', () => {
    const keys = Array.from({ length: 6000 }, (_, i) => `q${i}: 9\n`).join('');
    const { diagnostics } = parseReviewConfig(`title: Many\niteratons: 2\n${keys}`);
    assert.equal(diagnostics.length, 6001);
    assert.match(diagnostics[0]!.message, /^Unknown setting "iteratons" is ignored\. Did you mean "iterations"\? Known: title, /);
    assert.match(diagnostics[6000]!.message, /^Unknown setting "q5999" is ignored\. Known: title, /);
  });
});
