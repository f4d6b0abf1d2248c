/**
 * A team on several machines in a real VS Code (issue 18, done when "an e2e in a real VS Code shows the panel following a
 * run driven from another clone"): a bare repository and two clones in the e2e's temporary folder. code-server opens
 * clone B with the setting teamfusion.sync on; a CLI `run --sync --human chen` drives the run from clone A against the
 * scripted mock server. The panel in B follows it through the remote: Ana's and Ben's turns appear, the Run tab says
 * "live from origin/main · last sync …", the run waits for Chen; Chen answers in B's panel (his entry committed alone,
 * pulled and pushed); A's driver takes it in, Dina's proxy speaks, the run completes — and B's panel shows the new turns
 * and the completed status. Screenshots teamsync-*-dark/-light.
 *
 * Needs `npm run build` (dist/) and `npm run compile-tests`. Run under the shared lock:
 *   flock /tmp/tf-vscode.lock npx mocha --no-config --timeout 600000 out/test/e2e/teamSync.e2e.js
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { repoRoot } from '../harness/codeServer';
import { MockOpenAI } from '../support/openaiMock';
import { git, makeGitTeam, type GitTeam } from '../support/gitTeam';
import { RunRecordSchema, type RunRecord } from '../../src/core/record/record';
import { DARK, command, openReview, requireBuilt, shootBothThemes, showTab, startWorkbench, waitInFrame, type Workbench } from './support/workbench';

const REPO = repoRoot();
const SAMPLE = path.join(REPO, 'samples', 'lumen-perfume');
const CLI = path.join(REPO, 'dist', 'cli.js');

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The first capture of `re` in any file under `dir` (logs of the extension host), or undefined. */
async function findInFiles(dir: string, re: RegExp): Promise<string | undefined> {
  for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    const found = e.isDirectory() ? await findInFiles(p, re) : re.exec(await fs.readFile(p, 'utf8').catch(() => ''))?.[1];
    if (found) return found;
  }
  return undefined;
}

