/**
 * How far apart a pool's texts are (issue 41): the mean over every pair of the Jaccard distance of their lower-cased word
 * sets, 1 − |A∩B| / |A∪B|. 0: the same words throughout; 1: no word shared. A pool below DIVERSITY_FLOOR is one idea.
 */

/** Below this mean distance a pool counts as one idea said several ways. */
export const DIVERSITY_FLOOR = 0.2;

/** The lower-cased words of a text (letters and digits, any script). */
export function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** 1 − |A∩B| / |A∪B|; two empty sets are the same (0). */
export function jaccardDistance(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : 1 - shared / union;
}

/** The mean pairwise distance of the texts' word sets (0 with fewer than two texts). */
export function poolDiversity(texts: readonly string[]): number {
  const sets = texts.map(wordSet);
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < sets.length; i++) {
    for (let j = i + 1; j < sets.length; j++) {
      sum += jaccardDistance(sets[i]!, sets[j]!);
      pairs++;
    }
  }
  return pairs === 0 ? 0 : sum / pairs;
}
