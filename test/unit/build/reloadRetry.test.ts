/**
 * The vsix stage's reloads (scripts/lib/reloadRetry.mjs): a reload whose extension host has not activated within its
 * wait is tried again, with the reason read from the host's log, and the check fails after the last try.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../support/builtCli';

interface ReloadOptions {
  reload(): Promise<void>;
  activated(): boolean;
  hostLog(): string | undefined;
  sleep(ms: number): Promise<void>;
  waitMs: number;
  tries: number;
  pollMs?: number;
  detail?(): string;
}
interface ReloadModule {
  reloadUntil(o: ReloadOptions): Promise<string[]>;
}

const reloadModule = (): Promise<ReloadModule> =>
  import(pathToFileURL(path.join(REPO_ROOT, 'scripts', 'lib', 'reloadRetry.mjs')).href) as Promise<ReloadModule>;

/** A window whose n-th reload (1-based) activates when `activates(n)` says so, and whose log says `log(n)`. */
function fakeWindow(activates: (n: number) => boolean, log: (n: number) => string | undefined) {
  let reloads = 0;
  let on = false;
  return {
    get reloads() {
      return reloads;
    },
    options: (tries: number): ReloadOptions => ({
      reload: () => {
        reloads++;
        on = activates(reloads);
        return Promise.resolve();
      },
      activated: () => on,
      hostLog: () => log(reloads),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      waitMs: 30,
      pollMs: 5,
      tries,
      detail: () => `; ${reloads} reloads seen`,
    }),
  };
}

const TIMED_OUT = "Not activating extension 'teamfusion.teamfusion': Timed out while searching for 'workspaceContains' pattern **/x";

describe('the vsix stage reloads until the new extension host has activated', () => {
  it('is done after one reload when that one activates', async () => {
    const { reloadUntil } = await reloadModule();
    const w = fakeWindow(
      () => true,
      () => undefined,
    );
    assert.deepEqual(await reloadUntil(w.options(3)), []);
    assert.equal(w.reloads, 1);
  });

  it("reloads again when VS Code's workspaceContains search timed out, and says so", async () => {
    const { reloadUntil } = await reloadModule();
    const w = fakeWindow(
      (n) => n === 2,
      (n) => (n === 1 ? `info starting\n${TIMED_OUT}\n` : 'info activated'),
    );
    assert.deepEqual(await reloadUntil(w.options(3)), ["VS Code's workspaceContains search timed out"]);
    assert.equal(w.reloads, 2);
  });

  it('fails after its last try, naming why each did not activate', async () => {
    const { reloadUntil } = await reloadModule();
    const w = fakeWindow(
      () => false,
      (n) => (n === 2 ? TIMED_OUT : 'info nothing'),
    );
    await assert.rejects(
      reloadUntil(w.options(3)),
      new Error(
        "after 3 reloads, nothing activated again (not activated within 0.03 s; VS Code's workspaceContains search timed out; " +
          'not activated within 0.03 s); 3 reloads seen',
      ),
    );
    assert.equal(w.reloads, 3);
  });
});
