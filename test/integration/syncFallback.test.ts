/**
 * A team on several machines (issue 18), the fallback in a real extension host: where the editor's built-in Git is turned
 * off (this suite's harness starts code-server with git.enabled false, as a user may), the review's git work goes through
 * the git program — the CLI's transport, the same rules — and the reason is said. The path through VS Code's Git itself
 * is shown by the e2e test/e2e/teamSync.e2e.ts, which turns the Git extension on.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { vscodeGitTransportFor } from '../../src/extension/sync/vscodeGit';

describe("team sync in VS Code: the git program when the editor's Git is off", () => {
  let dir = '';
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('falls back to the git program, says why, and it works (status names the branch)', async function () {
    // code-server's harness turns the built-in Git off; a runner that leaves it on (@vscode/test-electron) cannot show this.
    if (vscode.workspace.getConfiguration('git').get('enabled') !== false) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'tf-it-sync-'));
    const git = (...args: string[]): string => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
    git('-c', 'init.defaultBranch=main', 'init', '--quiet');
    git('config', 'user.name', 'Ana');
    git('config', 'user.email', 'ana@example.com');
    writeFileSync(join(dir, 'brief.md'), '# Brief\n');
    git('add', '-A');
    git('commit', '--quiet', '-m', 'The review');
    const why: string[] = [];
    const t = await vscodeGitTransportFor(dir, (w) => why.push(w));
    assert.ok(!('unavailable' in t), JSON.stringify(t));
    assert.equal(t.via, 'the git program');
    // Which of the two reasons depends on how far the Git extension got with the setting off when it was asked (a fresh
    // clone's CI run saw the second): either way the fallback is said once, in words.
    assert.equal(why.length, 1, JSON.stringify(why));
    assert.match(
      why[0]!,
      /^(Git is turned off in this editor \(setting git\.enabled\)|VS Code's Git does not see a repository holding .+)$/,
    );
    const status = await t.status();
    assert.equal(status.branch, 'main');
    assert.equal(status.upstream, undefined, 'no upstream: a sync says so instead of pushing');
  });
});
