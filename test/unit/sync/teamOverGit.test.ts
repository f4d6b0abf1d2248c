/**
 * A team on three machines through its git remote (issue 18), with real git and the real built CLI: a bare repository
 * and three clones in a temporary folder. Ana's clone drives `run --sync --human d2`; Ben answers from his clone with
 * `say --sync`; Chen pins from his with `pin --sync`; the remote goes away (renamed) for part of the run and comes back.
 * Also: git missing, a tampered record or inbox entry pulled from the remote.
 */
import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam, pullAndPush, pullUntilRunWaits, type GitTeam } from '../../support/gitTeam';
import { useCliAgainstMock, type CliRun, type RunningCli } from '../cli/buildCli';
import { humanRunArgs } from '../../support/builtCli';
import { makeReview, makeTempDir } from '../run/fixtures';
import { chatRequests, runJson } from '../run/helpers';
import { waitFor } from '../../support/waitFor';

/** A team's sync goes through real git several times a second: on a loaded machine a step can take minutes. */
const PATIENCE_MS = 240_000;

/** Every file under a folder with its bytes (relative path → content). */
async function tree(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (rel: string): Promise<void> => {
    for (const e of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(r);
      else out.set(r, await fs.readFile(path.join(dir, r)));
    }
  };
  await walk('');
  return out;
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe('a team on three machines through its git remote (real git, the built CLI)', function () {
  this.timeout(600_000);
  const rig = useCliAgainstMock({ drop: /^GIT_/, timeoutMs: 540_000, checkSpec: true });
  const start = (args: string[], e?: NodeJS.ProcessEnv): RunningCli => rig.start(args, e);
  const tf = (args: string[], e?: NodeJS.ProcessEnv): Promise<CliRun> => start(args, e).done;

  /** A bare remote and clones ana, ben, chen of a repository holding a review at review/. */
  async function team(): Promise<{ base: string } & GitTeam<'ana' | 'ben' | 'chen'>> {
    const base = await makeTempDir('tf-team-');
    return { base, ...(await makeGitTeam(base, await makeReview({ options: 3, designers: 3 }), ['ana', 'ben', 'chen'] as const)) };
  }

  it('Ana drives with --sync, Ben answers and Chen pins from their clones; the remote goes away and back; nothing lost, nothing twice', async () => {
    const t = await team();
    rig.mock.latencyMs = 150;
    const t0 = Date.now();
    const phase = (what: string): void =>
      void (process.env.TF_SHOW && process.stdout.write(`      ${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}\n`));
    const ana = start(
      humanRunArgs(t.review('ana'), 'd2', ['--pool', '1', '--checklist', 'off', '--sync', '--sync-interval', '0.2', '--json'], 2),
    );

    // Ben pulls until he sees the run waiting for him.
    const turnOfBen = (iteration: number) => ({ speaker: 'd2', iteration, patienceMs: PATIENCE_MS });
    const id = await pullUntilRunWaits(t, 'ben', { what: 'Ben to see the run waiting for him', ...turnOfBen(1) });
    phase('Ben sees the run waiting');

    // Chen pins Ana's first message from his clone, and (by hand) commits two entries the driver must skip.
    git(t.clone.chen, 'pull', '--quiet', '--rebase');
    const pinned = await tf(['pin', t.review('chen'), id, 'i1-m1', '--as', 'd3', '--sync']);
    assert.equal(pinned.code, 0, pinned.stderr);
    assert.match(pinned.stderr, /Committed runs\/.*\/inbox\/d3-.*\.json/);
    assert.match(pinned.stderr, /Pushed to origin\/main/);
    phase('Chen pinned');
    const inbox = path.join(t.review('chen'), 'runs', id, 'inbox');
    await fs.writeFile(
      path.join(inbox, 'zed-1700000000000-000001-0badc0de.json'),
      JSON.stringify({ type: 'say', speaker: 'zed', content: 'not on the team', at: '2026-01-01T00:00:00Z' }),
    );
    await fs.writeFile(
      path.join(inbox, 'd3-1700000000000-000002-0badc0df.json'),
      JSON.stringify({ type: 'pin', message: 'i9-m9', by: 'd3', at: '2026-01-01T00:00:00Z' }),
    );
    git(t.clone.chen, 'add', '-A');
    git(t.clone.chen, 'commit', '--quiet', '-m', 'by hand');
    pullAndPush(t.clone.chen);

    // Ben answers his turn.
    const said = await tf(['say', t.review('ben'), id, '--as', 'd2', '--sync', 'Keep', 'the', 'SERIF-WORDMARK-7', 'please.']);
    assert.equal(said.code, 0, said.stderr);
    assert.match(said.stderr, /sent to run .* takes it in after its next pull/);
    assert.match(said.stderr, /Pushed to origin\/main/);
    phase('Ben said');

    // The driver takes both in; then the remote goes away for a while.
    await waitFor(
      'the driver to take Ben in',
      async () => {
        // (read while the driver may be rebasing its clone: a file can be away for a moment)
        const r = await runJson(t.review('ana'), id).catch(() => undefined);
        return r?.iterations[0]!.messages.some((m) => m.kind === 'human' && m.speaker === 'd2') || undefined;
      },
      PATIENCE_MS,
    );
    const away = `${t.remote}-away`;
    await fs.rename(t.remote, away);
    phase('the remote is away');
    await waitFor('the driver to say it is not synced', () => ana.stderr().includes('not synced:') || undefined, PATIENCE_MS);
    await fs.rename(away, t.remote);
    phase('the remote is back');

    // Ben's second turn (iteration 2): he passes; his proxy speaks.
    await pullUntilRunWaits(t, 'ben', {
      what: 'Ben to see the run waiting for him again',
      ...turnOfBen(2),
      detail: () => `${ana.stderr()}\n${git(t.clone.ana, 'log', '--format=%h %s', '-12')}\n${git(t.clone.ana, 'status', '--short')}`,
    });
    const passed = await tf(['say', t.review('ben'), id, '--as', 'd2', '--sync', '/pass']);
    phase('Ben passed');
    assert.equal(passed.code, 0, passed.stderr);

    const r = await ana.done;
    phase('the driver is done');
    if (process.env.TF_SHOW) process.stdout.write(r.stderr);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { status: string }).status, 'completed');
    assert.equal(count(r.stderr, 'not synced:'), 1, `said once:\n${r.stderr}`);
    assert.match(
      r.stderr,
      /inbox\/zed-1700000000000-000001-0badc0de\.json is not taken in and is left alone \(it is zed's, and "zed" is not a designer of this run\)/,
    );
    assert.equal(
      count(r.stderr, 'are not checked against their authors'),
      1,
      'a review without git e-mails says once that entries are not checked',
    );
    assert.match(r.stderr, /d3-1700000000000-000002-0badc0df changes nothing: it pins i9-m9/);
    assert.equal(count(r.stderr, 'zed-1700000000000-000001-0badc0de.json is not taken in'), 1, 'logged once');

    // The record: Ben's words once, Chen's pin once; every entry taken in once.
    const done = await runJson(t.review('ana'), id);
    const human = done.iterations.flatMap((it) => it.messages).filter((m) => m.kind === 'human');
    assert.deepEqual(
      human.map((m) => [m.speaker, m.content, m.turn]),
      [
        ['d2', 'Keep the SERIF-WORDMARK-7 please.', 1],
        ['d2', '/pass', 1],
      ],
    );
    assert.deepEqual(
      done.pins?.map((p) => [p.message, p.by]),
      [['i1-m1', 'd3']],
    );
    assert.equal(new Set(done.takenIn).size, done.takenIn?.length);
    assert.ok(done.takenIn!.some((n) => n.startsWith('d3-')) && done.takenIn!.filter((n) => n.startsWith('d2-')).length === 2);
    // Chen's pin arrived before Ben's words (order of arrival at the driver), whatever the entries' clocks say.
    assert.ok(done.takenIn!.findIndex((n) => n.startsWith('d3-')) < done.takenIn!.findIndex((n) => n.startsWith('d2-')));

    // Every prompt after the take-in carries Ben's words and Chen's pin exactly once.
    const chats = chatRequests(rig.mock).map((q) => JSON.stringify(q.body));
    const first = chats.findIndex((c) => c.includes('SERIF-WORDMARK-7'));
    assert.equal(first, 1, "only Ana's first turn was asked before Ben spoke");
    for (const c of chats.slice(first)) {
      assert.equal(count(c, 'SERIF-WORDMARK-7'), 1);
      assert.equal(count(c, 'Pinned by \\"Chloé\\"'), 1);
    }
    assert.ok(chats.length >= 6, `turns, remix agents: ${chats.length} chat requests`);

    // After a final pull all three clones hold the same run folder, byte for byte; one commit per turn.
    for (const k of ['ana', 'ben', 'chen'] as const) git(t.clone[k], 'pull', '--quiet', '--rebase');
    const trees = await Promise.all((['ana', 'ben', 'chen'] as const).map((k) => tree(path.join(t.review(k), 'runs', id))));
    assert.deepEqual([...trees[1]!.keys()].sort(), [...trees[0]!.keys()].sort());
    for (const other of trees.slice(1)) for (const [f, bytes] of trees[0]!) assert.ok(bytes.equals(other.get(f)!), `${f} is the same`);
    // Taken-in entries are gone; the one nobody can take in (not on the team) stays where it is.
    assert.deepEqual(
      [...trees[0]!.keys()].filter((f) => f.includes('.driver.lock') || f.startsWith('inbox/')),
      ['inbox/zed-1700000000000-000001-0badc0de.json'],
    );
    const log = git(t.clone.ana, 'log', '--format=%s').split('\n');
    assert.ok(log.includes(`TeamFusion ${id}: iteration 1, d1 turn 1`), log.join('\n'));
    assert.ok(log.includes(`TeamFusion ${id}: iteration 1, waiting for d2 turn 1`));
    assert.ok(log.includes(`TeamFusion ${id}: completed`));
    assert.ok(!git(t.clone.ana, 'log', '--merges', '--format=%H').trim(), 'no merge commits');
    assert.equal(git(t.clone.ana, 'status', '--porcelain', '--', 'review').trim(), '', 'nothing left uncommitted');
    process.stdout.write(`      (${log.length - 1} commits for ${chats.length} chat requests)\n`);
  });

  it('a pulled run.json someone else changed stops the run in words, without writing over it; a broken pulled entry is refused in words', async () => {
    const t = await team();
    const ana = start(humanRunArgs(t.review('ana'), 'd2', ['--pool', '1', '--checklist', 'off', '--sync', '--sync-interval', '0.2']));
    const id = await pullUntilRunWaits(t, 'ben', { what: 'the run to wait', patienceMs: PATIENCE_MS });
    const file = path.join(t.review('ben'), 'runs', id, 'run.json');
    const tampered = (await fs.readFile(file, 'utf8')).replace('"candidates": [', '"candidates": [\n        "../../secret",');
    await fs.writeFile(file, tampered);
    git(t.clone.ben, 'commit', '--quiet', '-am', 'tamper');
    git(t.clone.ben, 'push', '--quiet');
    const r = await ana.done;
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `changed runs/${id}/run\\.json \\(and it is not a valid run record: .*\\), which only the process driving run ${id} writes`,
      ),
    );
    assert.equal(await fs.readFile(path.join(t.review('ana'), 'runs', id, 'run.json'), 'utf8'), tampered, 'not written over');

    // Put right by hand (revert), then an entry that speaks for someone else under Ben's name is refused in words, left in
    // place, and the resumed run goes on waiting for Ben (issue 29: refusals are named, the run is not stopped by them).
    git(t.clone.ben, 'revert', '--no-edit', 'HEAD');
    await fs.mkdir(path.join(t.review('ben'), 'runs', id, 'inbox'), { recursive: true });
    await fs.writeFile(
      path.join(t.review('ben'), 'runs', id, 'inbox', 'd2-1700000000000-000001-0badc0de.json'),
      JSON.stringify({ type: 'say', speaker: 'd1', content: 'I am Ana', at: 'x' }),
    );
    git(t.clone.ben, 'add', '-A');
    git(t.clone.ben, 'commit', '--quiet', '-m', 'forged');
    git(t.clone.ben, 'push', '--quiet');
    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    const again = await tf(['run', t.review('ana'), '--resume', id, '--sync', '--sync-interval', '0.2', '--max-wait', '5']);
    if (process.env.TF_SHOW) process.stdout.write(r.stderr + again.stderr);
    assert.equal(again.code, 3, again.stderr);
    assert.match(
      again.stderr,
      /d2-1700000000000-000001-0badc0de\.json is not taken in and is left alone \(the file is d2's but speaks for d1\)/,
    );
    assert.equal(again.stderr.split('0badc0de.json is not taken in').length - 1, 1, 'said once');
    assert.ok(await fs.stat(path.join(t.review('ana'), 'runs', id, 'inbox', 'd2-1700000000000-000001-0badc0de.json')), 'left in place');
    assert.equal((await runJson(t.review('ana'), id)).iterations[0]!.messages.filter((m) => m.kind === 'human').length, 0);
  });

  it('without git, --sync is one sentence and exit 1; everything else works', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const noGit = { ...rig.env, PATH: await makeTempDir('tf-nopath-') };
    for (const args of [
      ['run', root, '--sync'],
      ['say', root, '2026-01-01T00-00-00Z-abcd', '--as', 'd1', '--sync', 'hi'],
    ]) {
      const r = await tf(args, noGit);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /--sync needs the git program, and git was not found on this machine/);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
    assert.equal((await tf(['analyze', root], noGit)).code, 0);
    assert.equal(rig.mock.requests.length, 0);
  });

  it('a review outside any repository runs on locally with --sync and says once why it is not synced', async () => {
    const root = await makeReview({ options: 3, designers: 2 });
    const r = await tf(['run', root, '--sync', '--iterations', '1', '--turns', '1', '--json'], {
      ...rig.env,
      GIT_CEILING_DIRECTORIES: path.dirname(root),
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(count(r.stderr, 'not synced:'), 1, r.stderr);
    assert.match(r.stderr, /not synced: .* is not in a git repository/);
  });
});
