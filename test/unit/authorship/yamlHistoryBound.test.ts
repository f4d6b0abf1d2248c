/**
 * review.yaml's history is read up to a bound (identityHistory.ts YAML_HISTORY_MAX commits): a longer one is not read past
 * it — the identities stand as those commits left them, and the first commit not read is listed once as not counted, in
 * words. Real git: the commits are made with `git fast-import` (thousands in well under a second).
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../run/fixtures';
import { git } from '../../support/gitTeam';
import { YAML_HISTORY_MAX, standingIdentities } from '../../../src/core/authorship/identityHistory';

const yaml = (ben: string, note: string): string => `lead: d1\nteam:\n  d1: { git: ana@example.com }\n  d2: { git: ${ben} }\n# ${note}\n`;

/** A repository whose review.yaml has `edits` commits by the lead (Ana) that change nothing of the identities, then one by her that changes d2's e-mail. */
async function longHistory(edits: number): Promise<{ top: string; last: string }> {
  const top = await makeTempDir('tf-yaml-history-');
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '--quiet', top]);
  const parts: string[] = [];
  const commit = (i: number, text: string): void => {
    const msg = `review.yaml ${i}`;
    parts.push(
      'commit refs/heads/main',
      `author Ana <ana@example.com> ${1_700_000_000 + i} +0000`,
      `committer Ana <ana@example.com> ${1_700_000_000 + i} +0000`,
      `data ${Buffer.byteLength(msg)}`,
      msg,
      'M 100644 inline review.yaml',
      `data ${Buffer.byteLength(text)}`,
      text,
    );
  };
  for (let i = 1; i <= edits; i++) commit(i, yaml('ben@example.com', `edit ${i}`));
  commit(edits + 1, yaml('ben2@example.com', 'the lead gives Ben his new e-mail'));
  execFileSync('git', ['-C', top, 'fast-import', '--quiet'], { input: `${parts.join('\n')}\n` });
  git(top, 'checkout', '--quiet', '-f', 'main');
  return { top, last: git(top, 'rev-parse', 'HEAD').trim() };
}

describe("authorship: review.yaml's history is read up to a bound (real git)", function () {
  this.timeout(300_000);
  const current = { lead: 'd1', team: { d1: { git: 'ana@example.com' }, d2: { git: 'ben2@example.com' } } };

  it('a history longer than the bound is read up to it: the change after it is not counted, said once with its commit', async () => {
    const { top, last } = await longHistory(YAML_HISTORY_MAX);
    assert.equal(git(top, 'rev-list', '--count', 'HEAD').trim(), String(YAML_HISTORY_MAX + 1));
    const s = await standingIdentities(top, 'review.yaml', current, 'ana@example.com');
    assert.deepEqual(s.settings.team?.d2, { git: ['ben@example.com'] }, 'the identities as the first commits left them');
    assert.deepEqual(s.refused, [
      {
        commit: last,
        author: 'ana@example.com',
        member: '',
        reason: `review.yaml has more than ${YAML_HISTORY_MAX} commits and only its first ${YAML_HISTORY_MAX} are read, so the team's git e-mails and the lead stand as those commits left them; this commit and every later one (and any change not committed yet) are not read for them`,
      },
    ]);
    // The same history read with a bound one higher: the lead's change counts — the bound alone kept it out.
    const all = await standingIdentities(top, 'review.yaml', current, 'ana@example.com', false, YAML_HISTORY_MAX + 1);
    assert.deepEqual(all.settings.team?.d2, { git: ['ben2@example.com'] });
    assert.deepEqual(all.refused, []);
  });

  it('docs/security.md states the bound the code keeps', () => {
    const doc = readFileSync(path.resolve(__dirname, '../../../../docs/security.md'), 'utf8').replace(/\s+/g, ' ');
    assert.ok(doc.includes(`up to its first ${YAML_HISTORY_MAX} commits`), 'the bound in docs/security.md');
  });

  it('a history within the bound is read whole, each text through the streamed batch', async () => {
    const { top } = await longHistory(3);
    const s = await standingIdentities(top, 'review.yaml', current, 'ana@example.com');
    assert.deepEqual(s.settings.team?.d2, { git: ['ben2@example.com'] });
    assert.deepEqual(s.refused, []);
    // A change by someone who is not the lead, not committed yet, does not count (the history was read to its end).
    const forged = { ...current, team: { ...current.team, d2: { git: 'mallory@example.com' } } };
    const m = await standingIdentities(top, 'review.yaml', forged, 'ben2@example.com');
    assert.deepEqual(m.settings.team?.d2, { git: ['ben2@example.com'] });
    assert.equal(m.refused.length, 1);
    assert.equal(m.refused[0]!.commit, '(uncommitted)');
  });
});