describe('a team on several machines: the panel follows a run driven from another clone (code-server)', function () {
  this.timeout(600_000);
  let base = '';
  let team: GitTeam<'ana' | 'ben'>;
  let mock: MockOpenAI | undefined;
  let w: Workbench | undefined;
  let panel: Frame;
  let driverErr = '';
  let driver: Promise<Result> | undefined;

  async function record(who: 'ana' | 'ben'): Promise<RunRecord | undefined> {
    const runs = (await fs.readdir(path.join(team.review(who), 'runs')).catch(() => [] as string[])).filter((n) => /^\d{4}-/.test(n));
    if (runs.length !== 1) return undefined;
    const text = await fs.readFile(path.join(team.review(who), 'runs', runs[0]!, 'run.json'), 'utf8').catch(() => '');
    const parsed = text ? RunRecordSchema.safeParse(JSON.parse(text)) : undefined;
    return parsed?.success ? parsed.data : undefined;
  }

  /** The discussion's messages in B's panel, as "kind:speaker". */
  const shown = (): Promise<string[]> =>
    panel.evaluate(() => [...document.querySelectorAll('.tf-msg[data-message-id]')].map((m) => `${(m as HTMLElement).dataset.kind ?? ''}:${m.getAttribute('data-message-id') ?? ''}`));

  before(async function () {
    requireBuilt(['dist/extension.js', 'dist/cli.js', 'dist/webview/panel.js']);
    base = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-e2e-sync-'));
    const seed = path.join(base, 'seed');
    await fs.cp(SAMPLE, seed, { recursive: true });
    await fs.rm(path.join(seed, 'runs'), { recursive: true, force: true });
    const config = (parseYaml(await fs.readFile(path.join(seed, 'review.yaml'), 'utf8')) ?? {}) as Record<string, unknown>;
    // One round, one turn each, in review order: Ana, Ben, Chen (who answers in person from clone B), Dina.
    await fs.writeFile(
      path.join(seed, 'review.yaml'),
      stringifyYaml({ ...config, turnsPerAgent: 1, iterations: 1, mode: 'together', order: 'fixed', leadSpeaksLast: false }),
    );
    team = await makeGitTeam(base, seed, ['ana', 'ben'] as const);
    await fs.rm(seed, { recursive: true, force: true });
    mock = await MockOpenAI.start();
    w = await startWorkbench({
      workspace: team.clone.ben,
      settings: {
        'workbench.colorTheme': DARK,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'teamfusion.baseUrl': mock.baseURL,
        'teamfusion.sync': true,
        'teamfusion.syncInterval': 1,
        'git.autofetch': false,
        'git.openRepositoryInParentFolders': 'always',
      },
      env: { OPENAI_API_KEY: 'sk-e2e-placeholder' },
    });
    await w.open();
    await command(w.page, 'View: Toggle Primary Side Bar Visibility');
  });

  after(async () => {
    await w?.stop();
    await driver?.catch(() => undefined);
    await mock?.close();
    if (base) await fs.rm(base, { recursive: true, force: true });
  });

  it('B\'s panel shows the turns A drives as pulls bring them, "live from origin/main", and Chen\'s answer from B reaches A\'s driver', async () => {
    const page = w!.page;
    panel = await openReview(page, 'review', 'Lumen');
    await showTab(panel, 'run');
    // The follower pulls once the panel is open: the live line names the upstream and the time of the last sync.
    await waitInFrame(panel, () => /live from origin\/main/.test(document.querySelector('.tf-live-remote')?.textContent ?? ''), 'the live-from line', 120_000);
    assert.match((await panel.locator('.tf-live-time').textContent()) ?? '', /last sync \S+/);

    // Clone A drives the run through the remote (the CLI, the git program).
    const child = spawn(
      process.execPath,
      [CLI, 'run', team.review('ana'), '--sync', '--sync-interval', '1', '--human', 'chen', '--json'],
      {
        env: { ...process.env, OPENAI_API_KEY: 'sk-e2e-placeholder', OPENAI_BASE_URL: mock!.baseURL, TEAMFUSION_MAX_RETRIES: '0', XDG_CACHE_HOME: path.join(base, 'cache') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (driverErr += c.toString('utf8')));
    driver = new Promise<Result>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr: driverErr }));
    });

    // B never ran anything: what it shows came through the remote. Ana's and Ben's turns, then the wait for Chen.
    await waitInFrame(panel, () => !!document.getElementById('tf-waiting'), 'the waiting banner in B (pulled from A\'s run)', 240_000).catch((e: Error) => {
      throw new Error(`${e.message}\nthe driver said:\n${driverErr}`);
    });
    assert.match((await panel.locator('#tf-waiting').textContent()) ?? '', /Waiting for Chen/i);
    const before = await shown();
    assert.deepEqual(before.map((m) => m.split(':')[0]), ['proxy', 'proxy'], `Ana's and Ben's turns: ${before.join(', ')}`);
    assert.equal((await record('ben'))?.status, 'waiting', 'B\'s clone holds the waiting run (pulled)');
    assert.equal(await panel.locator('.tf-status-interrupted').count(), 0, 'a run driven on another machine is not shown as interrupted');
    await shootBothThemes(page, 'teamsync-01-waiting');

    // Chen answers in B's panel: his entry is committed alone, pulled and pushed.
    assert.equal(await panel.locator('#tf-say-as').evaluate((el) => (el as HTMLElement & { value: string }).value), 'chen');
    await panel.locator('#tf-say-text textarea').fill('From my own machine: Image 3, and keep the gold cap.');
    await panel.locator('#tf-say-send').click();
    await waitInFrame(panel, () => /committed and pushed to origin\/main/.test(document.getElementById('tf-say-result')?.textContent ?? ''), 'Chen\'s entry pushed', 120_000);
    const subjects = git(team.clone.ben, 'log', '--format=%s', '-1');
    assert.match(subjects, /TeamFusion .*: chen says/);
    assert.deepEqual(git(team.clone.ben, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').filter(Boolean).map((f) => f.replace(/-\d{13}-.*$/, '-…')), ['review/runs/' + (await record('ben'))!.id + '/inbox/chen-…'], 'only his entry');

    // A's driver takes it in and completes; B's panel follows: Chen's words and Dina's turn appear, the run is completed.
    await waitInFrame(panel, () => document.querySelector('.tf-run-status vscode-badge')?.textContent === 'completed', 'status completed in B', 240_000).catch((e: Error) => {
      throw new Error(`${e.message}\nthe driver said:\n${driverErr}`);
    });
    const after = await shown();
    assert.deepEqual(after.map((m) => m.split(':')[0]), ['proxy', 'proxy', 'human', 'proxy'], `the new turns appeared: ${after.join(', ')}`);
    await waitInFrame(panel, () => (document.querySelector('.tf-msg[data-kind="human"] .tf-msg-body')?.textContent ?? '').includes('From my own machine'), 'Chen\'s words in B', 30_000);
    const r = await driver!;
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { status: string }).status, 'completed');
    const done = (await record('ana'))!;
    const chen = done.iterations[0]!.messages.find((m) => m.kind === 'human');
    assert.deepEqual([chen?.speaker, chen?.turn], ['chen', 1]);
    assert.equal(done.takenIn?.filter((n) => n.startsWith('chen-')).length, 1, 'taken in once');
    assert.ok(!git(team.clone.ana, 'log', '--merges', '--format=%H').trim(), 'no merge commits');
    await shootBothThemes(page, 'teamsync-02-completed');
    // Which carried B's git work (VS Code's Git, or the git program when the editor's Git does not see the repository).
    const via = await findInFiles(path.join(w!.server.userDataDir, 'logs'), /goes through its git remote with ([^\n]+)/);
    process.stdout.write(`      (B's sync went through ${via ?? 'an unknown transport: the log line was not found'})\n`);
    assert.deepEqual(mock!.specErrors(), []);
  });
});
