/**
 * A team on several machines in a real VS Code (issue 18): a bare repository and two clones in the suite's workspace.
 * code-server opens clone B with the setting teamfusion.sync on and VS Code's built-in Git turned on (the harness turns it
 * off for every other suite), so B's git work goes through the Git extension's API — the log lines of TeamFusion and of
 * the Git extension say so, and a failing pre-commit hook in B shows TeamFusion's commits skip hooks there too.
 *   1. A CLI `run --sync --human chen` drives the run from clone A against the scripted mock server. B's panel follows it
 *      through the remote ("live from origin/main · last sync …"), the run waits for Chen; from B's panel Chen pins Ana's
 *      message and answers — each entry committed alone and pushed; A's driver takes both in once, the pin rides in the
 *      later prompts, and the run completes; B's panel shows the new turns.
 *   2. A run started in B's panel goes through the remote from B: one commit per turn (and per change of status), each
 *      only the run folder, pushed as it goes; A pulls and holds the same run; no merge commits.
 * Screenshots teamsync-*-dark/-light.
 *
 * Needs `npm run build` (dist/) and `npm run compile-tests`. Run under the shared lock:
 *   npx mocha --no-config --timeout 300000 out/test/e2e/teamSync.e2e.js
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { git, makeGitTeam, type GitTeam } from '../support/gitTeam';
import { RunRecordSchema, type RunRecord } from '../../src/core/record/record';
import { CLI, copySample, e2eSuite, mockEnv, runIds, until } from './support/suite';
import { extensionLog, openReview, requireBuilt, shootBothThemes, showTab, waitInFrame } from './support/workbench';

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every file under `dir` (relative path → bytes). */
async function tree(dir: string, rel = ''): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await fs.readdir(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) for (const [k, v] of await tree(dir, r)) out.set(k, v);
    else out.set(r, await fs.readFile(path.join(dir, r)));
  }
  return out;
}

