/**
 * The git program transport (core/sync/gitCli.ts) on real repositories: the branch and its upstream in one call (a sync at
 * every turn asks for them several times; on a loaded machine every git process is what a sync costs), commits ahead,
 * a detached HEAD, a branch without commits or without an upstream.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { openGitCli } from '../../../src/core/sync/gitCli';
import { git, makeGitTeam } from '../../support/gitTeam';
import { makeTempDir } from '../run/fixtures';

describe('the git program transport', function () {
  this.timeout(60_000);

  it('says the branch and its upstream, counts commits ahead, and tells detached, unborn and upstream-less branches apart', async () => {
    const base = await makeTempDir('tf-gitcli-');
    const seed = path.join(base, 'seed');
    await fs.mkdir(seed);
    await fs.writeFile(path.join(seed, 'brief.md'), '# Brief\n');
    const team = await makeGitTeam(base, seed, ['ana'] as const);
    const t = await openGitCli(team.review('ana'));
    assert.equal(t.via, 'the git program');
    assert.deepEqual(await t.status(), { root: await fs.realpath(team.clone.ana), branch: 'main', upstream: { remote: 'origin', branch: 'main' } });
    assert.equal(await t.ahead(), 0);

    await fs.writeFile(path.join(team.review('ana'), 'note.md'), 'one\n');
    assert.equal(await t.commit([path.join(team.review('ana'), 'note.md')], 'a note'), true);
    assert.equal(await t.ahead(), 1);
    await t.push();
    assert.equal(await t.ahead(), 0);

    // A branch of its own with no upstream; a slash in its name.
    git(team.clone.ana, 'checkout', '--quiet', '-b', 'review/x');
    assert.deepEqual(await t.status(), { root: t.root, branch: 'review/x' });
    assert.equal(await t.ahead(), 0, 'no upstream: nothing known to be ahead');
    // Detached.
    git(team.clone.ana, 'checkout', '--quiet', '--detach');
    assert.deepEqual(await t.status(), { root: t.root });
    // A branch with no commit yet.
    git(team.clone.ana, 'checkout', '--quiet', '--orphan', 'fresh');
    assert.deepEqual(await t.status(), { root: t.root, branch: 'fresh' });
  });
});
