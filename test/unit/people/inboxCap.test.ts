/**
 * The inbox cap holds (issue 39): a run's inbox holds at most MAX_INBOX_ENTRIES (1,000) entries. Entries that arrive past
 * it (through git, not through `say`, which refuses at the cap) are heard as over the cap, in order of arrival, never read.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { MAX_INBOX_ENTRIES, readInbox } from '../../../src/core/people/inbox';
import { makeTempDir } from '../run/fixtures';

describe('the inbox cap holds at 1,000 entries', function () {
  this.timeout(60_000);

  it('1,001 entries waiting: the first 1,000 are read, the 1,001st is over the cap and not read', async () => {
    const root = await makeTempDir('tf-inbox-cap-');
    const id = '2026-12-06T17-00-00Z-abcd';
    const inbox = path.join(root, 'runs', id, 'inbox');
    await fs.mkdir(inbox, { recursive: true });
    const names: string[] = [];
    for (let i = 0; i <= MAX_INBOX_ENTRIES; i++) {
      const name = `d1-${String(1700000000000 + i).padStart(13, '0')}-${String(i).padStart(6, '0')}-0badc0de`;
      names.push(name);
      await fs.writeFile(
        path.join(inbox, `${name}.json`),
        JSON.stringify({ type: 'say', speaker: 'd1', content: `message ${i}`, at: '2026-12-06T17:00:00Z' }),
      );
    }
    const over: [string, string][] = [];
    const read = await readInbox(
      root,
      id,
      undefined,
      undefined,
      (who) => who === 'd1',
      (name, why) => over.push([name, why]),
    );
    assert.equal(MAX_INBOX_ENTRIES, 1000);
    assert.equal(read.length, 1000);
    assert.deepEqual(
      read.map((e) => e.name),
      names.slice(0, 1000),
      'the first 1,000 in order of arrival',
    );
    assert.deepEqual(
      over.map(([n]) => n),
      [names[1000]],
    );
    assert.match(
      over[0]![1],
      /^the inbox held 1,001 entries, more than the 1,000 it may \(docs\/security\.md "Limits"\), and this one came after the 1,000th$/,
    );
  });
});
