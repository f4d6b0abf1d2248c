import * as assert from 'node:assert/strict';
import type { Review } from '../../../src/core/review/model';
import { analysisSchema, analyzeReview, formatAnalysisTable } from '../../../src/core/stats';
import { agreementSentence } from '../../../src/core/stats/summary/sentence';

/** A review in memory: option ids in the given order, one designer per ranks row (ranks as written). */
function makeReview(optionIds: string[], designers: { id: string; ranks: number[]; weight?: number; role?: string }[]): Review {
  return {
    root: '/review',
    title: 'Test',
    brief: '',
    comments: [],
    options: optionIds.map((id, i) => ({
      id,
      label: `Image ${i + 1}`,
      file: `options/${id}.png`,
      absPath: `/review/options/${id}.png`,
      mime: 'image/png',
      width: 10,
      height: 10,
    })),
    designers: designers.map((d) => ({
      id: d.id,
      name: d.id.toUpperCase(),
      weight: d.weight ?? 1,
      ...(d.role ? { role: d.role } : {}),
      file: `rankings/${d.id}.yaml`,
      // file order deliberately differs from option order
      entries: optionIds.map((option, i) => ({ option, rank: d.ranks[i]!, justification: 'because' })).reverse(),
    })),
    config: {},
  };
}

const OPTIONS = ['1', '2', '3', '4', '5', '6'];
const TEAM = [
  { id: 'alice', ranks: [1, 2, 3, 4, 5, 6], weight: 2, role: 'Art Director' },
  { id: 'bob', ranks: [2, 1, 3, 4, 6, 5] },
  { id: 'carol', ranks: [1, 3, 2, 3, 5, 6] }, // a tie, written 3, 3
  { id: 'dan', ranks: [6, 5, 4, 1, 2, 3] },
];

describe('stats: analyzeReview', () => {
  it('produces the contract object with everything in review order', () => {
    const a = analyzeReview(makeReview(OPTIONS, TEAM), { permutations: 2000 });
    assert.deepEqual(a.options, OPTIONS);
    assert.deepEqual(
      a.designers.map((d) => d.id),
      ['alice', 'bob', 'carol', 'dan'],
    );
    assert.deepEqual(a.designers[0], { id: 'alice', name: 'ALICE', weight: 2, role: 'Art Director' });
    assert.equal('role' in a.designers[1]!, false);
    assert.equal(a.kendall.df, 5);
    assert.equal(a.kendall.permutations, 2000);
    assert.equal(a.kendall.seed, 20261121);
    assert.ok(a.kendall.w > a.kendall.wUncorrected, 'carol has a tie');
    assert.ok(Math.abs(a.kendall.chiSquare - 4 * 5 * a.kendall.w) < 1e-12);
    assert.equal(a.borda.length, 6);
    assert.equal(a.weightedBorda.length, 6);
    assert.deepEqual(a.pairwise.designers, ['alice', 'bob', 'carol', 'dan']);
    assert.equal(a.pairwise.tau.length, 4);
    assert.equal(a.outlier?.designer, 'dan');
    assert.equal(a.perOption[0]!.option, '1');
    assert.equal(a.perOption[0]!.max, 6);
    assert.equal(a.perOption[0]!.contested, true);
    // carol's "3, 3" for options 3 and 4 → 3.5 each
    assert.equal(a.perOption[3]!.min, 1);
    assert.doesNotThrow(() => analysisSchema.parse(a));
    assert.deepEqual(analysisSchema.parse(JSON.parse(JSON.stringify(a))), a, 'JSON round trip keeps everything');
  });

  it('is reproducible and matches the parts computed on their own', () => {
    const review = makeReview(OPTIONS, TEAM);
    const a = analyzeReview(review, { permutations: 1000, seed: 9 });
    const b = analyzeReview(review, { permutations: 1000, seed: 9 });
    assert.deepEqual(a, b);
  });

  it('weights change only the weighted orders (weighted Borda and Schulze)', () => {
    const heavy = TEAM.map((d) => ({ ...d, weight: d.id === 'dan' ? 10 : 1 }));
    const a = analyzeReview(makeReview(OPTIONS, heavy), { permutations: 200 });
    const b = analyzeReview(makeReview(OPTIONS, TEAM), { permutations: 200 });
    assert.equal(a.kendall.w, b.kendall.w);
    assert.deepEqual(a.borda, b.borda);
    assert.equal(a.weightedBorda[0]!.option, '4', "dan's favourite wins when dan weighs 10");
    assert.deepEqual(a.schulze.winners, ['4'], 'and a weighted majority prefers it too');
    assert.notDeepEqual(b.schulze.winners, ['4']);
  });

  it('a missing rank is reported in words', () => {
    const review = makeReview(['a', 'b'], [{ id: 'x', ranks: [1, 2] }]);
    review.designers[0]!.entries = review.designers[0]!.entries.filter((e) => e.option !== 'b');
    assert.throws(() => analyzeReview(review), /X has not ranked option "b" \(rankings\/x\.yaml\)/);
  });

  it('no designers or a single option are refused in words', () => {
    assert.throws(() => analyzeReview(makeReview(OPTIONS, [])), /no rankings/);
    assert.throws(() => analyzeReview(makeReview(['a'], [{ id: 'x', ranks: [1] }])), /at least two options/);
  });

  it('a single designer: numbers stay defined and the sentence says agreement cannot be measured', () => {
    const a = analyzeReview(makeReview(['a', 'b', 'c'], [{ id: 'x', ranks: [1, 2, 3] }]), { permutations: 100 });
    assert.match(a.kendall.sentence, /Only one designer/);
    assert.equal(a.outlier, null);
    assert.deepEqual(a.pairwise.tau, [[1]]);
    const text = formatAnalysisTable(a);
    assert.match(text, /Agreement of 1 designer on 3 options/);
    assert.match(text, /Outlier: not determined/);
    assert.match(text, /contested = ranked 1st by someone and ranked 3rd by someone else/);
  });

  it('two options, two designers who disagree: everything still defined', () => {
    const a = analyzeReview(
      makeReview(
        ['a', 'b'],
        [
          { id: 'x', ranks: [1, 2] },
          { id: 'y', ranks: [2, 1] },
        ],
      ),
      { permutations: 100 },
    );
    assert.equal(a.kendall.w, 0);
    assert.equal(a.kendall.pPermutation, 1);
    assert.equal(a.kendall.band, 'slight');
    assert.deepEqual(
      a.borda.map((e) => e.position),
      [1, 1],
    );
    assert.deepEqual(a.pairwise.tau, [
      [1, -1],
      [-1, 1],
    ]);
    assert.ok(a.perOption.every((o) => o.contested));
    assert.doesNotThrow(() => analysisSchema.parse(a));
  });
});

