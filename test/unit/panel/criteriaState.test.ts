/**
 * The criteria section of the review panel (issue 34): the state builder carries the matrices of a current criteria.json
 * (found for real, by the CLI against the scripted server), most controversial first with each cell's quote; an edited
 * ranking turns it into one sentence; the webview's words for a cell carry the stance without colour.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { loadReview } from '../../../src/core/review';
import { PanelStateSchema } from '../../../src/protocol/panel';
import { buildPanelState } from '../../../src/extension/panel/panelState';
import { panelCriteria } from '../../../src/extension/panel/state/criteriaState';
import { cellQuote, cellWord } from '../../../webview/panel/views/review/criteria';
import { useCliAgainstMock } from '../cli/buildCli';
import { makeReview } from '../run/fixtures';

const TONE = 'fits the calm, premium tone';

function answer(): unknown {
  return {
    criteria: [
      {
        name: 'Colour',
        description: 'Whether the palette suits the brand.',
        stances: [
          { member: 'd1', stance: 'values', quote: TONE, file: 'rankings/d1.yaml' },
          { member: 'd2', stance: 'values', quote: TONE, file: 'rankings/d2.yaml' },
        ],
        options: [{ option: '1', standing: 'strong', quote: TONE, file: 'rankings/d1.yaml' }],
      },
      {
        name: 'Tone',
        description: 'How calm and premium it feels.',
        stances: [
          { member: 'd1', stance: 'values', quote: TONE, file: 'rankings/d1.yaml' },
          { member: 'd2', stance: 'against', quote: 'a quote nobody wrote', file: 'rankings/d2.yaml' },
        ],
        options: [
          { option: '1', standing: 'strong', quote: TONE, file: 'rankings/d1.yaml' },
          { option: '2', standing: 'weak', quote: TONE, file: 'rankings/d2.yaml' },
        ],
      },
      {
        name: 'Legibility',
        description: 'Readable at thumbnail size.',
        stances: [
          { member: 'd1', stance: 'values', quote: TONE, file: 'rankings/d1.yaml' },
          { member: 'd2', stance: 'against', quote: TONE, file: 'rankings/d2.yaml' },
        ],
      },
    ],
  };
}

describe("panel: the team's criteria", function () {
  this.timeout(120_000);
  const rig = useCliAgainstMock({ checkSpec: true });

  it('a review without criteria.json has no criteria section', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const load = await loadReview(root, { decodeImages: false });
    assert.ok(load.review);
    assert.equal(await panelCriteria(root, load.review), undefined);
  });

  it('carries the matrices of a current criteria.json, most controversial first, each cell with its quote; an edited ranking is one sentence instead', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    rig.mock.enqueue('chat', { kind: 'json', value: answer() });
    const run = await rig.run(['criteria', root]);
    assert.equal(run.code, 0, run.stderr);

    const load = await loadReview(root, { decodeImages: false });
    assert.ok(load.review);
    const criteria = await panelCriteria(root, load.review);
    assert.ok(criteria && criteria.state === 'current', JSON.stringify(criteria));
    assert.deepEqual(
      criteria.members.map((m) => m.id),
      ['d1', 'd2'],
    );
    assert.deepEqual(criteria.options, ['1', '2', '3']);
    // Legibility splits the team evenly (1.00); Tone's "against" has no quote in d2's file, so it is not counted (0); Colour: 0.
    assert.equal(criteria.criteria[0]!.name, 'Legibility');
    assert.equal(criteria.criteria[0]!.controversy, 1);
    const tone = criteria.criteria.find((c) => c.name === 'Tone')!;
    assert.equal(tone.stances.d2!.value, 'no-position');
    assert.equal(tone.stances.d2!.claimed, 'against');
    assert.equal(tone.stances.d2!.verified, false);
    assert.equal(tone.stances.d1!.quote, TONE);
    assert.equal(tone.stances.d1!.file, 'rankings/d1.yaml');
    assert.equal(tone.options['1']!.value, 'strong');

    const state = buildPanelState({
      root,
      load,
      analysis: { error: 'none' },
      runs: [],
      trusted: true,
      running: false,
      toWebviewUri: (p) => p,
      criteria,
    });
    const parsed = PanelStateSchema.parse(JSON.parse(JSON.stringify(state)));
    assert.equal(parsed.criteria?.state, 'current');

    const d2 = path.join(root, 'rankings', 'd2.yaml');
    await fs.writeFile(d2, (await fs.readFile(d2, 'utf8')).replace(TONE, 'feels calm and premium'));
    const reloaded = await loadReview(root, { decodeImages: false });
    assert.ok(reloaded.review);
    const stale = await panelCriteria(root, reloaded.review);
    assert.ok(stale && stale.state === 'stale', JSON.stringify(stale));
    assert.match(stale.why, /^Rankings changed since the criteria were found \(rankings\/d2\.yaml\); run Find the Team's Criteria/);
    assert.equal(rig.mock.requests.length, 1, 'the panel never asks a model');
  });

  it('a hand-edited criteria.json is said in one sentence, not shown', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    rig.mock.enqueue('chat', { kind: 'json', value: answer() });
    assert.equal((await rig.run(['criteria', root])).code, 0);
    const file = path.join(root, 'criteria.json');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('"against"', '"values"'));
    const load = await loadReview(root, { decodeImages: false });
    assert.ok(load.review);
    const edited = await panelCriteria(root, load.review);
    assert.ok(edited && edited.state === 'edited', JSON.stringify(edited));
    assert.match(edited.why, /criteria\.json was changed by hand/);
  });

  it('a cell says its stance in words (an uncounted one says why) and its quote with the file', () => {
    assert.equal(cellWord({ value: 'against' }), 'against');
    assert.equal(cellWord(undefined), 'no position');
    assert.equal(cellWord({ value: 'no-position', claimed: 'values', verified: false }), 'no position (said values, quote not found)');
    assert.equal(
      cellQuote('Ana', 'Tone', { value: 'values', quote: TONE, file: 'rankings/d1.yaml', verified: true }),
      `Ana on "Tone": values — "${TONE}" (rankings/d1.yaml)`,
    );
    assert.equal(cellQuote('Option 3', 'Tone', { value: 'not-mentioned' }), 'Option 3 on "Tone": not mentioned.');
  });
});
