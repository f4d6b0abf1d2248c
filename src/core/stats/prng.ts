/**
 * A small seeded pseudo-random generator (the mulberry32 construction: a Weyl sequence pushed through two
 * multiply–xorshift rounds). 32 bits of state, period 2^32, fast and good enough for Monte Carlo
 * permutation tests; NOT for anything secret. The same seed always gives the same stream.
 *
 * The permutation test inlines the same steps in its hot loop; `nextUint32` is the reference version.
 */
export const WEYL_INCREMENT = 0x6d2b79f5;

export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed | 0;
  }

  /** The next 32-bit unsigned integer. */
  nextUint32(): number {
    this.state = (this.state + WEYL_INCREMENT) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** An integer in [0, bound) for 1 ≤ bound ≤ 2^21 (multiply-shift; bias below bound / 2^32). */
  nextBelow(bound: number): number {
    return Math.floor(this.nextUint32() * bound * 2.3283064365386963e-10);
  }

  /** Current state, to continue the same stream later. */
  get seedState(): number {
    return this.state;
  }
}

/** A 32-bit seed from a text (FNV-1a over its UTF-16 code units): the same text always gives the same seed. */
export function seedFromText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
