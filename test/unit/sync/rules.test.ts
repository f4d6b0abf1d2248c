/** The small rules of a run through git: entries taken in once (takenIn), names that say whose a file is, commit messages. */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { applyEntries } from '../../../src/core/people/apply';
import { postToInbox, readInbox, removeFromInbox } from '../../../src/core/people/inbox';
import type { RunRecord } from '../../../src/core/record/record';
import { commitMessage, shapeOf } from '../../../src/core/sync/runSync';
import { driverOwned } from '../../../src/core/record/paths';
import { makeTempDir } from '../run/fixtures';

function record(): RunRecord {
  return {
    version: 1,
    id: '2026-01-01T00-00-00Z-abcd',
    status: 'running',
    startedAt: 't',
    updatedAt: 't',
    settings: { chatModel: 'm', imageModel: 'i', turnsPerAgent: 1, iterations: 1 },
    options: [],
    iterations: [
      { index: 1, candidates: ['1', '2'], messages: [{ id: 'i1-m1', kind: 'proxy', speaker: 'ana', turn: 1, content: 'hello' }] },
    ],
    usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, images: 0 },
    prompts: [],
  } as unknown as RunRecord;
}

describe('a run through git: small rules', () => {
  it('an entry that comes back after it was taken in and deleted (a merge restoring it, a second pull) is never taken twice', () => {
    const r = record();
    const say = { name: 'ben-0000000000001-000001-aaaaaaaa', entry: { type: 'say' as const, speaker: 'ben', content: 'mine', at: 't' } };
    const pin = { name: 'ana-0000000000002-000001-bbbbbbbb', entry: { type: 'pin' as const, message: 'i1-m1', by: 'ana', at: 't' } };
    const unpin = {
      name: 'ana-0000000000003-000002-cccccccc',
      entry: { type: 'pin' as const, message: 'i1-m1', by: 'ana', remove: true, at: 't' },
    };
    const first = applyEntries(r, [say, pin, unpin]);
    assert.ok(first.changed);
    assert.deepEqual(r.takenIn, [say.name, pin.name, unpin.name]);
    assert.equal(r.pins, undefined, 'pinned, then unpinned');
    // The same three come back (their files restored by a merge): nothing changes, not even the pin the unpin undid.
    const again = applyEntries(r, [pin, say, unpin]);
    assert.equal(again.changed, false);
    assert.deepEqual(again.done.sort(), [say.name, pin.name, unpin.name].sort(), 'deleted again');
    assert.equal(r.iterations[0]!.messages.filter((m) => m.kind === 'human').length, 1);
    assert.equal(r.pins, undefined);
  });

  it('a pin of a message the run does not have is skipped with a reason, once taken in', () => {
    const r = record();
    const a = applyEntries(r, [
      { name: 'ana-0000000000001-000001-aaaaaaaa', entry: { type: 'pin', message: 'i7-m9', by: 'ana', at: 't' } },
    ]);
    assert.deepEqual(
      a.skipped.map((s) => s.why),
      [`it pins i7-m9, which run ${r.id} does not have`],
    );
    assert.equal(r.pins, undefined);
  });

  it("an entry's file name carries its person; a file that speaks for someone else, or for nobody (no prefix), is refused", async () => {
    const root = await makeTempDir('tf-inbox-');
    const id = '2026-01-01T00-00-00Z-abcd';
    const name = await postToInbox(root, id, { type: 'say', speaker: 'ben', content: 'hi', at: 't' }, 2000);
    assert.match(name, /^ben-0000000002000-\d{6}-[0-9a-f]{8}$/);
    const dir = path.join(root, 'runs', id, 'inbox');
    await fs.writeFile(
      path.join(dir, '0000000001000-000001-aaaaaaaa.json'),
      JSON.stringify({ type: 'say', speaker: 'ana', content: 'old', at: 't' }),
    );
    await fs.writeFile(
      path.join(dir, 'ana-0000000003000-000001-bbbbbbbb.json'),
      JSON.stringify({ type: 'say', speaker: 'ben', content: 'forged', at: 't' }),
    );
    const bad: string[] = [];
    const read = await readInbox(root, id, (f, why) => bad.push(`${f}: ${why}`));
    assert.deepEqual(
      read.map((e) => (e.entry.type === 'say' ? e.entry.content : '')),
      ['hi'],
    );
    assert.deepEqual(bad, [
      `runs/${id}/inbox/0000000001000-000001-aaaaaaaa.json: its name has no <designer-id>- prefix, so it speaks for nobody`,
      `runs/${id}/inbox/ana-0000000003000-000001-bbbbbbbb.json: the file is ana's but speaks for ben`,
    ]);
    await removeFromInbox(root, id, [name]);
    assert.deepEqual(await readInbox(root, id), [], 'the refused files are left for people to look at, never taken in');
    assert.ok(await fs.stat(path.join(dir, '0000000001000-000001-aaaaaaaa.json')));
  });

  it('commit messages say the turn or the status; the files only the driver writes', () => {
    const r = record();
    assert.equal(commitMessage(r), `TeamFusion ${r.id}: iteration 1, ana turn 1`);
    r.status = 'waiting';
    r.waitingFor = { speaker: 'ben', iteration: 1, turn: 1 };
    assert.equal(commitMessage(r), `TeamFusion ${r.id}: iteration 1, waiting for ben turn 1`);
    r.status = 'completed';
    assert.equal(commitMessage(r), `TeamFusion ${r.id}: completed`);
    for (const f of ['run.json', 'transcript.md', 'result.md', 'prompts.jsonl', 'journal.jsonl', 'baseline.md', 'iteration-2/remix.png'])
      assert.ok(driverOwned(f), f);
    for (const f of ['inbox/ben-1.json', 'ratings/ben.yaml', 'survey/ben.yaml', 'preference/ben.yaml', 'rerank/key.json'])
      assert.ok(!driverOwned(f), f);
  });

  it('one commit per turn: after what the last commit recorded, a save that adds no turn says what it adds (remix, pins, transcript and result)', () => {
    const r = record();
    r.iterations = [];
    const said: string[] = [];
    let previous: ReturnType<typeof shapeOf> | undefined;
    const save = (): void => {
      said.push(commitMessage(r, previous).replace(`TeamFusion ${r.id}: `, ''));
      previous = shapeOf(r);
    };
    save();
    r.iterations.push({ index: 1, candidates: ['1', '2'], messages: [] } as unknown as RunRecord['iterations'][number]);
    save();
    r.iterations[0]!.messages.push({ id: 'i1-m1', kind: 'proxy', speaker: 'ana', turn: 1, content: 'a' });
    save();
    r.iterations[0]!.messages.push({ id: 'i1-m2', kind: 'proxy', speaker: 'ben', turn: 1, content: 'b' });
    save();
    r.pins = [{ message: 'i1-m1', by: 'chen', at: 't' }] as unknown as RunRecord['pins'];
    save();
    r.iterations[0]!.remix = { id: 'r1', file: 'iteration-1/remix.png' } as unknown as RunRecord['iterations'][number]['remix'];
    save();
    save();
    r.status = 'completed';
    save();
    save();
    assert.deepEqual(said, [
      'started',
      'iteration 1 started',
      'iteration 1, ana turn 1',
      'iteration 1, ben turn 1',
      'iteration 1, pins',
      'iteration 1, remix',
      'iteration 1, record saved',
      'completed',
      'completed, transcript and result',
    ]);
    // A run that starts waiting says so once; a waiting run that takes in a message says the wait again.
    r.status = 'waiting';
    r.waitingFor = { speaker: 'ben', iteration: 1, turn: 2 };
    assert.equal(commitMessage(r, previous), `TeamFusion ${r.id}: iteration 1, waiting for ben turn 2`);
    previous = shapeOf(r);
    assert.equal(commitMessage(r, previous), `TeamFusion ${r.id}: iteration 1, record saved`);
  });
});
