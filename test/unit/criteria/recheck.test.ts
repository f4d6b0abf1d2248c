/**
 * Seals that prove something (issue 39, item 3): a criteria.json re-hashed by hand agrees with itself, so at every read its
 * quotes are found again in the files they name and its controversy recomputed from the stances. A stance resting on a quote
 * that is not in that member's own file, or held by someone not on the team, does not count; a criterion nobody holds is
 * neither printed as controversial nor offered to a run; a contested option keeps only criteria its team still splits on.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  contentHash,
  criteriaState,
  criteriaSummary,
  criteriaToSettle,
  loadForCriteria,
  readCriteriaSources,
  type CriteriaFile,
} from '../../../src/core/criteria';
import { makeReview } from '../run/fixtures';
import { criteriaAnswer } from '../../../src/core/questions/criteria';
import { validateFolder } from '../../../src/core/questions/validate';

describe('criteria: a re-sealed criteria.json is checked again at every read', function () {
  this.timeout(60_000);
  let root = '';
  after(async () => {
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  it("a quote not in the member's file, a non-member and a made-up controversy are recomputed away, each said", async () => {
    root = await makeReview({ options: 3, designers: 3 });
    const review = await loadForCriteria(root);
    const sources = await readCriteriaSources(review);
    const body: Omit<CriteriaFile, 'sha256'> = {
      at: '2026-12-06T18:00:00.000Z',
      model: 'gpt-4o',
      task: 'design',
      sources: sources.hashes,
      criteria: [
        {
          name: 'Forged',
          description: 'Nobody holds this one.',
          controversy: 1,
          stances: {
            d1: { stance: 'no-position' },
            outsider: { stance: 'values', quote: 'Option 1 fits the calm, premium tone', file: 'rankings/d1.yaml', verified: true },
          },
        },
        {
          name: 'Calm',
          description: 'A calm, premium tone.',
          controversy: 2 / 3,
          stances: {
            d1: { stance: 'values', quote: 'Option 1 fits the calm, premium tone', file: 'rankings/d1.yaml', verified: true },
            d2: { stance: 'against', quote: 'the budget is far too small for this', file: 'rankings/d2.yaml', verified: true },
            d3: { stance: 'no-position' },
          },
          options: {
            '1': { standing: 'strong', quote: 'Option 1 fits the calm, premium tone', file: 'rankings/d1.yaml', verified: true },
            '9': { standing: 'weak', quote: 'x', file: 'brief.md', verified: true },
          },
        },
      ],
      contested: { '1': ['Calm', 'Forged'] },
      requests: 1,
    };
    await fs.writeFile(path.join(root, 'criteria.json'), `${JSON.stringify({ ...body, sha256: contentHash(body) }, null, 2)}\n`);

    const st = await criteriaState(root, sources);
    assert.equal(st.state, 'current', 'the hash agrees and the sources are unchanged');
    if (st.state !== 'current') return;
    assert.deepEqual(
      st.file.criteria.map((c) => [c.name, c.controversy]),
      [
        ['Calm', 0],
        ['Forged', 0],
      ],
    );
    const calm = st.file.criteria.find((c) => c.name === 'Calm')!;
    assert.deepEqual([calm.stances.d1?.stance, calm.stances.d2?.stance, calm.stances.d2?.claimed], ['values', 'no-position', 'against']);
    assert.equal(st.file.criteria.find((c) => c.name === 'Forged')!.stances.outsider, undefined);
    assert.deepEqual(Object.keys(calm.options ?? {}), ['1'], 'an option the review does not have is dropped');
    assert.deepEqual(st.file.contested, {}, 'nobody still splits on either criterion');
    const said = st.notes.join('\n');
    assert.match(said, /d2 on "Calm": the stance "against" is not counted \(the quote is not in rankings\/d2\.yaml\)/);
    assert.match(said, /outsider on "Forged": not on the team/);
    assert.match(said, /"Forged": controversy 0\.00 from the stances, not the 1\.00 the file says/);
    assert.match(said, /Option 9 on "Calm": not an option of this review/);

    assert.equal(await criteriaToSettle(review), undefined, 'no criterion splits the team, so none is offered to a run');
    const summary = await criteriaSummary(review);
    assert.deepEqual(summary?.top, [], 'a criterion nobody splits on is not shown as controversial');
    assert.match(summary!.lines[0]!, /splits on most \(criteria\.json, controversy 0–1\): none; no criterion splits the team\.$/);
    assert.ok(
      summary!.lines.some((l) => /Checked again: d2 on "Calm"/.test(l)),
      summary!.lines.join('\n'),
    );
    // The agents' criteria question answers from the same recomputation, and says it.
    const asked = await criteriaAnswer(root);
    assert.deepEqual(
      asked.criteria.map((c) => c.controversy),
      [0, 0],
    );
    assert.equal(asked.criteria.find((c) => c.name.quoted === 'Calm')?.stances.d2?.counted, false);
    assert.equal(
      asked.note,
      `Checked again at this read: ${st.notes.length} things criteria.json says are not borne out by the files named, so not counted (stances, standings or scores; teamfusion criteria lists them).`,
    );
  });

  it('validate says on criteria.json what it ignores: a stance of a non-member, a contested option that is no option (issue 39, item 7)', async () => {
    root = await makeReview({ options: 3, designers: 3 });
    const review = await loadForCriteria(root);
    const sources = await readCriteriaSources(review);
    const held = { stance: 'values' as const, quote: 'Option 1 fits the calm, premium tone', file: 'rankings/d1.yaml', verified: true };
    const body: Omit<CriteriaFile, 'sha256'> = {
      at: '2026-12-06T18:00:00.000Z',
      model: 'gpt-4o',
      task: 'design',
      sources: sources.hashes,
      criteria: [
        {
          name: 'Calm',
          description: 'A calm tone.',
          controversy: 0,
          stances: { d1: held, d2: { stance: 'no-position' }, d3: { stance: 'no-position' }, mallory: held },
        },
      ],
      contested: { '9': ['Calm'] },
      requests: 1,
    };
    await fs.writeFile(path.join(root, 'criteria.json'), `${JSON.stringify({ ...body, sha256: contentHash(body) }, null, 2)}\n`);
    const v = await validateFolder(root);
    const onFile = v.diagnostics.filter((d) => d.file === 'criteria.json').map((d) => `${d.severity}: ${d.message}`);
    assert.deepEqual(onFile, [
      'warning: Ignored on checking criteria.json again: mallory on "Calm": not on the team, so the stance is not counted.',
      'warning: Ignored on checking criteria.json again: Option 9 is contested in criteria.json, but it is not an option of this review, so it is not shown as contested.',
    ]);
    const st = await criteriaState(root, sources);
    assert.ok(
      st.state === 'current' && st.file.contested && Object.keys(st.file.contested).length === 0,
      'option 9 is not shown as contested',
    );
  });
});
