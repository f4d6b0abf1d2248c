/**
 * What a TeamFusion request says about its run, read from its own text (for the scripted demo's answers, runAnswers.ts):
 * the speaking designer and their ranking with reasons, the candidates of this round, what each remix was made from,
 * the ids the facilitator is told, and the orders the proxies gave in this round's transcript.
 */
import { isObject } from './openapiSchema';
import { requestTexts } from './autoResponder';

/** One line of a persona's own ranking: `- Image 6: rank 1 — reason`. */
export interface RankedLine {
  label: string;
  rank: number;
  inRunning: boolean;
  reason: string;
}

export interface Persona {
  name: string;
  ranking: RankedLine[];
}

/** The text a proxy starts its order with; runAnswers writes it, and reads it back from the transcript. */
export const ORDER_LEAD = 'My order for this round:';

/** A candidate's label as prompts write it: `Image 3`, or `Image 7 (remix r1a)`. */
export const LABEL = String.raw`Image [\w.-]+(?: \(remix [\w-]+\))?`;

/** The persona of the request's speaker: the last "You are role-playing …" text and its ranking lines. */
export function personaOf(body: unknown): Persona | undefined {
  const text = requestTexts(body)
    .filter((t) => t.startsWith('You are role-playing '))
    .pop();
  if (!text) return undefined;
  // Names and reasons reach prompts quoted as JSON strings (the members' data); read them back as the text they are.
  const raw = /^You are role-playing (.+?)(?: \((?:role )?[^)]*\))?\. Speak as/.exec(text)?.[1];
  if (!raw) return undefined;
  const name = unquote(raw);
  const ranking: RankedLine[] = [];
  for (const m of text.matchAll(/^- (Image [^:\n]+): rank (\d+)( \(no longer in the running\))? — (.*)$/gm)) {
    ranking.push({ label: m[1]!, rank: Number(m[2]), inRunning: !m[3], reason: unquote(m[4]!.trim()) });
  }
  return { name, ranking };
}

/** The labels of this round's candidates, in the order the request shows them (after "The candidates in this round (N)"). */
export function roundLabels(body: unknown): string[] {
  const texts = requestTexts(body);
  let at = -1;
  let n = 0;
  texts.forEach((t, i) => {
    const m = /^The candidates in this round \((\d+)\)/.exec(t);
    if (m) [at, n] = [i, Number(m[1])];
  });
  if (at < 0) return [];
  return texts.slice(at + 1, at + 1 + n).filter((t) => new RegExp(`^${LABEL}$`).test(t));
}

/** What a remix was made from (its sources, in order) and the side of a fork it takes, as the shared block says. */
export interface MadeFrom {
  from: string[];
  /** The fork's side ("Image 6 leads"), when its directions take one. */
  side?: string;
  /** What leads it: the image its side names, else its first source. */
  lead: string;
}

/** Each remix of the earlier rounds: "Image 7 (remix r1) was made from Image 1, Image 2 … This remix takes one side only: …". */
export function remixFacts(body: unknown): Map<string, MadeFrom> {
  const out = new Map<string, MadeFrom>();
  const made = new RegExp(`(${LABEL}) was made from ((?:${LABEL}(?:, | and )?)+)`, 'g');
  for (const t of requestTexts(body)) {
    const found = [...t.matchAll(made)];
    found.forEach((m, i) => {
      const from = [...m[2]!.matchAll(new RegExp(LABEL, 'g'))].map((x) => x[0]);
      const rest = t.slice(m.index! + m[0].length, found[i + 1]?.index ?? t.length);
      const side = /This remix takes one side only: (.+?)\.(?= |\n|$)/.exec(rest)?.[1];
      const named = side && new RegExp(`^(${LABEL}) leads$`).exec(side)?.[1];
      out.set(m[1]!, { from, ...(side ? { side } : {}), lead: named || from[0]! });
    });
  }
  return out;
}

/** What each remix was made from, as the shared block says ("Image 7 (remix r1) was made from Image 1, Image 2, …"). */
export function remixSources(body: unknown): Map<string, string[]> {
  return new Map([...remixFacts(body)].map(([l, f]) => [l, f.from]));
}

/** `Candidate ids: Image 1 = "1", …` and `Designer ids: "ana" = Ana Ruiz (Art Director), …` of a facilitator request. */
export function idsOf(body: unknown): { candidates: Map<string, string>; designers: Map<string, string> } {
  const all = requestTexts(body).join('\n');
  const candidates = new Map<string, string>();
  const designers = new Map<string, string>();
  const c = /^Candidate ids: (.*)$/m.exec(all)?.[1] ?? '';
  for (const m of c.matchAll(/(Image [^=,]+?) = "([^"]+)"/g)) candidates.set(m[1]!, m[2]!);
  const d = /Designer ids: (.*)$/m.exec(all)?.[1] ?? '';
  // `"ana" = "Ana Ruiz" (role "Art Director")` (names quoted as data), or `"ana" = Ana Ruiz (Art Director)`.
  for (const m of d.matchAll(/"([^"]+)" = ("(?:[^"\\]|\\.)*"|[^"(,]+)/g)) designers.set(unquote(m[2]!.trim().replace(/\.$/, '')), m[1]!);
  return { candidates, designers };
}

/** The transcript lines of the request (`Name: text` user messages), in order. */
export function transcript(body: unknown): Array<{ speaker: string; text: string }> {
  const out: Array<{ speaker: string; text: string }> = [];
  const messages = isObject(body) && Array.isArray(body.messages) ? body.messages : [];
  for (const m of messages) {
    if (!isObject(m) || m.role !== 'user' || typeof m.content !== 'string') continue;
    const line = /^([^:\n]{1,120}): ([\s\S]*)$/.exec(m.content);
    if (line) out.push({ speaker: unquote(line[1]!), text: line[2]! });
  }
  return out;
}

/** Each speaker's last stated order in the transcript (`My order for this round: Image 1, Image 5, …`). */
export function statedOrders(body: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { speaker, text } of transcript(body)) {
    const at = text.indexOf(ORDER_LEAD);
    if (at < 0) continue;
    const list = text.slice(at + ORDER_LEAD.length).split('.')[0]!;
    out.set(
      speaker,
      [...list.matchAll(new RegExp(LABEL, 'g'))].map((m) => m[0]),
    );
  }
  return out;
}

/** A JSON-quoted string as its text; anything else as it is. */
function unquote(s: string): string {
  if (!/^".*"$/.test(s)) return s;
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'string' ? v : s;
  } catch {
    return s;
  }
}
