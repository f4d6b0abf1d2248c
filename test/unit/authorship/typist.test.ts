/**
 * Who types for whom (issue 39, item 2; authorship/typist.ts): one rule for say, pin and vote — a member matched in any
 * case is the typist's own; another member is typed for (the typist's id, or their e-mail when no member's); with
 * signatures required — review.yaml or the member's own setting (ownSettings.ts) — it is refused in one sentence.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { typedWords, typingFor } from '../../../src/core/authorship/typist';
import { openAuthorship } from '../../../src/core/authorship/door';
import { setOwnRequireSignedCommits } from '../../../src/core/authorship/ownSettings';
import { makeTempDir } from '../run/fixtures';

describe('authorship: who types for whom', function () {
  this.timeout(60_000);
  afterEach(() => setOwnRequireSignedCommits(false));
  const names: Record<string, string> = { ana: 'Ana', Ben: 'Ben' };
  const name = (id: string): string => names[id] ?? id;

  it('the same member in any case is their own; another is typed for, spelled as the team spells the typist', () => {
    const typist = { email: 'ana@example.com', member: 'ana', requireSigned: false };
    assert.deepEqual(typingFor(typist, 'ANA', { what: 'a vote' }), { own: true });
    assert.deepEqual(typingFor(typist, 'ben', { what: 'a line', ids: ['Ana', 'Ben'] }), { own: false, typedBy: 'Ana' });
    assert.deepEqual(typingFor({ email: 'room@example.com', requireSigned: false }, 'Ben', { what: 'a line' }), {
      own: false,
      typedBy: 'room@example.com',
    });
    assert.deepEqual(typingFor(undefined, 'Ben', { what: 'a line' }), { own: true }, "nothing checked: today's behaviour");
    assert.equal(typedWords('ana', 'Ben', name), "typed on Ana's machine for Ben");
    assert.equal(typedWords('room@example.com', 'Ben', name), "typed on room@example.com's machine for Ben");
  });

  it('with signatures required, or no git identity here, it is refused in one sentence', () => {
    const signed = typingFor({ email: 'ana@example.com', member: 'ana', requireSigned: true }, 'Ben', {
      what: 'a vote',
      how: 'votes',
      name,
    });
    assert.deepEqual(signed, {
      own: false,
      refused:
        "A vote typed on Ana's machine for Ben is not taken: with signatures required (requireSignedCommits) only Ben's own signed commit speaks for them, so Ben votes on their own machine.",
    });
    assert.deepEqual(
      typingFor({ email: 'ana@example.com', member: 'ana', requireSigned: true }, 'Ana', { what: 'a vote' }),
      { own: true },
      'her own is hers',
    );
    const nobody = typingFor({ requireSigned: false }, 'Ben', { what: 'a line', name });
    assert.ok('refused' in nobody && /no git user\.email/.test(nobody.refused));
  });

  it("the door's typist: this machine's git e-mail as review.yaml names it; the member's own setting asks for signatures", async () => {
    const root = await makeTempDir('tf-typist-');
    execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '--quiet', root]);
    execFileSync('git', ['-C', root, 'config', 'user.email', 'Ana@Example.com']);
    await fs.writeFile(path.join(root, 'review.yaml'), 'lead: Ana\n');
    const settings = { team: { Ana: { git: 'ana@example.com' }, Ben: { git: 'ben@example.com' } } };
    const door = await openAuthorship(root, settings);
    assert.deepEqual(door.typist, { email: 'Ana@Example.com', member: 'ana', requireSigned: false });
    setOwnRequireSignedCommits(true);
    assert.equal((await openAuthorship(root, settings)).typist?.requireSigned, true);
    assert.equal((await openAuthorship(root, {})).typist, undefined, 'no e-mails: nothing checked, nobody told apart');
  });
});
