/**
 * The vsix stage's window reloads (scripts/test-vsix.mjs): a reload is done when its new extension host has activated
 * what the check measures. VS Code gives up a `workspaceContains` activation when the file search behind it takes more
 * than a few seconds, and says so in the extension host's log ("Timed out while searching for 'workspaceContains'");
 * a loaded machine can hit that, so a reload that has not activated within its wait is tried again, a few times at most.
 */

/** The log line VS Code writes when it gives up a `workspaceContains` activation. */
export const SEARCH_TIMED_OUT = /Timed out while searching for 'workspaceContains'/;

/**
 * Reloads until `activated()` holds, each try waiting at most `waitMs` (checked every `pollMs` with `sleep`), at most
 * `tries` reloads in all. Returns why each earlier try did not activate (empty when the first did); throws after the
 * last, naming the reasons and `detail()`. `hostLog()` is the newest extension host log's text (or undefined).
 */
export async function reloadUntil({ reload, activated, hostLog, sleep, waitMs, tries, pollMs = 200, detail = () => '' }) {
  const missed = [];
  for (let attempt = 1; ; attempt++) {
    await reload();
    for (const until = Date.now() + waitMs; !activated() && Date.now() < until;) await sleep(pollMs);
    if (activated()) return missed;
    missed.push(
      SEARCH_TIMED_OUT.test(hostLog() ?? '') ? "VS Code's workspaceContains search timed out" : `not activated within ${waitMs / 1000} s`,
    );
    if (attempt >= tries) {
      throw new Error(`after ${attempt} reloads, nothing activated again (${missed.join('; ')})${detail()}`);
    }
  }
}
