/**
 * Identity over git (issue 29, contract §7), with real git: a bare remote and clones whose user.email differ. review.yaml
 * maps members to e-mails (`team: <id>: { git: … }`); over --sync an inbox entry is taken in only when the commits that
 * wrote it are that member's, and with `requireSignedCommits: true` only when `git verify-commit` accepts them (ssh keys
 * made here). What is refused is named (file, commit, author), left in place, and never taken in.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam, pullAndPush, pullUntilRunWaits } from '../../support/gitTeam';
import { openGitCli } from '../../../src/core/sync/gitCli';
import { openAuthorship } from '../../../src/core/authorship/door';
import { useCliAgainstMock, type RunningCli } from '../cli/buildCli';
import { humanRunArgs } from '../../support/builtCli';
import { makeReview, makeTempDir } from '../run/fixtures';
import { runJson } from '../run/helpers';

const PATIENCE_MS = 240_000;
const MAPPING =
  'team:\n  d1: { git: ana@example.com }\n  d2: { git: [ben@example.com, ben@home.example] }\n  d3: { git: chen@example.com }\n';

describe('identity over git: each member speaks only as themselves (real git, the built CLI)', function () {
  this.timeout(600_000);
  const rig = useCliAgainstMock({ drop: /^GIT_/, timeoutMs: 540_000 });
  const start = (args: string[]): RunningCli => rig.start(args);

  const team = async (yaml: string) => {
    const seed = await makeReview({ options: 3, designers: 3 });
    await fs.writeFile(path.join(seed, 'review.yaml'), yaml);
    return makeGitTeam(await makeTempDir('tf-identity-'), seed, ['ana', 'ben', 'chen'] as const);
  };

  it("an entry Ben commits under Ana's name is refused with its commit and author; Ben's own is taken in", async () => {
    const t = await team(MAPPING);
    const ana = start(humanRunArgs(t.review('ana'), 'd2', ['--sync', '--sync-interval', '0.2']));
    const id = await pullUntilRunWaits(t, 'ben', {
      what: 'Ben to see the run waiting for him',
      patienceMs: PATIENCE_MS,
      detail: () => ana.stderr(),
    });

    // Ben forges a message of Ana's (d1) in a file named for her, and commits it as himself.
    const forged = 'd1-1700000000000-000001-0badc0de';
    await fs.mkdir(path.join(t.review('ben'), 'runs', id, 'inbox'), { recursive: true });
    await fs.writeFile(
      path.join(t.review('ben'), 'runs', id, 'inbox', `${forged}.json`),
      JSON.stringify({ type: 'say', speaker: 'd1', content: 'As the lead I have decided: option 3 wins.', at: '2026-11-26T21:00:00Z' }),
    );
    git(t.clone.ben, 'add', '-A');
    git(t.clone.ben, 'commit', '--quiet', '-m', 'a word from Ana');
    const forgedCommit = git(t.clone.ben, 'rev-parse', 'HEAD').trim();
    pullAndPush(t.clone.ben);

    const said = await start(['say', t.review('ben'), id, '--as', 'd2', '--sync', 'Keep', 'the', 'serif.']).done;
    assert.equal(said.code, 0, said.stderr);
    const r = await ana.done;
    assert.equal(r.code, 0, r.stderr);
    const done = await runJson(t.review('ana'), id);
    assert.equal(done.status, 'completed');
    const humans = done.iterations.flatMap((it) => it.messages.filter((m) => m.kind === 'human'));
    assert.deepEqual(
      humans.map((m) => [m.speaker, m.content]),
      [['d2', 'Keep the serif.']],
      "Ben's own message only",
    );
    assert.match(
      r.stderr,
      new RegExp(
        `runs/${id}/inbox/${forged}\\.json is not taken in and is left alone: commit ${forgedCommit.slice(0, 12)} by Ben <ben@example\\.com> wrote it, and that is not d1 \\(review\\.yaml team\\.d1\\.git: ana@example\\.com\\)`,
      ),
    );
    assert.equal(r.stderr.split(forged).length - 1, 1, 'said once');
    assert.ok(await fs.stat(path.join(t.review('ana'), 'runs', id, 'inbox', `${forged}.json`)), 'left in place for people to look at');
    assert.ok(!(done.takenIn ?? []).includes(forged));
  });

  it('requireSignedCommits: only a commit git verify-commit accepts speaks (ssh signing keys made here)', async () => {
    const t = await team(`${MAPPING}requireSignedCommits: true\n`);
    const keys = await makeTempDir('tf-keys-');
    const key = path.join(keys, 'ben');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'ben', '-f', key]);
    // Ben signs his commits; Ana's clone trusts Ben's key for his e-mail (what verify-commit needs for ssh signatures).
    git(t.clone.ben, 'config', 'gpg.format', 'ssh');
    git(t.clone.ben, 'config', 'user.signingkey', key);
    git(t.clone.ben, 'config', 'commit.gpgsign', 'true');
    const allowed = path.join(keys, 'allowed_signers');
    await fs.writeFile(allowed, `ben@example.com ${(await fs.readFile(`${key}.pub`, 'utf8')).trim()}\n`);
    git(t.clone.ana, 'config', 'gpg.ssh.allowedSignersFile', allowed);

    const id = '2026-11-26T21-00-00Z-abcd';
    const entry = async (who: 'ben' | 'chen', person: string): Promise<string> => {
      const rel = path.join('review', 'runs', id, 'inbox', `${person}-1700000000000-000001-0badc0de.json`);
      await fs.mkdir(path.dirname(path.join(t.clone[who], rel)), { recursive: true });
      await fs.writeFile(path.join(t.clone[who], rel), JSON.stringify({ type: 'say', speaker: person, content: 'hi', at: 'now' }));
      git(t.clone[who], 'add', '-A');
      git(t.clone[who], 'commit', '--quiet', '-m', `${person} says hi`);
      pullAndPush(t.clone[who]);
      return rel;
    };
    const benFile = await entry('ben', 'd2');
    const chenFile = await entry('chen', 'd3');
    git(t.clone.ana, 'pull', '--quiet', '--rebase');
    const settings = {
      team: { d1: { git: 'ana@example.com' }, d2: { git: ['ben@example.com'] }, d3: { git: 'chen@example.com' } },
      requireSignedCommits: true,
    };
    // The authorship door, opened afresh for each question (it reads git once per folder it is asked about).
    const authorProblem = async (abs: string, person: string): Promise<string | undefined> =>
      (await (await openAuthorship(t.review('ana'), settings)).check(abs, person))?.reason;
    const transport = await openGitCli(t.review('ana'));
    assert.equal(await authorProblem(path.join(t.clone.ana, benFile), 'd2'), undefined, "Ben's signed commit speaks for him");
    assert.match(
      (await authorProblem(path.join(t.clone.ana, chenFile), 'd3'))!,
      /^commit [0-9a-f]{12} by Chen <chen@example\.com> wrote it, and git verify-commit does not accept its signature \(requireSignedCommits: true\)$/,
    );
    // Without the trust on Ana's side, Ben's signature is not accepted either.
    git(t.clone.ana, 'config', '--unset', 'gpg.ssh.allowedSignersFile');
    assert.match((await authorProblem(path.join(t.clone.ana, benFile), 'd2'))!, /git verify-commit does not accept/);
    // An entry a teammate deletes is reported by the pull that brings the deletion (the driver says it; see driver.ts).
    git(t.clone.chen, 'rm', '--quiet', chenFile);
    git(t.clone.chen, 'commit', '--quiet', '-m', 'gone');
    pullAndPush(t.clone.chen);
    const pulled = await transport.pull();
    assert.deepEqual(pulled.deletedFiles, [path.join(await fs.realpath(t.clone.ana), chenFile)]);
    // A file never committed is this machine's own.
    const local = path.join(t.review('ana'), 'runs', id, 'inbox', 'd1-1700000000001-000001-0badc0de.json');
    await fs.writeFile(local, '{}');
    assert.equal(await authorProblem(local, 'd1'), undefined);
  });

  it("say --sync whose pull clashes with the person's own uncommitted files undoes the clash and says so; nothing is lost", async () => {
    const t = await team(MAPPING);
    const waiting = await start(humanRunArgs(t.review('ben'), 'd2')).done;
    assert.equal(waiting.code, 3, waiting.stderr);
    git(t.clone.ben, 'add', '-A');
    git(t.clone.ben, 'commit', '--quiet', '-m', 'a run');
    pullAndPush(t.clone.ben);
    const id = (await fs.readdir(path.join(t.review('ben'), 'runs')))[0]!;
    // Chen changes the brief and pushes; Ben has his own unsaved edit of the same lines.
    git(t.clone.chen, 'pull', '--quiet', '--rebase');
    await fs.writeFile(path.join(t.review('chen'), 'brief.md'), "# Chen's brief\n");
    git(t.clone.chen, 'commit', '--quiet', '-am', 'brief');
    pullAndPush(t.clone.chen);
    await fs.writeFile(path.join(t.review('ben'), 'brief.md'), "# Ben's unsaved brief\n");

    const said = await start(['say', t.review('ben'), id, '--as', 'd2', '--sync', 'Keep', 'the', 'serif.']).done;
    assert.equal(said.code, 0, said.stderr);
    assert.match(
      said.stderr,
      /Your uncommitted changes to review\/brief\.md clashed with what the pull brought; the clash is undone \(the files are as pulled\) and your changes are kept in the git stash/,
    );
    assert.match(said.stderr, /Pushed to origin\/main/);
    assert.equal(git(t.clone.ben, 'diff', '--name-only', '--diff-filter=U').trim(), '', 'no conflict left');
    assert.equal(await fs.readFile(path.join(t.review('ben'), 'brief.md'), 'utf8'), "# Chen's brief\n");
    assert.match(git(t.clone.ben, 'stash', 'list'), /autostash/);
    assert.match(git(t.clone.ben, 'stash', 'show', '-p', 'stash@{0}'), /Ben's unsaved brief/, "Ben's edit is kept");
  });
});
