/**
 * What a journal line may say (issue 29): only what the driver would have written. A line is applied by a reader only when
 * it passes the schema every door shares (fields.ts: ids, lengths, a person's 4,000 characters, mentions once each) and
 * membership: a message of a member (a person's own message carries the inbox entry it came from, named for that person),
 * a pin by a designer of a message that exists, an entry id, a designer's proxy's ranking of every letter of a round's pool. Anything else is refused in words and never applied.
 */
import * as z from 'zod';
import { listInReview } from '../files/reviewFiles';
import { readKindText } from '../files/fileKinds';
import { parseReviewConfig } from '../review/reviewConfig';
import { designerKey } from '../rankings/designerId';
import { AtField, EntryIdField, MAX_SAY_CHARS, MentionsField, MessageIdField, PersonIdField, entryOf } from './fields';
import { MessageSchema, PinSchema, PromptRecordSchema, allMessages, type RunRecord } from './record';
import { RECORD_LIMITS } from './recordCheck';

const Iteration = z.number().int().positive();
/** A message as a journal line may carry it: ids and people's fields as at intake. */
const JournalMessageSchema = MessageSchema.extend({
  id: MessageIdField,
  speaker: PersonIdField,
  mentions: MentionsField.optional(),
  replyTo: MessageIdField.optional(),
  entry: EntryIdField.optional(),
  at: AtField.optional(),
}).strict();
const JournalPinSchema = PinSchema.extend({ message: MessageIdField, by: PersonIdField, at: AtField }).strict();

export const JournalLineSchema = z.union([
  z.object({ iteration: Iteration, message: JournalMessageSchema }).strict(),
  z.object({ iteration: Iteration, prompt: PromptRecordSchema }).strict(),
  z.object({ iteration: Iteration, pins: z.array(JournalPinSchema).max(RECORD_LIMITS.pins) }).strict(),
  z.object({ iteration: Iteration, takenIn: EntryIdField }).strict(),
  // A proxy's ranking of a round's pool (issue 41), best first: journaled, so a pool of many members is not a rewrite of
  // run.json per ranking.
  z
    .object({
      iteration: Iteration,
      poolRanking: z.object({ member: PersonIdField, ranking: z.array(z.string().regex(/^[a-z]$/)).max(26) }).strict(),
    })
    .strict(),
  z.object({ iteration: z.number().int().nonnegative(), checkpoint: AtField }).strict(),
]);
export type JournalLine = z.infer<typeof JournalLineSchema>;

/** Who is on the review's team, as its files name them: designers (rankings/, comments/) and guests (review.yaml). */
export interface Roster {
  designers: ReadonlySet<string>;
  guests: ReadonlySet<string>;
}

/** The team as the review's files name it (file names and review.yaml's guests; nothing else is read). */
export async function readRoster(reviewRoot: string): Promise<Roster> {
  const names = async (dir: string, ext: RegExp): Promise<string[]> =>
    ((await listInReview(reviewRoot, dir).catch(() => undefined)) ?? [])
      .filter((n) => ext.test(n))
      .map((n) => designerKey(n.replace(ext, '')));
  const designers = new Set([...(await names('rankings', /\.(ya?ml|json)$/i)), ...(await names('comments', /\.md$/i))]);
  let guests: string[] = [];
  try {
    const text = await readKindText(reviewRoot, 'review.yaml', 'reviewConfig');
    guests = (parseReviewConfig(text).config.guests ?? []).map((g) => designerKey(g.id));
  } catch {
    // No review.yaml (or one that cannot be read): no guests.
  }
  return { designers, guests: new Set(guests) };
}

/**
 * Why a well-formed line must not be applied over `record` (as it stands when the line comes), or undefined. Only people's
 * lines are judged here: messages, pins and pool rankings (prompts and checkpoints are checked by applyJournal's order rules).
 */
export function lineProblem(record: RunRecord, line: JournalLine, roster: Roster): string | undefined {
  const designer = (id: string): boolean => roster.designers.has(designerKey(id));
  const member = (id: string): boolean => designer(id) || roster.guests.has(designerKey(id));
  if ('message' in line) {
    const m = line.message;
    const kind = m.kind ?? 'proxy';
    if (kind === 'guest' ? !roster.guests.has(designerKey(m.speaker)) : !designer(m.speaker)) {
      return `Message ${m.id} is from "${m.speaker}", who is not ${kind === 'guest' ? 'a guest' : 'a designer'} of this review.`;
    }
    const stranger = (m.mentions ?? []).find((id) => !member(id));
    if (stranger) return `Message ${m.id} mentions "${stranger}", who is not on this review's team.`;
    if (m.replyTo && !allMessages(record).some((x) => x.message.id === m.replyTo))
      return `Message ${m.id} replies to ${m.replyTo}, which the run does not have.`;
    if (kind === 'human') {
      if (m.content.length > MAX_SAY_CHARS)
        return `Message ${m.id} is ${m.content.length} characters long; a person's message is at most ${MAX_SAY_CHARS}.`;
      if (!m.entry || !entryOf(m.entry, m.speaker))
        return `Message ${m.id} speaks for ${m.speaker} in person but does not come from an inbox entry of theirs.`;
    }
    return undefined;
  }
  if ('poolRanking' in line) {
    const { member, ranking } = line.poolRanking;
    if (!designer(member)) return `A ranking of the pool is by "${member}", who is not a designer of this review.`;
    const letters = record.iterations.find((x) => x.index === line.iteration)?.pool?.candidates.map((c) => c.letter);
    if (!letters) return `Iteration ${line.iteration} has no pool for ${member}'s proxy to rank.`;
    if (ranking.length !== letters.length || new Set(ranking).size !== ranking.length || ranking.some((l) => !letters.includes(l)))
      return `${member}'s proxy's ranking of the pool of iteration ${line.iteration} is not every letter of the pool (${letters.join(', ')}) once.`;
    return undefined;
  }
  if ('pins' in line) {
    const ids = new Set(allMessages(record).map((x) => x.message.id));
    const seen = new Set<string>();
    for (const p of line.pins) {
      if (!designer(p.by)) return `A pin of ${p.message} is by "${p.by}", who is not a designer of this review.`;
      if (!ids.has(p.message)) return `A pin names message ${p.message}, which the run does not have.`;
      if (seen.has(p.message)) return `Message ${p.message} is pinned twice.`;
      seen.add(p.message);
    }
  }
  return undefined;
}
