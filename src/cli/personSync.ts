/**
 * `say … --sync`, `pin … --sync`, `vote … --sync`: the person's entry (a vote: their votes file) goes through the team's git remote (core/sync/personSync). The
 * command pulls first, writes the entry (never run.json: only the run's driver writes that), commits only that file —
 * the entry is acknowledged once it is committed — then pulls and pushes. Without git: one sentence, exit 1. A remote
 * that cannot be reached: the entry stays committed here, "not synced: <reason>", exit 0.
 */
import * as path from 'node:path';
import { GitMissingError, gitTransportFor } from '../core/sync/gitCli';
import { commitAndPush, pullFirst } from '../core/sync/personSync';
import { SyncConflictError } from '../core/sync/transport';
import { printable } from '../core/kernel/text';
import { writeLine } from './output';

/** Thrown to end the command with this exit code after its sentence is written. */
export class SyncExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/**
 * How a person's command (say, pin, vote) ends on `err`: a SyncExit with its own code; one of `inputErrors` as one
 * sentence, "teamfusion <command>: …", and exit 1; anything else is thrown on.
 */
export function personCommandExit(command: string, err: unknown, inputErrors: readonly (new (...args: never[]) => Error)[]): number {
  if (err instanceof SyncExit) return err.code;
  if (inputErrors.some((kind) => err instanceof kind)) {
    process.stderr.write(`teamfusion ${command}: ${printable((err as Error).message)}\n`);
    return 1;
  }
  throw err;
}

export interface Written {
  /** Path of the written file relative to the review. */
  file: string;
  /** Other files it wrote that go in the same commit (a vote that decides on the run's driver's machine: run.json with the decision). */
  also?: string[];
}

/**
 * Runs `write` between a pull and a commit + push of the file it wrote. Returns what `write` returned, after the
 * commit; throws SyncExit(1) without git or on a conflict (the sentence is written).
 */
export async function throughRemote<T extends Written>(
  root: string,
  command: string,
  message: string,
  write: () => Promise<T>,
): Promise<T> {
  let t;
  try {
    t = await gitTransportFor(root);
  } catch (err) {
    if (err instanceof GitMissingError) {
      writeLine(process.stderr, `teamfusion ${command}: ${err.message}`);
      throw new SyncExit(1);
    }
    throw err;
  }
  try {
    const say = (line: string): void => writeLine(process.stderr, line);
    const before = await pullFirst(t, say);
    const written = await write();
    const files = [written.file, ...(written.also ?? [])];
    const out = await commitAndPush(
      t,
      files.map((f) => path.join(root, ...f.split('/'))),
      message,
      say,
    );
    if (out.committed) writeLine(process.stderr, `Committed ${files.join(', ')} ("${message}").`);
    // "Pushed" only for a commit made now: an unchanged file makes none (issue 39), and that is said instead.
    else if (!out.problem)
      writeLine(
        process.stderr,
        `Nothing to commit: ${files.join(', ')} already ${files.length === 1 ? 'holds' : 'hold'} this as committed.`,
      );
    if (out.pushed) {
      if (out.committed) writeLine(process.stderr, `Pushed to ${out.remote ?? 'the upstream'}.`);
    } else {
      const why = out.problem ?? before ?? 'unknown';
      writeLine(
        process.stderr,
        `not synced: ${why}. ${out.committed ? 'The entry is committed here; the next sync (or git push) delivers it.' : 'The entry is written here.'}`,
      );
    }
    return written;
  } catch (err) {
    if (err instanceof SyncConflictError) {
      writeLine(process.stderr, `teamfusion ${command}: ${err.message}`);
      throw new SyncExit(1);
    }
    throw err;
  }
}
