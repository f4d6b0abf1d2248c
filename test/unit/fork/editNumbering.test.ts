/**
 * One renumbering for every edit prompt (issue 38, item 2): whatever kind of edit — a round's one remix, each proposal of
 * several, each side of a fork with its side line, the sides people decided earlier, the references' line — every "Image k" of
 * the prompt names the k-th image that edit carries (its inputs, then the references sent with it), and an image it does not
 * carry is never a number. A side that is a candidate leads its edit: that candidate is the first input.
 */
import { strict as assert } from 'node:assert';
import { editText, renumberEdits } from '../../../src/core/remix/editText';
import { forkProposals, sideCandidate } from '../../../src/core/fork/designFork';
import { carryDecidedSides } from '../../../src/core/discussion/decisionWords';
import { NOT_GIVEN } from '../../../src/core/discussion/remixPrompts';
import type { Iteration, RunRecord } from '../../../src/core/record/record';

/** Six options "1".."6" labelled "Image 1".."Image 6", a remix r1d "Image 10", and two references. */
const RECORD: Pick<RunRecord, 'options' | 'references'> = {
  options: [
    ...['1', '2', '3', '4', '5', '6'].map((id) => ({ id, label: `Image ${id}`, file: `options/${id}.png` })),
    { id: 'r1d', label: 'Image 10', file: 'runs/x/iteration-1/remix-d.png' },
  ],
  references: [
    { id: 'gold', label: 'Reference 1', file: 'references/gold.png', note: 'the foil' },
    { id: 'type', label: 'Reference 2', file: 'references/type.png' },
  ],
};
const MODEL = 'gpt-image-1';
const QUESTION = 'Which candidate should lead: Image 6, Image 5, Image 3 or Image 1?';
const SIDES = ['Image 6 leads', 'Image 5 leads', 'Image 3 leads', 'Image 1 leads'];

/**
 * The images an edit carries, in order, by their discussion labels: its inputs, then the cited references that go with it.
 * Every "Image k" of its prompt must be one of them, and mean the label `meant` says it does.
 */
function checkNumbers(prompt: string, carried: readonly string[]): void {
  for (const m of prompt.matchAll(/\bImage (\d+)/g)) {
    const k = Number(m[1]);
    assert.ok(k >= 1 && k <= carried.length, `"Image ${k}" names no image of this edit (it carries ${carried.length}): ${prompt}`);
  }
}

function round(o: Partial<Iteration>): Iteration {
  return { index: 2, candidates: ['1', '3', '5', '6', 'r1d'], messages: [], ranking: ['1', '5', '6'], ...o };
}