describe("a team on several machines through git, with VS Code's built-in Git (code-server)", function () {
  this.timeout(600_000);
  const s = e2eSuite('sync');
  let team: GitTeam<'ana' | 'ben'>;
  let panel: Frame;
  let driverErr = '';
  let driver: Promise<Result> | undefined;
  let driverProcess: ChildProcess | undefined;

  async function record(who: 'ana' | 'ben', runId?: string): Promise<RunRecord | undefined> {
    const id = runId ?? (await runIds(team.review(who))).filter((n) => /^\d{4}-/.test(n)).at(-1);
    if (!id) return undefined;
    const text = await fs.readFile(path.join(team.review(who), 'runs', id, 'run.json'), 'utf8').catch(() => '');
    try {
      const parsed = RunRecordSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined; // half written (a pull in progress)
    }
  }

  /** The discussion's messages in B's panel, as "kind:id". */
  const shown = (): Promise<string[]> =>
    panel.evaluate(() =>
      [...document.querySelectorAll('.tf-msg[data-message-id]')].map(
        (m) => `${(m as HTMLElement).dataset.kind ?? ''}:${m.getAttribute('data-message-id') ?? ''}`,
      ),
    );
  /**
   * Rethrows a wait's error with what the clones and the logs say: what B holds uncommitted, B's and the remote's last
   * commits, and the last lines of TeamFusion's and VS Code's Git's logs (a wait on B's commits that runs out says why).
   */
  const withSyncStory = async (e: Error): Promise<never> => {
    const tail = async (id: string) => (await extensionLog(s.w, id)).trim().split('\n').slice(-15).join('\n');
    const log = (dir: string, ...rev: string[]) => git(dir, 'log', '--format=%h %s', '-3', ...rev).trim();
    throw new Error(
      `${e.message}\nuncommitted in B: ${git(team.clone.ben, 'status', '--porcelain', '--', 'review').trim() || 'nothing'}\n` +
        `B: ${log(team.clone.ben)}\nremote: ${log(team.remote, 'main')}\n` +
        `TeamFusion's log:\n${await tail('teamfusion.teamfusion')}\nGit's log:\n${await tail('vscode.git')}`,
    );
  };
  /** Files the commit at HEAD of B touched. */
  const filesOf = (rev: string): string[] =>
    git(team.clone.ben, 'show', '--name-only', '--format=', rev).trim().split('\n').filter(Boolean);
  const headFiles = (): string[] => filesOf('HEAD');
  /** The commit in B's history with this subject (A's driver may already have pushed commits over it that B pulled). */
  const commitWith = (subject: string): string | undefined =>
    git(team.clone.ben, 'log', '--format=%H%x09%s', '-50')
      .split('\n')
      .find((l) => l.endsWith(`\t${subject}`))
      ?.split('\t')[0];
  const resultLine = (): Promise<string> => panel.evaluate(() => document.getElementById('tf-say-result')?.textContent ?? '');

  before(async function () {
    requireBuilt(['dist/extension.js', 'dist/cli.js', 'dist/webview/panel.js']);
    const ws = await s.makeWorkspace();
    // One round, one turn each, in review order: Ana, Ben, Chen (who answers in person from clone B), Dina.
    const seed = await copySample(ws, 'seed', { turnsPerAgent: 1, iterations: 1, mode: 'together', order: 'fixed', leadSpeaksLast: false });
    team = await makeGitTeam(ws, seed, ['ana', 'ben'] as const);
    await fs.rm(seed, { recursive: true, force: true });
    // A hook that refuses every commit in B: TeamFusion's own commits skip hooks (as the git program transport does).
    await fs.writeFile(
      path.join(team.clone.ben, '.git', 'hooks', 'pre-commit'),
      '#!/bin/sh\necho "the e2e pre-commit hook refuses" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    await s.startMock();
    await s.startWorkbench({
      folder: team.clone.ben,
      hideSideBar: true,
      settings: {
        'teamfusion.sync': true,
        'teamfusion.syncInterval': 1,
        // The harness turns the built-in Git off for every other suite; here it carries B's git work.
        'git.enabled': true,
        'git.autofetch': false,
        'git.openRepositoryInParentFolders': 'always',
      },
    });
  });

  after(async () => {
    // After a failure the driver may still wait for Chen (a human turn waits for ever): it is stopped, not waited for.
    if (driverProcess && driverProcess.exitCode === null && driverProcess.signalCode === null) driverProcess.kill();
    await driver?.catch(() => undefined);
  });

  it("B's panel follows a run A drives; Chen pins and answers from B through VS Code's Git, A's driver takes both in once", async () => {
    const page = s.page;
    panel = await openReview(page, 'review', 'Lumen');
    await showTab(panel, 'run');
    // The follower pulls once the panel is open: the live line names the upstream and the time of the last sync.
    await waitInFrame(
      panel,
      () => /live from origin\/main/.test(document.querySelector('.tf-live-remote')?.textContent ?? ''),
      'the live-from line',
      120_000,
    );
    assert.match((await panel.locator('.tf-live-time').textContent()) ?? '', /last sync \S+/);
    // The path taken: VS Code's Git, not the git program (the log says which, once per review).
    const log = await until(
      page,
      "the transport line in TeamFusion's log",
      async () => /goes through its git remote with ([^\n.(]+)/.exec(await extensionLog(s.w, 'teamfusion.teamfusion'))?.[1],
    );
    assert.equal(log.trim(), "VS Code's Git");

    // Clone A drives the run through the remote (the CLI, the git program).
    const child = spawn(process.execPath, [CLI, 'run', team.review('ana'), '--sync', '--sync-interval', '1', '--human', 'chen', '--json'], {
      env: { ...process.env, ...mockEnv(s.mock), TEAMFUSION_MAX_RETRIES: '0', XDG_CACHE_HOME: path.join(s.ws, 'cache') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (driverErr += c.toString('utf8')));
    driverProcess = child;
    driver = new Promise<Result>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr: driverErr }));
    });
    const withDriver = (e: Error): never => {
      throw new Error(`${e.message}\nthe driver said:\n${driverErr}`);
    };

    // B never ran anything: what it shows came through the remote. Ana's and Ben's turns, then the wait for Chen.
    await waitInFrame(panel, () => !!document.getElementById('tf-waiting'), "the waiting banner in B (pulled from A's run)", 240_000).catch(
      withDriver,
    );
    assert.match((await panel.locator('#tf-waiting').textContent()) ?? '', /Waiting for Chen/i);
    const before = await shown();
    assert.deepEqual(
      before.map((m) => m.split(':')[0]),
      ['proxy', 'proxy'],
      `Ana's and Ben's turns: ${before.join(', ')}`,
    );
    const runId = (await record('ben'))!.id;
    assert.equal((await record('ben'))?.status, 'waiting', "B's clone holds the waiting run (pulled)");
    assert.equal(await panel.locator('.tf-status-interrupted').count(), 0, 'a run driven on another machine is not shown as interrupted');
    await shootBothThemes(page, 'teamsync-01-waiting');
    const inbox = (who: string) => `review/runs/${runId}/inbox/${who}-…`;
    const entryOf = (files: string[]) => files.map((f) => f.replace(/-\d{13}-\d{6}-[0-9a-f]{8}\.json$/, '-…'));

    // Chen pins Ana's message from B's panel (he is the one the run waits for): his entry alone is committed and pushed.
    const ana = before[0]!.split(':')[1]!;
    await panel.locator(`.tf-pin[data-message="${ana}"]`).click();
    await waitInFrame(
      panel,
      () => /Pinned .*committed and pushed to origin\/main/.test(document.getElementById('tf-say-result')?.textContent ?? ''),
      "Chen's pin pushed",
      120_000,
    ).catch(withSyncStory);
    const pinCommit = commitWith(`TeamFusion ${runId}: chen pins ${ana}`);
    assert.ok(pinCommit, git(team.clone.ben, 'log', '--format=%s', '-10'));
    assert.deepEqual(entryOf(filesOf(pinCommit)), [inbox('chen')], 'only his pin entry');
    assert.ok(git(team.remote, 'merge-base', '--is-ancestor', pinCommit, 'main') === '', 'the pin is on the remote');

    // Chen answers in B's panel: the same way.
    await panel.locator('#tf-say-text textarea').fill('From my own machine: Image 3, and keep the gold cap.');
    await panel.locator('#tf-say-send').click();
    const sayCommit = await until(page, "Chen's answer committed in B", async () => commitWith(`TeamFusion ${runId}: chen says`)).catch(
      withSyncStory,
    );
    await waitInFrame(
      panel,
      () => /^Said: committed and pushed to origin\/main/.test(document.getElementById('tf-say-result')?.textContent ?? ''),
      "Chen's entry pushed",
      120_000,
    );
    assert.deepEqual(entryOf(filesOf(sayCommit)), [inbox('chen')], 'only his message entry');
    assert.match(await resultLine(), /committed and pushed/);

    // A's driver takes both in and completes; B's panel follows: Chen's words and Dina's turn appear, the run is completed.
    await waitInFrame(
      panel,
      () => document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed',
      'status completed in B',
      240_000,
    ).catch(withDriver);
    const after = await shown();
    assert.deepEqual(
      after.map((m) => m.split(':')[0]),
      ['proxy', 'proxy', 'human', 'proxy'],
      `the new turns appeared: ${after.join(', ')}`,
    );
    await waitInFrame(
      panel,
      () => (document.querySelector('.tf-msg[data-kind="human"] .tf-msg-body')?.textContent ?? '').includes('From my own machine'),
      "Chen's words in B",
      30_000,
    );
    await panel.waitForFunction((id) => document.querySelector(`.tf-msg[data-message-id="${id}"]`)?.classList.contains('tf-pinned'), ana, {
      timeout: 30_000,
      polling: 200,
    });
    const r = await driver!;
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { status: string }).status, 'completed');
    const done = (await record('ana', runId))!;
    const chen = done.iterations[0]!.messages.find((m) => m.kind === 'human');
    assert.deepEqual([chen?.speaker, chen?.turn], ['chen', 1]);
    assert.deepEqual(
      done.pins?.map((p) => [p.message, p.by]),
      [[ana, 'chen']],
      'the pin, once',
    );
    assert.equal(done.takenIn?.filter((n) => n.startsWith('chen-')).length, 2, 'both entries taken in once');
    // Dina's turn came after the pin: her prompt carried it.
    assert.ok(
      s.mock.requests.some((q) => q.route === 'chat' && JSON.stringify(q.body).includes('Pinned by')),
      'a later prompt carries the pin',
    );
    assert.ok(!git(team.clone.ana, 'log', '--merges', '--format=%H').trim(), 'no merge commits');
    await shootBothThemes(page, 'teamsync-02-completed');
    // The built-in Git extension did B's commits and pushes (its own log), and the failing hook never ran.
    const gitLog = await extensionLog(s.w, 'vscode.git');
    assert.match(gitLog, /> git -c user\.useConfigOnly=true commit .*--no-verify/);
    assert.match(gitLog, /> git push origin main/);
    assert.ok(!gitLog.includes('the e2e pre-commit hook refuses'), 'the hook did not run');
    assert.deepEqual(s.mock.specErrors(), []);
  });

  it("a run started in B's panel is committed turn by turn from B through VS Code's Git and pushed; A pulls the same run", async () => {
    const page = s.page;
    const pushesBefore = ((await extensionLog(s.w, 'vscode.git')).match(/> git push origin main/g) ?? []).length;
    const known = new Set(await runIds(team.review('ben')));
    // Where the remote is now (A's driver pushed its last commit before the test above ended; B's own clone may not have
    // taken that one in yet, as it syncs on its own clock): the commits after it are B's alone.
    const base = git(team.remote, 'rev-parse', 'main').trim();
    await showTab(panel, 'run');
    await panel.locator('#tf-run').click();
    const runId = await until(page, 'the run started in B', async () => (await runIds(team.review('ben'))).find((id) => !known.has(id)));
    const rec = await until(
      page,
      'the run started in B completed',
      async () => {
        const r = await record('ben', runId);
        return r?.status === 'completed' ? r : undefined;
      },
      300_000,
    );
    await waitInFrame(
      panel,
      () =>
        document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed' &&
        document.querySelectorAll('.tf-msg[data-message-id]').length === 4,
      "B's panel showing the completed run",
      60_000,
    );
    // Everything is committed and pushed from B: nothing of the review left uncommitted, B's branch is the remote's. The
    // run's record says completed before its last commits are made (one after another, each through VS Code's Git): when
    // the wait runs out, the error says which part was missing and what both logs said last.
    await until(
      page,
      "B's last commit on the remote",
      async () =>
        git(team.clone.ben, 'status', '--porcelain', '--', 'review').trim() === '' &&
        git(team.clone.ben, 'rev-parse', 'HEAD').trim() === git(team.remote, 'rev-parse', 'main').trim(),
    ).catch(withSyncStory);
    // A pulls: the same run folder, byte for byte.
    git(team.clone.ana, 'pull', '--quiet', '--rebase');
    const [a, b] = await Promise.all([
      tree(path.join(team.review('ana'), 'runs', runId)),
      tree(path.join(team.review('ben'), 'runs', runId)),
    ]);
    assert.deepEqual([...a.keys()].sort(), [...b.keys()].sort());
    for (const [f, bytes] of a) assert.ok(bytes.equals(b.get(f)!), `${f} is the same in A and B`);

    // One commit per turn (and per change of status), made by Ben's clone, each holding only the run folder; no merges.
    const commits = git(team.clone.ana, 'log', '--reverse', '--format=%H%x09%an%x09%s', `${base}..HEAD`)
      .trim()
      .split('\n')
      .map((l) => l.split('\t') as [string, string, string]);
    const subjects = commits.map((c) => c[2]);
    const turns = rec.iterations.flatMap((it) =>
      it.messages.map((m) => `TeamFusion ${runId}: iteration ${it.index}, ${m.speaker} turn ${m.turn}`),
    );
    assert.equal(turns.length, 4, 'four proxy turns');
    for (const t of turns) assert.equal(subjects.filter((x) => x === t).length, 1, `one commit for "${t}" in:\n${subjects.join('\n')}`);
    // The saves between turns say what they add (the remix; the transcript and result after the status): no subject twice.
    assert.equal(new Set(subjects).size, subjects.length, `no subject twice:\n${subjects.join('\n')}`);
    assert.ok(subjects.includes(`TeamFusion ${runId}: completed`), subjects.join('\n'));
    for (const [sha, author, subject] of commits) {
      assert.equal(author, 'Ben', `${subject} was committed in B`);
      assert.ok(subject.startsWith(`TeamFusion ${runId}: `), subject);
      const files = git(team.clone.ana, 'show', '--name-only', '--format=', sha).trim().split('\n').filter(Boolean);
      assert.ok(
        files.every((f) => f.startsWith(`review/runs/${runId}/`)),
        `${subject}: ${files.join(', ')}`,
      );
    }
    assert.ok(!git(team.clone.ana, 'log', '--merges', '--format=%H').trim(), 'no merge commits');
    // Pushed turn by turn by VS Code's Git (its log; the git program would not write there).
    const pushesNow = async (): Promise<number> =>
      ((await extensionLog(s.w, 'vscode.git')).match(/> git push origin main/g) ?? []).length - pushesBefore;
    const pushes = await until(
      page,
      `a push by VS Code's Git for each of the ${commits.length} commits`,
      async () => {
        const n = await pushesNow();
        return n >= commits.length ? n : undefined;
      },
      60_000,
    ).catch(async () => pushesNow());
    assert.ok(pushes >= commits.length, `${pushes} pushes by VS Code's Git for ${commits.length} commits`);
    process.stdout.write(`      (${commits.length} commits for ${turns.length} turns, ${pushes} pushes by VS Code's Git)\n`);

    // A pin on the completed run from B's panel: committed alone and pushed; no driver takes it in now, so B's panel shows
    // it as pending (not as pinned); A's next pull brings the entry.
    const target = rec.iterations[0]!.messages[1]!.id!;
    await panel.locator(`.tf-pin[data-message="${target}"]`).click();
    const pinner = await until(
      page,
      'the pin committed in B',
      async () =>
        new RegExp(`^TeamFusion ${runId}: (\\w+) pins ${target}$`).exec(git(team.clone.ben, 'log', '--format=%s', '-1').trim())?.[1],
    );
    // The panel says what became of it (no say box on a completed run, but the pin's answer shows).
    await waitInFrame(
      panel,
      () => /^Pinned i1-m\d+: committed and pushed to origin\/main/.test(document.getElementById('tf-say-result')?.textContent ?? ''),
      "the pin's answer in B",
      60_000,
    );
    const [entry] = headFiles();
    assert.match(entry ?? '', new RegExp(`^review/runs/${runId}/inbox/${pinner}-\\d{13}-\\d{6}-[0-9a-f]{8}\\.json$`));
    assert.equal(headFiles().length, 1, 'only the pin entry');
    await until(
      page,
      'the pin on the remote',
      async () => git(team.clone.ben, 'rev-parse', 'HEAD').trim() === git(team.remote, 'rev-parse', 'main').trim(),
    );
    const note = await until(page, "the pending pin in B's panel", async () =>
      panel.evaluate(
        (id) => document.querySelector(`.tf-msg.tf-pin-pending[data-message-id="${id}"] .tf-pending-note`)?.textContent ?? '',
        target,
      ),
    );
    assert.match(note, /^pin by .+ pending · taken in if the run goes on/);
    assert.equal(
      await panel.locator(`.tf-msg.tf-pinned[data-message-id="${target}"]`).count(),
      0,
      'not shown as pinned: the record does not hold it',
    );
    await shootBothThemes(page, 'teamsync-03-pending-pin');
    git(team.clone.ana, 'pull', '--quiet', '--rebase');
    assert.ok((await fs.stat(path.join(team.clone.ana, entry!))).isFile(), 'A holds the pin entry after a pull');
    assert.deepEqual(s.mock.specErrors(), []);
  });
});
