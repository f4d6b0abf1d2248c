/**
 * Blind sets that are blind (issue 38, item 4): a brief run's A.md and B.md carry no heading or line naming the method,
 * a round or a model (taken out, recorded in key.json); byte-identical images of a design set are one letter (said, kept
 * in the key as `same`, and the final pick still found under that letter).
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { makeRerankSet, rerankDir } from '../../../src/core/evaluation';
import { readKey } from '../../../src/core/rerank/key';
import { blindText } from '../../../src/core/rerank/blindText';
import { finalPickRank } from '../../../src/core/evaluation/compare/finalPick';
import { makeReviewWithRun, RUN_ID } from './fixtures';
import { useCliAgainstMock } from '../cli/buildCli';
import { makeBriefRunReview } from '../run/fixtures';
import { runFallback } from '../../support/openaiMock/runAnswers';

/** Words that would tell a reader which revision is which. */
const METHOD = /round \d|iteration \d|\(direct\)|directly|baseline|team ?fusion|scripted|gpt-|llama/i;

describe('blind sets that are blind', function () {
  this.timeout(120_000);

  it('blindText: headings and short lines naming the method, a round or a model go; the revision itself stays', () => {
    const text = [
      'Scripted reply:',
      '',
      '# Revised brief (direct)',
      '',
      '## Goal (round 2 of 3)',
      '',
      'Awareness first. Direct mail stays out of scope.',
      '',
      '## Direct mail',
      '',
      '_Written directly by gpt-4o-mini_',
      '',
      '# Brief [round 2]',
      'A calm, premium tone; ' + 'the long paragraph keeps its words, round 2 included, because it is the brief itself. '.repeat(3),
    ].join('\n');
    const { text: blind, removed } = blindText(text, ['my-local-model']);
    assert.equal(
      blind,
      [
        '# Revised brief',
        '',
        '## Goal',
        '',
        'Awareness first. Direct mail stays out of scope.',
        '',
        '## Direct mail',
        '',
        '',
        '# Brief',
        text.split('\n').at(-1),
      ].join('\n'),
    );
    assert.deepEqual(
      removed.map((r) => [r.line, r.now ?? null]),
      [
        [1, null],
        [3, '# Revised brief'],
        [5, '## Goal'],
        [11, null],
        [13, '# Brief'],
      ],
    );
    assert.deepEqual(blindText('Made with my-local-model.', ['my-local-model']).removed, [{ line: 1, was: 'Made with my-local-model.' }]);
    assert.deepEqual(blindText('# Plain\n\nNothing to take out.').removed, []);
  });

  it('byte-identical images in a design set are one letter, said; the final pick is found under it', async () => {
    const root = await makeReviewWithRun();
    const it = (k: number): string => path.join(root, 'runs', RUN_ID, `iteration-${k}`, 'remix.png');
    await fs.copyFile(it(1), it(2)); // r2 is r1, byte for byte
    const { key, notes } = await makeRerankSet(root, RUN_ID);
    assert.equal(Object.keys(key).length, 4, 'the Borda top 3 and one letter for r1 and r2');
    const shared = Object.entries(key).find(([, e]) => e.id === 'r1')!;
    assert.deepEqual(shared[1].same, [{ kind: 'remix', id: 'r2', file: `runs/${RUN_ID}/iteration-2/remix.png` }]);
    assert.deepEqual(notes, [
      'remix r1 and remix r2 are the same image byte for byte, so they are one candidate of the set (key.json says which).',
    ]);
    const files = await fs.readdir(path.join(rerankDir(root, RUN_ID), 'options'));
    assert.equal(files.length, 4);
    const read = await readKey(root, RUN_ID);
    assert.deepEqual(read, key);
    const letters = Object.keys(key).sort();
    const pick = finalPickRank('r2', [letters.map((_, i) => i + 1)], letters, key);
    assert.equal(pick?.letter, shared[0], 'the final pick r2 is the letter r1 stands under');
    await fs.rm(root, { recursive: true, force: true });
  });

  describe('a brief run against the scripted answers', () => {
    const rig = useCliAgainstMock();
    it('A.md and B.md carry no method, round or model; key.json records what was taken out; rerank says so', async () => {
      const root = await makeBriefRunReview(3);
      rig.mock.setFallback(runFallback('Scripted reply:'));
      const r = await rig.run(['run', root, '--task', 'brief', '--iterations', '2', '--turns', '1', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const id = (await fs.readdir(path.join(root, 'runs')))[0]!;
      const made = await rig.run(['rerank', root, id, '--no-forecast']);
      assert.equal(made.code, 0, made.stderr);
      assert.match(
        made.stderr,
        /\d+ lines? naming how, in which round or by which model a revision was written (was|were) taken out of A\.md and B\.md or shortened \(key\.json records which\)\./,
      );
      const dir = path.join(root, 'runs', id, 'rerank');
      for (const f of ['A.md', 'B.md']) assert.doesNotMatch(await fs.readFile(path.join(dir, f), 'utf8'), METHOD, f);
      const key = await readKey(root, id);
      const removed = Object.values(key).flatMap((e) => e.removed ?? []);
      // The scripted revisions both open with the server's label (their headings name no method or round since the demo's
      // blind pair starts alike); round lines are pinned by the blindText case above.
      assert.ok(removed.length > 0 && removed.every((x) => METHOD.test(x.was)), JSON.stringify(removed));
      assert.doesNotMatch(made.stderr, /\bA\.md:|\bB\.md:/, 'which letter lost a line is not said');
    });
  });
});
