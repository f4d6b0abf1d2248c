/**
 * A cheap fingerprint of what validating a review reads: for brief.md, review.yaml (.yml), references.yaml and every entry
 * of options/, rankings/, comments/ and references/, its kind, size, modification and change times, by stat alone — no
 * file is opened. Every path goes through the file room's containment, so a link that leads out of the review counts as
 * "outside" and nothing it points at is looked at (a change out there changes no fingerprint). Equal fingerprints mean
 * nothing validation reads has changed (to the file system's time resolution); live views re-validate only when it differs.
 */
import type { Stats } from 'node:fs';
import { listInReview, statInReview } from './reviewFiles';

const FILES = ['brief.md', 'review.yaml', 'review.yml', 'references.yaml'] as const;
const FOLDERS = ['options', 'rankings', 'comments', 'references'] as const;
/** Entries of a folder looked at one by one; beyond them (a folder far over its limits) its own stat and count stand in. */
const MAX_ENTRIES = 500;

function describe(st: Stats | undefined): string {
  if (!st) return '-';
  const kind = st.isFile() ? 'f' : st.isDirectory() ? 'd' : 'o';
  return `${kind}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
}

async function statOf(root: string, rel: string): Promise<string> {
  try {
    return describe(await statInReview(root, rel));
  } catch {
    // Leads outside the review (or cannot be resolved): what is out there is never looked at.
    return 'outside';
  }
}

/** The fingerprint of the review folder `root` (a string to compare; its shape is not an interface). */
export async function reviewFingerprint(root: string): Promise<string> {
  const parts: string[] = [];
  for (const rel of FILES) parts.push(`${rel}=${await statOf(root, rel)}`);
  for (const dir of FOLDERS) {
    const own = await statOf(root, dir);
    parts.push(`${dir}/=${own}`);
    if (!own.startsWith('d:')) continue;
    let names: string[];
    try {
      names = ((await listInReview(root, dir)) ?? []).sort();
    } catch {
      parts.push(`${dir}/*=unreadable`);
      continue;
    }
    parts.push(`${dir}/#=${names.length}`);
    for (const name of names.slice(0, MAX_ENTRIES)) parts.push(`${dir}/${name}=${await statOf(root, `${dir}/${name}`)}`);
  }
  return parts.join('\n');
}

/**
 * The fingerprint of a review's runs/ folder, the same way: the folder itself (its stat moves when a run is added or
 * removed), and for the run `runId` every entry of its folder and of each folder inside it (votes/, ratings/, survey/,
 * coverage/, iteration-<k>/…), by stat alone, at most MAX_ENTRIES entries in all. The review panel compares it to see a
 * vote, rating or decision written by another process when no file event came. `skip` leaves out entries of the run's
 * folder that change without changing what is shown (a driver's lock, its prompt parts); the run's folder goes by its
 * entries alone, not its own stat, so what is skipped moves nothing.
 */
export async function runFingerprint(
  root: string,
  runId: string | undefined,
  skip: (name: string) => boolean = () => false,
): Promise<string> {
  const parts = [`runs/=${await statOf(root, 'runs')}`];
  if (runId === undefined) return parts.join('\n');
  let budget = MAX_ENTRIES;
  const walk = async (dir: string, top: boolean): Promise<void> => {
    let names: string[];
    try {
      names = ((await listInReview(root, dir)) ?? []).sort();
    } catch {
      parts.push(`${dir}/*=unreadable`);
      return;
    }
    for (const name of names) {
      if (top && skip(name)) continue;
      if (budget-- <= 0) {
        parts.push(`${dir}/#=${names.length}`);
        return;
      }
      const entry = await statOf(root, `${dir}/${name}`);
      parts.push(`${dir}/${name}=${entry}`);
      if (top && entry.startsWith('d:')) await walk(`${dir}/${name}`, false);
    }
  };
  await walk(`runs/${runId}`, true);
  return parts.join('\n');
}
