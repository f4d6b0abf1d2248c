/**
 * The priority of a stage of `npm test` (scripts/lib/priority.mjs): the check lane runs at nice 19 while unit runs, and is
 * put back at the normal priority once unit has ended, with what it started meanwhile (with two busy processes on the
 * machine, typecheck left at nice 19 was starved past its 900 s limit after unit).
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitFor } from '../../support/waitFor';

const REPO = path.resolve(__dirname, '../../../..');

interface PriorityModule {
  lowerPriority(pid: number, nice: number): void;
  restorePriority(pid: number): void;
  processGroup(pgid: number): number[];
}
const load = (): Promise<PriorityModule> =>
  import(pathToFileURL(path.join(REPO, 'scripts', 'lib', 'priority.mjs')).href) as Promise<PriorityModule>;

/** The nice value of a process's scheduling group, where Linux keeps autogroups. */
function groupNice(pid: number): number | undefined {
  const file = `/proc/${pid}/autogroup`;
  if (!existsSync(file)) return undefined;
  return Number(/nice (-?\d+)/.exec(readFileSync(file, 'utf8'))?.[1]);
}

describe('npm test: a stage at a lower priority, and back', function () {
  this.timeout(60_000);

  it('lowers a detached stage and its group, then puts back the stage and what it started meanwhile', async function () {
    if (process.platform !== 'linux') this.skip();
    const m = await load();
    // A stage that starts a child only when told to: the child is born after the stage was lowered, as tsc's workers are.
    const stage = spawn('sh', ['-c', 'read go; sleep 60 & exec sleep 60'], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    const pid = stage.pid!;
    try {
      m.lowerPriority(pid, 19);
      assert.equal(getPriority(pid), 19);
      if (groupNice(pid) !== undefined) assert.equal(groupNice(pid), 19, 'its scheduling group too');
      stage.stdin!.end('go\n');
      const group = await waitFor('the stage and its child in its process group', () => {
        const g = m.processGroup(pid);
        return g.length === 2 ? g : undefined;
      });
      assert.ok(group.includes(pid));
      for (const p of group) assert.equal(getPriority(p), 19, `process ${p} inherited the low priority`);

      m.restorePriority(pid);
      if (groupNice(pid) !== undefined) assert.equal(groupNice(pid), 0, 'its scheduling group is back at 0');
      // Raising a priority again needs the right to (root, or CAP_SYS_NICE); without it, the processes stay low.
      const permitted = process.getuid?.() === 0;
      for (const p of group) assert.equal(getPriority(p), permitted ? 0 : 19, `process ${p}`);
    } finally {
      process.kill(-pid, 'SIGKILL');
    }
  });
});
