/**
 * "Did it help?" says its verdict in words with its n before any number (issue 40): a W that went up with half the team
 * re-ranked and no paired evidence reads as "no evidence yet", never as a win.
 */
import * as assert from 'node:assert/strict';
import { verdictFirst } from '../../../src/core/evaluation/format';

const side = (designers: string[], w: number) => ({ w, meanSpearman: null, designers, options: 6, pPermutation: 0.5 });
const TEAM = ['ana', 'ben', 'chen', 'dina'];

describe('panel: "Did it help?" in words first', () => {
  it('n of the team re-ranked, then the verdict in words', () => {
    const paired = { designers: ['ana', 'ben'], change: -0.14, interval: [-0.5, 0.2] as [number, number], verdict: 'no evidence' as const };
    assert.equal(
      verdictFirst({ before: side(TEAM, 0.39), after: side(['ana', 'ben'], 0.59), paired }),
      '2 of 4 re-ranked; no evidence yet either way (paired over 2 designers).',
    );
    assert.equal(
      verdictFirst({ before: side(TEAM, 0.39), after: side(TEAM, 0.7), paired: { ...paired, designers: TEAM, verdict: 'converged' } }),
      '4 of 4 re-ranked; the team converged (paired over 4 designers).',
    );
  });

  it('too few re-rankings: says so, with who has re-ranked so far', () => {
    assert.equal(
      verdictFirst({ before: side(TEAM, 0.39), after: null, paired: null, reranked: ['chen'] }),
      '1 of 4 re-ranked; not enough re-rankings yet to say whether it helped.',
    );
    assert.equal(
      verdictFirst({ before: side(TEAM, 0.39), after: side(['ana', 'zed'], 0.5), paired: null }),
      '1 of 4 re-ranked; too few ranked both before and after to say whether it helped.',
    );
  });
});
