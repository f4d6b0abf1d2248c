/**
 * The blind pair of a brief run (issue 17): the final revised brief and the direct baseline (baseline.md) copied to
 * runs/<run-id>/rerank/A.md and B.md in an order drawn from the run id (the same run always gives the same letters), and
 * key.json in the design runs' shape, each letter's kind `teamfusion` or `direct`. Built in a folder of its own under a
 * random name and moved into place, like the design re-rank set; an existing one is never overwritten. Every read and
 * write goes through the review-files room.
 */
import { createHash } from 'node:crypto';
import { FILE_KINDS, readKindText } from '../files/fileKinds';
import { ReviewFileError, statInReview } from '../files/reviewFiles';
import { writeInertMarkdown } from '../files/markdown';
import type { RunRecord } from '../record/record';
import { reviewRelative } from '../record/paths';
import { assignLetters, type RerankKey, type RerankSetResult } from './key';
import { buildRerankFolder } from './staging';
import { blindText } from './blindText';

/** The revised brief of the last round that has one, relative to the review root; undefined when none. */
export function finalBriefRel(record: RunRecord): string | undefined {
  const last = [...record.iterations].reverse().find((it) => it.brief);
  return last?.brief ? reviewRelative(record.id, last.brief.file) : undefined;
}

/** The sha256 run.json keeps for one of its brief files (the final revised brief or baseline.md), if any (older records: none). */
function keptSha256(record: RunRecord, rel: string): string | undefined {
  if (record.baseline && rel === reviewRelative(record.id, record.baseline.file)) return record.baseline.sha256;
  return record.iterations.find((it) => it.brief && reviewRelative(record.id, it.brief.file) === rel)?.brief?.sha256;
}

/** A revised brief or baseline of a run, read as its kind and refused (one sentence naming it) when it is not the file the run wrote. */
export async function readRunBrief(root: string, record: RunRecord, rel: string): Promise<string> {
  const text = await readKindText(root, rel, 'revisedBrief');
  const kept = keptSha256(record, rel);
  if (kept && createHash('sha256').update(text).digest('hex') !== kept) {
    throw new ReviewFileError(
      rel,
      `${rel} is not the file this run wrote (its sha256 differs from the one run.json keeps), so it is not used.`,
    );
  }
  return text;
}

/** Makes runs/<run-id>/rerank/{A.md,B.md,key.json} for a completed brief run (the caller checked status and absence). */
export async function makeBriefRerankSet(root: string, record: RunRecord): Promise<RerankSetResult> {
  const runId = record.id;
  const revised = finalBriefRel(record);
  if (!revised) throw new Error(`Run ${runId} wrote no revised brief, so there is nothing to compare.`);
  if (!record.baseline) throw new Error(`Run ${runId} has no direct baseline (baseline.md), so there is nothing to compare it with.`);
  const baseline = reviewRelative(runId, record.baseline.file);
  const texts = new Map<string, string>();
  for (const file of [revised, baseline]) {
    const st = await statInReview(root, file);
    if (!st?.isFile()) throw new Error(`Run ${runId} is missing ${file}; it is not a file.`);
    texts.set(file, await readRunBrief(root, record, file));
  }
  const key: RerankKey = assignLetters(runId, [
    { kind: 'teamfusion', id: 'revised', file: revised },
    { kind: 'direct', id: 'baseline', file: baseline },
  ]);
  // Nothing in A.md or B.md says which is which: lines naming the method, a round or a model go, recorded in the key.
  const models = [...new Set([record.settings.chatModel, ...record.prompts.map((p) => p.model ?? '')].filter(Boolean))];
  const blind = new Map<string, string>();
  let n = 0;
  for (const [letter, s] of Object.entries(key)) {
    const b = blindText(texts.get(s.file)!, models);
    blind.set(letter, b.text);
    if (b.removed.length) key[letter] = { ...s, removed: b.removed };
    n += b.removed.length;
  }
  // Said without naming the letter: whoever makes the pair may be one who reads it.
  const notes = n
    ? [
        `${n} line${n === 1 ? '' : 's'} naming how, in which round or by which model a revision was written ${n === 1 ? 'was' : 'were'} taken out of A.md and B.md or shortened (key.json records which).`,
      ]
    : [];
  const made = await buildRerankFolder(root, runId, key, async (staging) => {
    for (const letter of Object.keys(key))
      await writeInertMarkdown(root, `${staging}/${letter}.md`, blind.get(letter)!, {
        exclusive: true,
        cap: FILE_KINDS.revisedBrief.maxBytes,
      });
  });
  return notes.length ? { ...made, notes } : made;
}
