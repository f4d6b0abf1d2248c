/**
 * The panel's run list keeps what git said about its runs between reloads (runsState.ts): a reload with nothing changed
 * asks git two questions (rev-parse and status), whatever the number of runs, instead of opening the door again (its
 * review.yaml history, the log of runs/); a commit, a file changed again, another git e-mail or a key added to the
 * allowed-signers file asks everything again, and the answer follows. Counted with GIT_TRACE, real git.
 */
import { strict as assert } from 'node:assert';
import { promises as fs, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { git, makeGitTeam } from '../../support/gitTeam';
import { makeTempDir } from '../run/fixtures';
import { reviewWithRun } from '../analysis/fixtures';
import { writeRunRecord } from '../../../src/core/record/store';
import { panelRuns, type PanelRuns } from '../../../src/extension/panel/state/runsState';

const MAPPING = 'team:\n  d1: { git: ana@example.com }\n  d2: { git: ben@example.com }\n  d3: { git: chen@example.com }\n';
const RUNS = 4;

/** panelRuns of `root`, with the git commands it ran (their subcommand, in order). */
async function traced(root: string): Promise<{ shown: PanelRuns; gits: string[] }> {
  const trace = path.join(await makeTempDir('tf-runs-trace-'), 'trace');
  const before = process.env.GIT_TRACE;
  process.env.GIT_TRACE = trace;
  let shown: PanelRuns;
  try {
    shown = await panelRuns(root, (line) => assert.fail(line));
  } finally {
    if (before === undefined) delete process.env.GIT_TRACE;
    else process.env.GIT_TRACE = before;
  }
  let text = '';
  try {
    text = readFileSync(trace, 'utf8');
    rmSync(trace);
  } catch {
    // no git ran
  }
  const gits = text
    .split('\n')
    .filter((l) => /trace: built-in: git /.test(l))
    .map((l) => /built-in: git (?:'?-C'? \S+ )?(?:'?-c'? \S+ )*'?([a-z-]+)/.exec(l)?.[1] ?? l);
  return { shown, gits };
}

describe("the panel's run list: what git says is kept until something that changes it changes (real git)", function () {
  this.timeout(300_000);

  it('a reload with nothing changed asks git twice whatever the runs; a commit or a file changed again asks everything again', async () => {
    const { root: seed, record } = await reviewWithRun();
    await fs.writeFile(path.join(seed, 'review.yaml'), MAPPING);
    const ids = Array.from({ length: RUNS }, (_, i) => record.id.replace(/[0-9a-z]+$/, `r${i}`));
    for (const id of ids) await writeRunRecord(seed, { ...record, id });
    const t = await makeGitTeam(await makeTempDir('tf-runs-cache-'), seed, ['ana'] as const);
    const ana = t.review('ana');

    const first = await traced(ana);
    assert.equal(first.shown.runs.length, RUNS + 1);
    assert.deepEqual(first.shown.brokenRuns, []);
    assert.ok(first.gits.includes('log'), `the first load reads the history: ${first.gits.join(' ')}`);

    const again = await traced(ana);
    assert.deepEqual(again.gits, ['rev-parse', 'status'], 'nothing changed: two questions, none per run');
    assert.deepEqual(again.shown, first.shown);

    // Ben's commit of one run's run.json (made on Ana's clone with his e-mail): HEAD moves, everything is asked again, and
    // the run is refused.
    const forged = path.join(ana, 'runs', ids[0]!, 'run.json');
    await fs.writeFile(forged, `${(await fs.readFile(forged, 'utf8')).trimEnd()}\n\n`);
    git(t.clone.ana, '-c', 'user.name=Ben', '-c', 'user.email=ben@example.com', 'commit', '--quiet', '-am', "Ana's run, by Ben");
    const moved = await traced(ana);
    assert.ok(moved.gits.includes('log'), moved.gits.join(' '));
    assert.deepEqual(
      moved.shown.brokenRuns.map((b) => b.id),
      [ids[0]],
    );
    assert.deepEqual((await traced(ana)).gits, ['rev-parse', 'status'], 'kept again once nothing changes');

    // A file Ana changes and has not committed: asked again at each change (its status stays "M", its size and time do not).
    const own = path.join(ana, 'runs', ids[1]!, 'run.json');
    await fs.writeFile(own, `${(await fs.readFile(own, 'utf8')).trimEnd()}\n\n`);
    assert.ok((await traced(ana)).gits.includes('log'));
    assert.deepEqual((await traced(ana)).gits, ['rev-parse', 'status']);
    await fs.writeFile(own, `${(await fs.readFile(own, 'utf8')).trimEnd()}\n\n\n`);
    const edited = await traced(ana);
    assert.ok(edited.gits.includes('log'), edited.gits.join(' '));
    assert.deepEqual(
      edited.shown.brokenRuns.map((b) => b.id),
      [ids[0]],
      "Ana's own uncommitted change is hers",
    );

    // Another git e-mail on this clone: her uncommitted change no longer speaks for her; the config's change is seen.
    git(t.clone.ana, 'config', 'user.email', 'chen@example.com');
    const other = await traced(ana);
    assert.ok(other.gits.includes('log'), other.gits.join(' '));
    assert.deepEqual(other.shown.brokenRuns.map((b) => b.id).sort(), [ids[0], ids[1]].sort());

    // The allowed-signers file the config names: a key added to it (no config, HEAD or status change) asks everything again.
    const signers = path.join(await makeTempDir('tf-runs-signers-'), 'allowed_signers');
    await fs.writeFile(signers, '');
    git(t.clone.ana, 'config', 'gpg.ssh.allowedSignersFile', signers);
    assert.ok((await traced(ana)).gits.includes('log'));
    assert.deepEqual((await traced(ana)).gits, ['rev-parse', 'status']);
    await fs.appendFile(signers, 'ana@example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEx3uTC7lNG3aKq6ZtN1qv1dbnB9ZbJ7K8zQwz1Xv0Xp\n');
    const signed = await traced(ana);
    assert.ok(signed.gits.includes('log'), `a key added to the allowed signers: ${signed.gits.join(' ')}`);
  });
});
