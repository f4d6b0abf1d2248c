/**
 * Taking inbox entries into a run record: a person's message becomes a `kind: "human"` message of the current iteration
 * (`turn` = their scheduled turn when the run waits for exactly that, else null), a pin is added to or removed from
 * `pins`. Applying is idempotent: an entry whose name a message already carries, a pin already there, an unpin of what
 * is not pinned change nothing — so an entry taken in twice (a crash between saving and deleting) is kept once.
 */
import { allMessages, messageId, type Message, type RunRecord } from '../record';
import type { ReceivedEntry } from './inbox';

export interface Applied {
  /** Entries now held by the record (or that can never apply): delete them from the inbox once the record is saved. */
  done: string[];
  /** Messages added, in order. */
  messages: { iteration: number; message: Message }[];
  /** True when pins changed. */
  pinsChanged: boolean;
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
  const out: Applied = { done: [], messages: [], pinsChanged: false };
  const taken = new Set(allMessages(record).map((x) => x.message.entry).filter(Boolean));
  for (const { name, entry } of entries) {
    if (entry.type === 'say') {
      const it = record.iterations.at(-1);
      if (!it) continue;
      if (taken.has(name)) {
        out.done.push(name);
        continue;
      }
      const target = slot ?? record.waitingFor;
      const answers = target && target.speaker === entry.speaker && target.iteration === it.index &&
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
      it.messages.push(message);
      taken.add(name);
      out.messages.push({ iteration: it.index, message });
    } else {
      const pins = (record.pins ??= []);
      const i = pins.findIndex((p) => p.message === entry.message);
      if (entry.remove) {
        if (i >= 0) {
          pins.splice(i, 1);
          out.pinsChanged = true;
        }
      } else if (i < 0 && allMessages(record).some((x) => x.message.id === entry.message)) {
        pins.push({ message: entry.message, by: entry.by, at: entry.at });
        out.pinsChanged = true;
      }
      if (pins.length === 0) record.pins = undefined;
    }
    out.done.push(name);
  }
  return out;
}
