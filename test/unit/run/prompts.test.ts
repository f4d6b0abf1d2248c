import { strict as assert } from 'node:assert';
import { personaMessage, taskText, promptLabel } from '../../../src/core/discussion/prompts';
import { mapLabelsForEdit } from '../../../src/core/discussion/remixPrompts';
import { answerSchema, narrowTo, parseAnswer, remixJsonSchema } from '../../../src/core/remix/remixAgent';
import { planNextIteration } from '../../../src/core/run/runner';
import { createRunId, RUN_ID_PATTERN } from '../../../src/core/record/paths';
import type { PreparedImage } from '../../../src/core/llm/images';
import type { RunRecord } from '../../../src/core/record/record';

const img: PreparedImage = { dataUrl: 'data:image/png;base64,', sha256: 'x', mime: 'image/png', bytes: 0, width: 1, height: 1 };

describe('prompts and narrowing', () => {
  it('renumbers discussion labels into the edit order', () => {
    const inputs = [{ label: 'Image 4' }, { label: 'Image 7' }, { label: 'Image 1' }];
    const m = mapLabelsForEdit(
      'Take the bottle from Image 4, the light of Image 7 (remix r1), the type of image 1; not the blue of Image 2.',
      inputs,
    );
    // An image the edit does not carry is never a number ("Image 2" would name its second input).
    assert.equal(
      m.text,
      'Take the bottle from Image 1, the light of Image 2, the type of Image 3; not the blue of another candidate (not given here).',
    );
    assert.deepEqual(m.unmapped, ['Image 2']);
    // no chained replacement: "Image 2" → "Image 1" while "Image 1" → "Image 2"
    assert.equal(mapLabelsForEdit('Image 1 and Image 2', [{ label: 'Image 2' }, { label: 'Image 1' }]).text, 'Image 2 and Image 1');
  });

  it('narrows 3 after round 1, then 2, never below 2', () => {
    assert.deepEqual(
      [1, 2, 3, 4].map((i) => narrowTo(i, 6)),
      [3, 2, 2, 2],
    );
    assert.equal(narrowTo(1, 2), 2);
  });

  it('plans 6 → top 3 + r1 → top 2 + r2 (final)', () => {
    const rec = {
      settings: { iterations: 3 },
      options: ['1', '2', '3', '4', '5', '6'].map((id) => ({ id, label: `Image ${id}`, file: `options/${id}.png` })),
      iterations: [],
    } as unknown as RunRecord;
    const i1 = planNextIteration(rec);
    assert.deepEqual(i1.candidates, ['1', '2', '3', '4', '5', '6']);
    assert.equal(i1.final, undefined);
    rec.iterations.push({ ...i1, ranking: ['4', '1', '6'], remix: { id: 'r1', file: 'iteration-1/remix.png' } });
    const i2 = planNextIteration(rec);
    assert.deepEqual(i2.candidates, ['4', '1', '6', 'r1']);
    rec.iterations.push({ ...i2, ranking: ['r1', '4'], remix: { id: 'r2', file: 'iteration-2/remix.png' } });
    const i3 = planNextIteration(rec, 'Warmer.');
    assert.deepEqual(i3.candidates, ['r1', '4', 'r2']);
    assert.equal(i3.final, true);
    assert.equal(i3.feedback, 'Warmer.');
  });

  it('persona: role-play line, ranks by label, the task of the round', () => {
    const designer = {
      id: 'ana',
      name: 'Ana',
      role: 'Art Director',
      weight: 1,
      file: 'rankings/ana.yaml',
      entries: [
        { option: '2', rank: 1, justification: 'Calm.' },
        { option: '1', rank: 2, justification: 'Loud.' },
      ],
    };
    const candidates = [
      { id: '2', label: 'Image 2', file: 'options/2.png', image: img },
      { id: 'r1', label: 'Image 3', file: 'runs/x/iteration-1/remix.png', remixId: 'r1', image: img },
    ];
    const it = { index: 2, candidates: ['2', 'r1'], messages: [] };
    const labelOf = (id: string) => (id === 'r1' ? 'Image 3 (remix r1)' : `Image ${id}`);
    const m = personaMessage({
      designer,
      iteration: it,
      totalIterations: 3,
      candidates,
      labelOf,
      turn: 1,
      turnsPerAgent: 2,
      hasFeedback: false,
    });
    const text = String(m.content);
    assert.match(text, /You are role-playing "Ana" \(role "Art Director"\)/);
    assert.match(text, /- Image 2: rank 1 — "Calm\."/);
    assert.match(text, /- Image 1: rank 2 \(no longer in the running\) — "Loud\."/);
    assert.match(text, /Image 3 \(remix r1\) is new/);
    assert.equal(promptLabel(candidates[1]!), 'Image 3 (remix r1)');
    assert.match(taskText({ ...it, final: true }, 3, candidates, true), /ONE design.*lead's feedback/s);
  });

  it('remix schema follows strict-mode rules and the answer is validated', () => {
    const s = remixJsonSchema(['1', '2', '3'], ['ana', 'ben'], false, 2) as { required: string[]; properties: Record<string, unknown> };
    assert.deepEqual(s.required, ['ranking', 'reasons', 'editingDirections', 'agreements', 'disagreements', 'decisionPoints', 'backed']);
    // Stance: per designer, the candidate their proxy backed last — an enum of this round's candidates, or null.
    assert.deepEqual(s.properties.backed, {
      type: 'object',
      description: "For each designer id, the candidate id that designer's proxy backed last in this round, or null for none.",
      additionalProperties: false,
      required: ['ana', 'ben'],
      properties: {
        ana: { type: ['string', 'null'], enum: ['1', '2', '3', null] },
        ben: { type: ['string', 'null'], enum: ['1', '2', '3', null] },
      },
    });
    const backed = parseAnswer(
      JSON.stringify({
        ranking: ['1', '2'],
        editingDirections: 'Do it.',
        agreements: [],
        disagreements: [],
        decisionPoints: [],
        backed: { ana: '2', ben: null },
      }),
      answerSchema(['1', '2', '3'], ['ana', 'ben'], false),
      ['1', '2', '3'],
      2,
    );
    assert.deepEqual('answer' in backed && backed.answer.backed, { ana: '2', ben: null });
    const stranger = parseAnswer(
      JSON.stringify({ ranking: ['1', '2'], editingDirections: 'Do it.', backed: { zoe: '2' } }),
      answerSchema(['1', '2', '3'], ['ana', 'ben'], false),
      ['1', '2', '3'],
      2,
    );
    assert.ok('error' in stranger);
    const inventedBacking = parseAnswer(
      JSON.stringify({ ranking: ['1', '2'], editingDirections: 'Do it.', backed: { ana: '9' } }),
      answerSchema(['1', '2', '3'], ['ana', 'ben'], false),
      ['1', '2', '3'],
      2,
    );
    assert.ok('error' in inventedBacking);
    const fin = remixJsonSchema(['1', '2'], ['ana'], true, 2) as { required: string[] };
    assert.ok(!fin.required.includes('editingDirections'));
    const validator = answerSchema(['1', '2', '3'], ['ana'], false);
    const ok = parseAnswer(
      JSON.stringify({ ranking: ['3', '3'], editingDirections: 'Do it.', agreements: [' a '], disagreements: [], decisionPoints: [] }),
      validator,
      ['1', '2', '3'],
      2,
    );
    assert.ok('answer' in ok);
    assert.deepEqual(ok.answer.ranking, ['3', '1']);
    assert.deepEqual(ok.filled, ['1']);
    const bad = parseAnswer(
      JSON.stringify({ ranking: ['9'], agreements: [], disagreements: [], decisionPoints: [] }),
      validator,
      ['1', '2', '3'],
      2,
    );
    assert.ok('error' in bad && /ranking/.test(bad.error));
    // A server that leaves out the lists still gives a usable answer; a designer id it invents does not.
    const partial = parseAnswer(
      JSON.stringify({ ranking: ['2', '1'], editingDirections: 'Use the layout of Image 2.' }),
      validator,
      ['1', '2', '3'],
      2,
    );
    assert.ok('answer' in partial);
    assert.deepEqual(partial.answer.agreements, []);
    assert.deepEqual(partial.answer.decisionPoints, []);
    const invented = parseAnswer(
      JSON.stringify({
        ranking: ['2', '1'],
        editingDirections: 'x',
        agreements: [],
        disagreements: [],
        decisionPoints: [{ question: 'q', positions: [{ position: 'p', heldBy: ['zoe'] }] }],
      }),
      validator,
      ['1', '2', '3'],
      2,
    );
    assert.ok('error' in invented);
  });

  it('run ids sort by start time', () => {
    const a = createRunId(new Date('2026-11-21T22:40:05.123Z'), '3f9c');
    assert.equal(a, '2026-11-21T22-40-05Z-3f9c');
    assert.match(a, RUN_ID_PATTERN);
    assert.ok(createRunId(new Date('2026-11-21T22:40:06Z'), '0000') > a);
  });
});
