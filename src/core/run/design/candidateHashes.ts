/**
 * Candidates are fixed for a run (issue 29): the review's option images are hashed when the run starts (the record's
 * options keep each sha256) and checked again before every round and on resume, so an image changed under a running
 * run (a pull, an edit) stops it in words naming the file, before anything is sent about it. Remixes are the run's
 * own files and are not hashed; records without hashes (older runs) are not checked.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { LIMITS, readReviewBytes, resolveInReview } from '../../files/reviewFiles';
import type { RunOption } from '../../record/record';

/** A candidate image changed (or vanished) since the run started. */
export class CandidateChangedError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(
      `${file} ${detail} since this run started; candidates are fixed for a run, so it stops here (the record is kept). Put the file back as it was and resume, or start a new run.`,
    );
    this.name = 'CandidateChangedError';
  }
}

const isReviewOption = (o: RunOption): boolean => !o.file.startsWith('runs/');

/**
 * Hashes already made in this process, keyed by the file's identity as stat sees it (device, inode, size, modification
 * and change times): a round's check does not read and hash every option image again when none of them changed. Any
 * write changes the change time (which no program can set back), a replaced file has another inode, so a changed file
 * is always read again. A file changed less than RACY_MS before it was hashed is not kept (a second write within a coarse
 * clock tick could leave both times equal), as git does with "racily clean" entries.
 */
const hashMemo = new Map<string, string>();
const HASH_MEMO_LIMIT = 256;
const RACY_MS = 2000;

async function hashOf(reviewRoot: string, file: string): Promise<string> {
  const abs = await resolveInReview(reviewRoot, file);
  const st = await fs.stat(abs, { bigint: true }).catch(() => undefined);
  const key = st?.isFile() ? [abs, st.dev, st.ino, st.size, st.mtimeNs, st.ctimeNs].join('\0') : undefined;
  const known = key === undefined ? undefined : hashMemo.get(key);
  if (known) return known;
  const startedNs = BigInt(Date.now() - RACY_MS) * 1_000_000n;
  const hash = createHash('sha256')
    .update(await readReviewBytes(reviewRoot, file, LIMITS.imageBytes))
    .digest('hex');
  if (key !== undefined && st && st.mtimeNs < startedNs && st.ctimeNs < startedNs) {
    if (hashMemo.size >= HASH_MEMO_LIMIT) hashMemo.delete(hashMemo.keys().next().value as string);
    hashMemo.set(key, hash);
  }
  return hash;
}

/** The options with the sha256 of each review option's bytes as they are now. */
export async function withCandidateHashes(reviewRoot: string, options: RunOption[]): Promise<RunOption[]> {
  return Promise.all(options.map(async (o) => (isReviewOption(o) ? { ...o, sha256: await hashOf(reviewRoot, o.file) } : o)));
}

/** Throws CandidateChangedError for the first review option whose bytes are not those the run started with. */
export async function checkCandidates(reviewRoot: string, options: readonly RunOption[]): Promise<void> {
  for (const o of options) {
    if (!o.sha256 || !isReviewOption(o)) continue;
    let now: string;
    try {
      now = await hashOf(reviewRoot, o.file);
    } catch (err) {
      throw new CandidateChangedError(
        o.file,
        `can no longer be read (${err instanceof Error && 'reason' in err ? String(err.reason) : 'unreadable'})`,
      );
    }
    if (now !== o.sha256) throw new CandidateChangedError(o.file, 'has changed');
  }
}
