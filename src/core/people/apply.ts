/**
 * Taking inbox entries into a run record: a person's message becomes a `kind: "human"` message of the current iteration
 * (`turn` = their scheduled turn when the run waits for exactly that, else null), a pin is added to or removed from
 * `pins`. Applying is idempotent: an entry the record lists in `takenIn` (or whose name a message carries, in records
 * from before `takenIn`), a pin already there, an unpin of what is not pinned change nothing — so an entry that comes
 * back (a crash between saving and deleting, a merge that restores a deleted file, a second pull) is kept once.
 */
import { allMessages, messageId, type Message, type RunRecord } from '../record/record';
import { entryTypist, type InboxEntry, type ReceivedEntry } from './inbox';

export interface Applied {
  /** Entries now held by the record (or that can never apply): delete them from the inbox once the record is saved. */
  done: string[];
  /** Messages added, in order. */
  messages: { iteration: number; message: Message }[];
  /** True when pins changed. */
  pinsChanged: boolean;
  /** True when the record changed (a message, a pin, or only its `takenIn` list): save it before deleting `done`. */
  changed: boolean;
  /** Entries taken in that changed nothing, and why (a pin of a message the run does not have). */
  skipped: { name: string; why: string }[];
}

/** Names of the inbox entries the record holds (its `takenIn`, and the entries its messages came from). */
function takenNames(record: RunRecord): Set<string> {
  return new Set([...allMessages(record).flatMap((x) => (x.message.entry ? [x.message.entry] : [])), ...(record.takenIn ?? [])]);
}

/** The entries the record does not hold yet: what a person said or pinned that no driver has taken in (shown as pending). */
export function notTakenIn(record: RunRecord, entries: readonly ReceivedEntry[]): ReceivedEntry[] {
  const taken = takenNames(record);
  return entries.filter((e) => !taken.has(e.name));
}

/**
 * Applies entries in order. `slot` is the scheduled turn the driver is at (a person who took over answers it); without a
 * driver, `record.waitingFor` is that slot. Entries for a record with no iteration yet stay in the inbox.
 */
export function applyEntries(
  record: RunRecord,
  entries: readonly ReceivedEntry[],
  slot?: { speaker: string; iteration: number; turn: number },
): Applied {
  const out: Applied = { done: [], messages: [], pinsChanged: false, changed: false, skipped: [] };
  const taken = takenNames(record);
  const done = (name: string): void => {
    out.done.push(name);
    if (!record.takenIn?.includes(name)) {
      (record.takenIn ??= []).push(name);
      out.changed = true;
    }
  };
  for (const { name, entry } of entries) {
    if (taken.has(name)) {
      out.done.push(name);
      continue;
    }
    if (entry.type === 'say') {
      const it = record.iterations.at(-1);
      if (!it) continue;
      const target = slot ?? record.waitingFor;
      const answers =
        target &&
        target.speaker === entry.speaker &&
        target.iteration === it.index &&
        !it.messages.some((m) => m.speaker === entry.speaker && m.kind === 'human' && m.turn === target.turn);
      const message: Message = {
        id: messageId(it.index, it.messages.length + 1),
        kind: 'human',
        speaker: entry.speaker,
        turn: answers ? target.turn : null,
        content: entry.content,
        at: entry.at,
        entry: name,
      };
      if (entry.pass) message.pass = true;
      if (entry.mentions?.length) message.mentions = entry.mentions;
      const typist = entryTypist(entry);
      if (typist !== undefined) message.typedBy = typist;
      it.messages.push(message);
      out.messages.push({ iteration: it.index, message });
    } else if (entry.type === 'criterion') {
      applyCriterionPin(record, entry);
      out.pinsChanged = true;
    } else {
      const pins = (record.pins ??= []);
      const i = pins.findIndex((p) => p.message === entry.message);
      if (entry.remove) {
        if (i >= 0) {
          pins.splice(i, 1);
          out.pinsChanged = true;
        }
      } else if (i < 0 && allMessages(record).some((x) => x.message.id === entry.message)) {
        const typist = entryTypist(entry);
        pins.push({ message: entry.message, by: entry.by, at: entry.at, ...(typist !== undefined ? { typedBy: typist } : {}) });
        out.pinsChanged = true;
      } else if (i < 0) {
        out.skipped.push({ name, why: `it pins ${entry.message}, which run ${record.id} does not have` });
      }
      if (pins.length === 0) record.pins = undefined;
    }
    taken.add(name);
    done(name);
  }
  return out;
}

/** A criterion pinned or unpinned by a member: kept once by name (case-insensitive); an unpin of what is not pinned changes nothing. */
function applyCriterionPin(record: RunRecord, entry: Extract<InboxEntry, { type: 'criterion' }>): void {
  const pinned = record.criteria?.pinned ?? [];
  const rest = pinned.filter((p) => p.name.toLowerCase() !== entry.criterion.toLowerCase());
  const typist = entryTypist(entry);
  const next = entry.remove
    ? rest
    : [
        ...rest,
        {
          name: entry.criterion,
          description: entry.description,
          by: entry.by,
          at: entry.at,
          ...(typist !== undefined ? { typedBy: typist } : {}),
        },
      ].slice(-12);
  const { pinned: _old, ...others } = record.criteria ?? {};
  const criteria = next.length ? { ...others, pinned: next } : others;
  if (Object.keys(criteria).length) record.criteria = criteria;
  else delete record.criteria;
}
