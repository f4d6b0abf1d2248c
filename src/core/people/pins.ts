/** Pinned messages as the prompts and files show them: who pinned what, resolved against the record. */
import { allMessages, type Message, type RunRecord } from '../record/record';
import { typedWords } from '../authorship/typist';

export interface PinnedLine {
  /** Name of who pinned it. */
  by: string;
  /** Name of who said it. */
  speaker: string;
  kind?: Message['kind'];
  content: string;
  message: string;
  /** The pinned message was typed on someone else's machine for its speaker (issue 39): "typed on Ana's machine for Ben". */
  typed?: string;
}

/** The record's pins in the order they were pinned (pins of messages that are not in the record are skipped). */
export function pinnedLines(record: Pick<RunRecord, 'pins' | 'iterations'>, nameOf: (id: string) => string): PinnedLine[] {
  if (!record.pins?.length) return [];
  const byId = new Map(allMessages(record).map((x) => [x.message.id, x.message]));
  return record.pins.flatMap((p) => {
    const m = byId.get(p.message);
    if (!m) return [];
    // A pin typed for its pinner on someone else's machine names both (issue 39).
    const by = p.typedBy !== undefined ? `${nameOf(p.by)} (${typedWords(p.typedBy, p.by, nameOf)})` : nameOf(p.by);
    const typed = m.typedBy !== undefined ? { typed: typedWords(m.typedBy, m.speaker, nameOf) } : {};
    return [{ by, speaker: nameOf(m.speaker), kind: m.kind, content: m.content, message: p.message, ...typed }];
  });
}

/** What people said in person (not passes) in the iterations before `index`, for the shared block of later rounds. */
export function earlierPeopleLines(record: Pick<RunRecord, 'iterations'>, index: number, nameOf: (id: string) => string) {
  return record.iterations
    .filter((it) => it.index < index)
    .flatMap((it) =>
      it.messages
        .filter((m) => m.kind === 'human' && !m.pass)
        .map((m) => ({
          iteration: it.index,
          name: nameOf(m.speaker),
          content: m.content,
          ...(m.typedBy !== undefined ? { typed: typedWords(m.typedBy, m.speaker, nameOf) } : {}),
        })),
    );
}