describe('stats: sentence and report', () => {
  it('sentence wording and significance at 0.05', () => {
    assert.equal(
      agreementSentence({ w: 0.31, band: 'fair', p: 0.21, raters: 3 }),
      'Agreement is fair and not significant (W = 0.31, p = 0.21).',
    );
    assert.equal(
      agreementSentence({ w: 0.8123, band: 'almost-perfect', p: 0.0001, raters: 5 }),
      'Agreement is almost perfect and significant (W = 0.81, p < 0.001).',
    );
    assert.equal(
      agreementSentence({ w: 0.5, band: 'moderate', p: 0.0412, raters: 4 }),
      'Agreement is moderate and significant (W = 0.50, p = 0.041).',
    );
    assert.match(agreementSentence({ w: 0.5, band: 'moderate', p: 0.05, raters: 4 }), /not significant/);
  });

  it('formatAnalysisTable escapes each cell before the layout: a line break in a name is \\n in its cell, never a forged line', () => {
    const review = makeReview(OPTIONS, TEAM);
    review.designers[1]!.name = 'Bob\n  dan      FORGED   Lead  9\u001b[2J';
    review.designers[2]!.role = 'x\ry';
    const text = formatAnalysisTable(analyzeReview(review, { permutations: 100 }));
    const lines = text.split('\n');
    assert.ok(!lines.some((l) => /^\s+dan\s+FORGED/.test(l)), 'no line starts with the forged row');
    const bob = lines.find((l) => /^  bob\s/.test(l) && l.includes('FORGED'))!;
    assert.ok(bob.includes('Bob\\n  dan      FORGED   Lead  9\\x1b[2J'), bob);
    assert.ok(!/[\u0000-\u0009\u000b-\u001f]/.test(text));
    // The column after the name starts at the same place on every row of the Designers table.
    const header = lines.findIndex((l) => /^  Id\s+Name\s+Role/.test(l));
    const rows = lines.slice(header, header + 2 + TEAM.length);
    const roleAt = rows[0]!.indexOf('Role');
    for (const r of rows.slice(2)) assert.equal(r[roleAt - 1], ' ', r);
    assert.ok(rows.some((r) => r.slice(roleAt).startsWith('x\\ry')));
  });

  it('formatAnalysisTable shows every section', () => {
    const a = analyzeReview(makeReview(OPTIONS, TEAM), { permutations: 500 });
    const text = formatAnalysisTable(a);
    assert.ok(text.includes(a.kendall.sentence));
    assert.match(text, /Kendall's W \(tie-corrected\)\s+\d\.\d{4}/);
    assert.match(text, /Chi-square \(df 5\)/);
    assert.match(text, /p \(permutation, N = 500, seed 20261121\)/);
    assert.match(text, /Consensus ranking \(Borda/);
    assert.match(text, /Consensus ranking \(Schulze: pairwise majorities, strongest paths; designers count with their weight\)/);
    assert.ok(text.includes(a.schulze.sentence ?? 'Schulze agrees with the weighted Borda.'));
    assert.match(text, /Contested/);
    assert.match(text, /Pairwise agreement/);
    assert.match(text, /alice\s+ALICE\s+Art Director\s+2/);
    assert.match(text, /Outlier: dan agrees least/);
    for (const id of OPTIONS) assert.match(text, new RegExp(`^  ${id}\\s`, 'm'));
    assert.ok(!text.includes('NaN') && !text.includes('undefined'));
  });
});