describe('edit prompts: one renumbering for every kind', () => {
  it('the one remix: labels become input positions, an image not carried is said as such, the references follow', () => {
    const it = round({
      editingDirectionsDiscussed:
        'Keep the bottle of Image 6, the cap of Image 10 (remix r1d), the foil of Reference 1; not the blue of Image 3.',
      references: ['gold'],
    });
    assert.equal(renumberEdits(RECORD, it, MODEL), true);
    assert.equal(
      it.editingDirections,
      `Keep the bottle of Image 3, the cap of ${NOT_GIVEN}, the foil of Image 4; not the blue of ${NOT_GIVEN}.\nReference images, for style only (not designs to combine or copy): Image 4 (the foil).`,
    );
    checkNumbers(it.editingDirections!, ['Image 1', 'Image 5', 'Image 6', 'Reference 1']);
    assert.equal(renumberEdits(RECORD, it, MODEL), false, 'the same again: nothing changes');
  });

  it('several proposals: each renumbered for its own inputs; one already made is left as it was sent', () => {
    const it = round({
      proposals: [
        { letter: 'a', from: ['6', '1'], editingDirections: 'old', editingDirectionsDiscussed: 'Image 6 as it is, the light of Image 1.' },
        {
          letter: 'b',
          from: ['r1d', '3'],
          editingDirections: 'old',
          editingDirectionsDiscussed: 'Image 10 (remix r1d) with the type of Image 3 and Image 6.',
        },
        { letter: 'c', from: ['5'], editingDirections: 'sent', editingDirectionsDiscussed: 'Image 5.' },
      ],
      remixes: [{ id: 'r2c', letter: 'c', file: 'iteration-2/remix-c.png', from: ['5'] }],
    });
    renumberEdits(RECORD, it, MODEL);
    const [a, b, c] = it.proposals!;
    assert.equal(a!.editingDirections, 'Image 1 as it is, the light of Image 2.');
    assert.equal(b!.editingDirections, `Image 1 with the type of Image 2 and ${NOT_GIVEN}.`);
    assert.equal(c!.editingDirections, 'sent', 'a remix made is never changed');
  });

  it("a fork whose sides are candidates: each side leads with its own candidate, and its side line's numbers are that edit's", () => {
    const it = round({
      editingDirections: 'x',
      editingDirectionsDiscussed: 'Keep the calm light of Image 5.',
      decisionPoints: [{ question: QUESTION, positions: SIDES.map((position, i) => ({ position, heldBy: [`d${i + 1}`] })) }],
    });
    const candidates = it.candidates.map((id) => ({ id, label: RECORD.options.find((o) => o.id === id)!.label }));
    it.proposals = forkProposals(it, 1, { candidates, maxInputs: 16 });
    renumberEdits(RECORD, it, MODEL);
    const byLetter = Object.fromEntries(it.proposals.map((p) => [p.letter, p]));
    // The sides' candidates lead: option 6, 5, 3 (not among the ranking's inputs: added first), 1.
    assert.deepEqual(
      it.proposals.map((p) => p.from),
      [
        ['6', '1', '5'],
        ['5', '1', '6'],
        ['3', '1', '5', '6'],
        ['1', '5', '6'],
      ],
    );
    assert.equal(
      byLetter.a!.editingDirections,
      'Keep the calm light of Image 3.\nDecision: Which candidate should lead: Image 1, Image 3, another candidate (not given here) or Image 2? This remix takes one side only: Image 1 leads. Do not blend in "Image 3 leads" or "another candidate (not given here) leads" or "Image 2 leads".',
    );
    assert.match(
      byLetter.c!.editingDirections,
      /This remix takes one side only: Image 1 leads\. Do not blend in "Image 4 leads" or "Image 3 leads" or "Image 2 leads"\.$/,
    );
    for (const p of it.proposals) {
      checkNumbers(
        p.editingDirections,
        p.from.map((id) => RECORD.options.find((o) => o.id === id)!.label),
      );
      assert.ok(
        p.editingDirections.includes('This remix takes one side only: Image 1 leads.'),
        `side ${p.letter} leads with its first input`,
      );
    }
    // A side naming no candidate, or two, keeps the round's inputs.
    assert.equal(sideCandidate('warm palette', candidates), undefined);
    assert.equal(sideCandidate('Image 5 over Image 6', candidates), undefined);
    assert.equal(sideCandidate('Image 10 (remix r1d) leads', candidates), 'r1d');
  });

  it('a side decided earlier: its sentence is renumbered for each edit of the round that carries it', () => {
    const decided: Iteration = {
      index: 1,
      candidates: ['1', '3', '5', '6'],
      messages: [],
      decisions: [
        { question: QUESTION, decision: 'Image 5 leads', by: 'team', via: 'human', counts: { 'Image 5 leads': 3, 'Image 6 leads': 1 } },
      ],
    };
    const it = round({ index: 3, ranking: ['6', '5'], editingDirections: 'x', editingDirectionsDiscussed: 'Warmer.' });
    carryDecidedSides([decided], it);
    renumberEdits(RECORD, it, MODEL);
    assert.equal(
      it.editingDirections,
      `Warmer.\nDecided by the team: Which candidate should lead: Image 1, Image 2, ${NOT_GIVEN} or ${NOT_GIVEN}? → Image 2 leads, 3 to 1.`,
    );
    assert.equal(
      it.editingDirectionsDiscussed,
      'Warmer.\nDecided by the team: Which candidate should lead: Image 6, Image 5, Image 3 or Image 1? → Image 5 leads, 3 to 1.',
      "the discussed text keeps the discussion's labels",
    );
  });

  it('references: numbered after the inputs; a reference not sent is never called an Image', () => {
    const r = editText(
      'The foil of Reference 1 on Image 5; the type of Reference 2.',
      [{ label: 'Image 5' }, { label: 'Image 2' }],
      [{ label: 'Reference 1', note: 'the foil' }],
    );
    assert.equal(
      r.text,
      'The foil of Image 3 on Image 1; the type of Reference 2.\nReference images, for style only (not designs to combine or copy): Image 3 (the foil).',
    );
    assert.deepEqual(r.unmapped, ['Reference 2']);
  });
});
