/**
 * A person's own file through the team's remote (`say/pin --sync`, the panel with the sync setting on): pull first (so the
 * file is checked against the run as the team sees it), write it, commit only that file (acknowledged once it is
 * committed locally), then pull and push, retrying when the push is rejected. A failing remote never loses the file: it
 * stays committed here and the next sync (or `git push`) delivers it. A conflict is never resolved: it is named.
 */
import { SyncConflictError, SyncError, pushWithRetry, upstreamName, type GitTransport } from './transport';

export interface PersonSyncOutcome {
  /** The file is committed in the local repository. */
  committed: boolean;
  /** The commit reached the upstream. */
  pushed: boolean;
  /** "origin/main" when known. */
  remote?: string;
  /** Why it did not reach the remote (`not synced: …`). */
  problem?: string;
}

/** Pull before writing: the run as the team sees it. A conflict throws; any other failure is returned as the reason. */
export async function pullFirst(t: GitTransport | { unavailable: string }, onNote?: (line: string) => void): Promise<string | undefined> {
  if ('unavailable' in t) return t.unavailable;
  try {
    const r = await t.pull();
    if (r.note) onNote?.(`${r.note[0]!.toUpperCase()}${r.note.slice(1)}.`);
    return undefined;
  } catch (err) {
    if (err instanceof SyncError) return err.message;
    throw err;
  }
}

/** Commits the given files only, then pulls and pushes. Throws SyncConflictError; other failures come back as `problem`. */
export async function commitAndPush(
  t: GitTransport | { unavailable: string },
  files: string[],
  message: string,
  onNote?: (line: string) => void,
): Promise<PersonSyncOutcome> {
  if ('unavailable' in t) return { committed: false, pushed: false, problem: t.unavailable };
  let committed = false;
  try {
    committed = await t.commit(files, message);
  } catch (err) {
    if (err instanceof SyncError) return { committed: false, pushed: false, problem: err.message };
    throw err;
  }
  const s = await t.status().catch(() => undefined);
  const remote = s?.upstream ? upstreamName(s) : undefined;
  try {
    const said = (r: { note?: string }): void => void (r.note && onNote?.(`${r.note[0]!.toUpperCase()}${r.note.slice(1)}.`));
    said(await t.pull());
    await pushWithRetry(t, said);
    return { committed, pushed: true, remote };
  } catch (err) {
    if (err instanceof SyncConflictError) throw err;
    if (err instanceof SyncError) return { committed, pushed: false, remote, problem: err.message };
    throw err;
  }
}
