/**
 * Grounded messages (issue 32, item 3): what a proxy, a guest or the remix agent cites is checked against what its round
 * actually showed. A citation is an image label ("Image 9", "Reference 2"), a remix id ("remix r3"), or an @mention of a
 * member; it is grounded when the round showed it (its candidates' labels and remix ids, the run's references, the team's
 * ids and names). The rest is kept on the message as `ungrounded: [<the citation as written>, …]`.
 */

/** What one round showed the model. */
export interface Shown {
  /** "Image 3", "Reference 1": the labels of the round's candidates and the run's references. */
  labels: readonly string[];
  /** Remix ids among the round's candidates ("r1", "r2a"). */
  remixIds: readonly string[];
  /** The team's ids and names (for @mentions). */
  members: readonly string[];
}

const LABEL = /\b(image|reference)\s+#?(\d{1,4})\b/gi;
const REMIX = /\bremix\s+(r\d{1,3}[a-z]?)\b/gi;
const MENTION = /(?<![\w@])@([\p{L}\p{N}][\p{L}\p{N}._-]*)/gu;

const key = (s: string): string => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** Every citation of `text` the round did not show, as written, each once (in the order they first appear). */
export function ungroundedCitations(text: string, shown: Shown): string[] {
  const labels = new Set(shown.labels.map(key));
  const remixes = new Set(shown.remixIds.map(key));
  const members = new Set(shown.members.map(key));
  const out: string[] = [];
  const add = (s: string): void => {
    if (!out.includes(s)) out.push(s);
  };
  for (const m of text.matchAll(LABEL)) if (!labels.has(key(`${m[1]} ${m[2]}`))) add(m[0]);
  for (const m of text.matchAll(REMIX)) if (!remixes.has(key(m[1]!))) add(m[0]);
  for (const m of text.matchAll(MENTION)) {
    const name = m[1]!.replace(/[._-]+$/, '');
    if (!members.has(key(name)) && ![...members].some((x) => x.split(' ')[0] === key(name))) add(`@${name}`);
  }
  return out;
}

export interface Grounding {
  /** Model-written messages (proxies and guests). */
  messages: number;
  /** Ungrounded citations over them. */
  ungrounded: number;
  /** Ungrounded citations per 100 messages; null without messages. */
  per100: number | null;
}

/** A run's grounding count: model-written messages and the ungrounded citations recorded on them. */
export function groundingOf(record: {
  iterations: readonly { messages: readonly { kind?: string; ungrounded?: readonly string[] }[] }[];
}): Grounding {
  let messages = 0;
  let ungrounded = 0;
  for (const it of record.iterations) {
    for (const m of it.messages) {
      if ((m.kind ?? 'proxy') === 'human') continue;
      messages++;
      ungrounded += m.ungrounded?.length ?? 0;
    }
  }
  return { messages, ungrounded, per100: messages ? Math.round((ungrounded / messages) * 100 * 100) / 100 : null };
}

/** The remix agent's directions must rest on what the round showed: the problem in a sentence for a repair, or undefined. */
export function directionsProblem(directions: readonly (string | undefined)[], shown: Shown): string | undefined {
  const bad = [...new Set(directions.flatMap((t) => (t ? ungroundedCitations(t, { ...shown, members: shown.members }) : [])))];
  if (!bad.length) return undefined;
  return `the editing directions cite ${bad.join(', ')}, which this round did not show; cite only ${shown.labels.join(', ') || 'the candidates'}.`;
}
