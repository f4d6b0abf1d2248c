// One installer at a time across processes (two test processes started at once, say) for what the test scripts install
// into the test cache (scripts/code-server, scripts/llama). Plain JS so it runs on the system node before anything is
// compiled.
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `install` (sync or async) holding the lock folder `lock` (its parent folder is made), and removes the lock after.
 * While another process holds it we wait, up to `minutes`; a lock older than that was left by a killed installer and is
 * removed. `ready`, when given, is asked on every wait: an answer other than undefined means the other process finished
 * the install, and that answer is returned without taking the lock. `log` is told once that we wait for `what`; when
 * the wait runs out the error names `holder` and the lock.
 */
export async function withInstallLock({ lock, minutes, what, holder, log, ready }, install) {
  mkdirSync(dirname(lock), { recursive: true });
  const limit = minutes * 60_000;
  const waitUntil = Date.now() + limit;
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const done = ready?.();
      if (done !== undefined) return done;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > limit) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > waitUntil) throw new Error(`Another ${holder} holds ${lock}; remove it if no install is running.`);
      if (!told) log(`another process is installing ${what}; waiting for it`);
      told = true;
      await sleep(2000);
    }
  }
  try {
    return await install();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
