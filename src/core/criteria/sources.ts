/**
 * What the criteria are found from (issue 34, item 1): the brief and each member's own words — a design review's
 * justifications (rankings/<id>.*), a brief review's comments (comments/<id>.md). Each source file is read once, capped as
 * its kind, and hashed; the hashes decide whether criteria.json is still current.
 */
import { LIMITS, readReviewBytes } from '../files/reviewFiles';
import type { Review } from '../review/model';
import type { RunTaskKind } from '../record/record';
import { sha256Of } from './model';

export interface MemberWords {
  id: string;
  name: string;
  role?: string;
  /** The member's own file, relative to the review root. */
  file: string;
  /** What they wrote, as sent: justifications per option (design) or the comment's body (brief). */
  words: { option?: string; text: string }[];
}

export interface CriteriaSources {
  task: RunTaskKind;
  brief: string;
  members: MemberWords[];
  /** Option ids (design reviews), in review order. */
  options: string[];
  /** Every file read → sha256 of its bytes. */
  hashes: Record<string, string>;
  /** Every file read → the texts a quote from it may be found in (its bytes as text, and what was parsed from it). */
  texts: Record<string, string[]>;
}

/** A member needs at least this many words of their own for the criteria to rest on. */
export const MIN_WORDS_PER_MEMBER = 5;

const wordCount = (s: string): number => s.split(/\s+/).filter(Boolean).length;

/** The task a review's criteria are about: its rankings when it has candidates, else its comments. */
export function criteriaTask(review: Review): RunTaskKind | undefined {
  if (review.options.length > 0 && review.designers.length > 0) return 'design';
  if (review.comments.length > 0) return 'brief';
  return undefined;
}

export async function readCriteriaSources(review: Review): Promise<CriteriaSources> {
  const task = criteriaTask(review);
  if (!task) throw new Error('The review has neither rankings nor comments, so there are no criteria to find; nothing was sent.');
  const hashes: Record<string, string> = {};
  const texts: Record<string, string[]> = {};
  const read = async (rel: string, cap: number, parsed: string[]): Promise<void> => {
    const bytes = await readReviewBytes(review.root, rel, cap);
    hashes[rel] = sha256Of(bytes);
    texts[rel] = [bytes.toString('utf8'), ...parsed];
  };
  await read('brief.md', LIMITS.brief, [review.brief]);
  const members: MemberWords[] = [];
  if (task === 'design') {
    for (const d of review.designers) {
      const words = d.entries.filter((e) => e.justification.trim()).map((e) => ({ option: e.option, text: e.justification.trim() }));
      await read(
        d.file,
        LIMITS.ranking,
        words.map((w) => w.text),
      );
      members.push({ id: d.id, name: d.name, ...(d.role ? { role: d.role } : {}), file: d.file, words });
    }
  } else {
    for (const c of review.comments) {
      await read(c.file, LIMITS.comment, [c.body]);
      members.push({ id: c.designer, name: c.name, ...(c.role ? { role: c.role } : {}), file: c.file, words: [{ text: c.body }] });
    }
  }
  return { task, brief: review.brief, members, options: task === 'design' ? review.options.map((o) => o.id) : [], hashes, texts };
}

/** Why there is nothing worth sending, in one sentence; undefined when at least two members wrote a few words of why. */
export function nothingWorthReading(s: CriteriaSources): string | undefined {
  const speaking = s.members.filter((m) => m.words.reduce((n, w) => n + wordCount(w.text), 0) >= MIN_WORDS_PER_MEMBER);
  if (speaking.length >= 2) return undefined;
  const what = s.task === 'design' ? 'justifications' : 'comments';
  return `Only ${speaking.length} of ${s.members.length} members wrote ${what} of ${MIN_WORDS_PER_MEMBER} words or more; criteria need at least two members' reasons, so nothing was sent.`;
}

/** The files whose bytes differ from `recorded` (changed, added or gone), sorted. */
export function changedSources(recorded: Record<string, string>, now: Record<string, string>): string[] {
  const files = new Set([...Object.keys(recorded), ...Object.keys(now)]);
  return [...files].filter((f) => recorded[f] !== now[f]).sort();
}
