/**
 * The priority of a stage of `npm test` (scripts/test.mjs). A stage is spawned detached, so its pid is the id of its
 * process group and, with Linux's autogroups on, of a scheduling group of its own: the cores are shared between groups by
 * the group's nice value, not its processes'. A nice process alone in its group still got half the cores from unit's two
 * workers (unit 388 s alone, 519 s beside typecheck and lint at nice 19), so both are set.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Sets the stage's process and its scheduling group to `nice` (what it starts inherits the process's). */
export function lowerPriority(pid, nice) {
  try {
    setPriority(pid, nice);
  } catch {
    /* not permitted here: it runs at the normal priority */
  }
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
  } catch {
    /* no autogroups here: the process's own nice value is the one that counts */
  }
}

/**
 * Puts a lowered stage back at the normal priority: its scheduling group, and each process of its process group. Where
 * raising a priority again is not permitted, they stay low.
 */
export function restorePriority(pid) {
  try {
    writeFileSync(`/proc/${pid}/autogroup`, '0');
  } catch {
    /* no autogroups here */
  }
  for (const p of processGroup(pid)) {
    try {
      setPriority(p, 0);
    } catch {
      /* not permitted, or gone */
    }
  }
}

/** The processes of a process group, from /proc (none where there is no /proc). */
export function processGroup(pgid) {
  let names = [];
  try {
    names = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  const out = [];
  for (const n of names) {
    try {
      // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so read after its last ')'.
      const stat = readFileSync(`/proc/${n}/stat`, 'utf8');
      const [, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid) out.push(Number(n));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}
