/**
 * THE fields people put into a run (issue 29): one schema at every door. An inbox entry (`say`, `pin`, a file pulled
 * through git), a journal line and the record's own fields are checked by these same pieces, so nothing the tool accepts
 * at intake can later make a reader refuse the run, and nothing a reader refuses could have been accepted at intake.
 */
import * as z from 'zod';
import { DESIGNER_ID_PATTERN, sameDesigner } from '../rankings/designerId';

/** A person's message is at most this long (characters), at `say` and in the journal alike. */
export const MAX_SAY_CHARS = 4000;
/** Ids named with @ in one message. */
export const MAX_MENTIONS = 100;
/** Longest time stamp a person's entry may carry (an ISO time is 24). */
export const MAX_AT_CHARS = 40;

/** A designer or guest id: letters, digits, ".", "_", "-", at most 100 characters. */
export const PersonIdField = z
  .string()
  .max(100)
  .regex(DESIGNER_ID_PATTERN, { error: 'must be a person id (letters, digits, ".", "_", "-"; at most 100 characters)' });

/** A criterion of the team (criteria.json): its short name, one line. */
export const CriterionNameField = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[^\u0000-\u001f\u007f-\u009f]+$/, { error: 'must be one line without control characters' });
/** A criterion's one-sentence description, one line. */
export const CriterionTextField = z
  .string()
  .max(600)
  .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, { error: 'must be one line without control characters' });

/** `i<iteration>-m<index>`. */
export const MessageIdField = z
  .string()
  .max(24)
  .regex(/^i[1-9]\d{0,5}-m[1-9]\d{0,6}$/, { error: 'must be a message id like i1-m3' });

/** An inbox entry's id (its file name without `.json`): `<designer-id>-<time>-<seq>-<rand>`. */
export const ENTRY_ID_PATTERN = /^([A-Za-z0-9][A-Za-z0-9._-]{0,99})-(\d{13})-(\d{6})-([0-9a-f]{8})$/;
/** Entries of records from before people were named in the file name have no `<designer-id>-`: the record may keep them. */
export const LEGACY_ENTRY_ID_PATTERN = /^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,99}-)?\d{13}-\d{6}-[0-9a-f]{8}$/;

/** An entry id as the record keeps it (`takenIn`, a message's `entry`). */
export const EntryIdField = z
  .string()
  .max(200)
  .regex(LEGACY_ENTRY_ID_PATTERN, { error: 'must be an inbox entry id like ana-1700000000000-000001-0a1b2c3d' });

/** The person an entry id names (its `<designer-id>-` prefix), or undefined when it names nobody. */
export function entryOwner(id: string): string | undefined {
  return ENTRY_ID_PATTERN.exec(id)?.[1];
}

/** Does the entry id name this person? */
export function entryOf(id: string, person: string): boolean {
  const owner = entryOwner(id);
  return owner !== undefined && sameDesigner(owner, person);
}

export const AtField = z.string().min(1).max(MAX_AT_CHARS);
export const SayTextField = z.string().min(1).max(MAX_SAY_CHARS);

/** Ids named with @, in order, each once. */
export const MentionsField = z
  .array(PersonIdField)
  .max(MAX_MENTIONS)
  .refine((ids) => new Set(ids.map((x) => x.toLowerCase())).size === ids.length, { error: 'names the same person twice' });

/**
 * Who typed a person's line, pin or vote for them on their own machine (issue 39): this machine's git identity as the team
 * names it — a member id, or its git e-mail when it is no member's. Present only when the typist is not the person.
 */
export const TypedByField = z
  .string()
  .max(254)
  .regex(/^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,99}|[^\s@<>"\u0000-\u001f\u007f-\u009f]{1,200}@[^\s@<>"\u0000-\u001f\u007f-\u009f]{1,200})$/, {
    error: 'must be a member id or a git e-mail',
  });
