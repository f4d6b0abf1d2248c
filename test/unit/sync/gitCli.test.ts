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
    assert.deepEqual(await t.status(), {
      root: await fs.realpath(team.clone.ana),
      branch: 'main',
      upstream: { remote: 'origin', branch: 'main' },
    });
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

  it("never commits a run's driver lock: one a commit once carried is taken off the branch, kept on disk, and the person's other staged files stay out", async () => {
    const base = await makeTempDir('tf-gitcli-lock-');
    const seed = path.join(base, 'seed');
    await fs.mkdir(path.join(seed, 'runs', 'r1'), { recursive: true });
    await fs.writeFile(path.join(seed, 'brief.md'), '# Brief\n');
    await fs.writeFile(path.join(seed, 'runs', 'r1', 'run.json'), '{}\n');
    await fs.writeFile(path.join(seed, 'runs', 'r1', '.driver.lock'), '{"pid":1}\n'); // committed by someone, long ago
    const team = await makeGitTeam(base, seed, ['ana'] as const);
    const t = await openGitCli(team.review('ana'));
    const run = path.join(team.review('ana'), 'runs', 'r1');
    const lock = path.join(run, '.driver.lock');
    assert.ok(git(team.clone.ana, 'ls-files').includes('runs/r1/.driver.lock'), 'the seed carries a lock');

    await fs.writeFile(path.join(run, 'run.json'), '{"turn":1}\n');
    await fs.writeFile(lock, '{"pid":2}\n');
    assert.equal(await t.commit([run], 'a turn', [lock]), true);
    assert.ok(!git(team.clone.ana, 'ls-files').includes('.driver.lock'), 'the lock is no longer tracked');
    assert.deepEqual(
      git(team.clone.ana, 'ls-tree', '-r', '--name-only', 'HEAD', 'review/runs/r1').trim().split('\n'),
      ['review/runs/r1/run.json'],
      'gone from the branch',
    );
    assert.equal(await fs.readFile(lock, 'utf8'), '{"pid":2}\n', 'the file itself stays on disk');

    // Something the person staged elsewhere is not swept into the run's commit.
    await fs.writeFile(path.join(team.review('ana'), 'brief.md'), '# Brief, edited\n');
    git(team.clone.ana, 'add', 'review/brief.md');
    await fs.writeFile(path.join(run, 'run.json'), '{"turn":2}\n');
    await fs.writeFile(lock, '{"pid":3}\n');
    assert.equal(await t.commit([run], 'another turn', [lock]), true);
    assert.deepEqual(git(team.clone.ana, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n'), ['review/runs/r1/run.json']);
    assert.match(git(team.clone.ana, 'status', '--porcelain'), /^M  review\/brief\.md/m, 'still staged, not committed');
  });
});
