/**
 * The scripted forecasts (`teamfusion_forecast`, issue 32/38): a proxy forecasts as its persona would, the control as
 * nobody in particular.
 * - brief: a member prefers the revision that carries more of their own comment's words (words of five letters or more,
 *   each counted once); as many: a tie. `memberPreference` is that rule, so the demo's scripted members answer by it too.
 * - design: a designer's order of the blind letters in their own view (personaView.ts), each letter known by its image
 *   as an earlier request of the run showed it under its label; a letter not seen before goes last, in letter order.
 * - the control: "tie" (brief), the letters in their order (design).
 */
import { requestTexts, type requestedJsonSchema } from './autoResponder';
import { isObject } from './openapiSchema';
import { personaView } from './personaView';
import { idsOf, LABEL, personaOf, remixFacts, roundLabels, type MadeFrom, type Persona } from './requestFacts';

const words = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{5,}/gu) ?? []);

/** Which of two revisions a member prefers by their own comment: the one holding more of its words, else a tie. */
export function memberPreference(comment: string, a: string, b: string): 'A' | 'B' | 'tie' {
  const mine = words(comment);
  const count = (t: string): number => [...words(t)].filter((w) => mine.has(w)).length;
  const [inA, inB] = [count(a), count(b)];
  return inA > inB ? 'A' : inB > inA ? 'B' : 'tie';
}

/** A JSON-quoted string that follows `lead` at the start of a line of `text`, as its text. */
function quotedAfter(text: string, lead: string): string | undefined {
  const m = new RegExp(`^${lead}("(?:[^"\\\\]|\\\\.)*")`, 'm').exec(text);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]!) as string;
  } catch {
    return undefined;
  }
}

/** What the run's requests have shown so far: each image (by its bytes) under its label, the remixes' making, ids' labels. */
export interface SeenImages {
  labels: Map<string, string>;
  facts: Map<string, MadeFrom>;
  /** A candidate's id → its label, as the remix agent's "Candidate ids:" line says. */
  ids: Map<string, string>;
}

const QUOTED = String.raw`"(?:[^"\\]|\\.)*"`;

/**
 * The persona of a forecast: the discussion's (personaOf), or the forecast's own ("You are role-playing "Ana": …" and
 * `- Option "1": rank 1 — "reason"` lines), its options under the labels the run gave them.
 */
function forecastPersona(body: unknown, ids: ReadonlyMap<string, string>): Persona | undefined {
  const text = requestTexts(body)
    .filter((t) => t.startsWith('You are role-playing '))
    .pop();
  if (!text) return undefined;
  const own = personaOf(body);
  if (own && own.ranking.length) return own;
  const name = new RegExp(`^You are role-playing (${QUOTED})`).exec(text)?.[1];
  if (!name) return undefined;
  const ranking: Persona['ranking'] = [];
  for (const m of text.matchAll(new RegExp(`^- Option (${QUOTED}): rank (\\d+)(?: \\([^)]*\\))? — (.*)$`, 'gm'))) {
    const id = JSON.parse(m[1]!) as string;
    const reason = m[3]!.trim();
    ranking.push({
      label: ids.get(id) ?? `Option ${id}`,
      rank: Number(m[2]),
      inRunning: true,
      reason: reason.startsWith('"') ? (JSON.parse(reason) as string) : reason,
    });
  }
  return { name: JSON.parse(name) as string, ranking };
}

/** An image's key: its data URL's length and two slices of it (no hash of every byte: the server stays as quick as it was). */
const fingerprint = (url: string): string => `${url.length}:${url.slice(-48)}:${url.slice(url.length >> 1, (url.length >> 1) + 48)}`;

/** The image parts of a request, each after the text part just before it. */
function labelledImages(body: unknown): Array<{ text: string; url: string }> {
  const out: Array<{ text: string; url: string }> = [];
  const messages = isObject(body) && Array.isArray(body.messages) ? body.messages : [];
  for (const m of messages) {
    if (!isObject(m) || !Array.isArray(m.content)) continue;
    let text = '';
    for (const p of m.content) {
      if (!isObject(p)) continue;
      if (typeof p.text === 'string') text = p.text;
      else if (isObject(p.image_url) && typeof p.image_url.url === 'string') out.push({ text, url: p.image_url.url });
    }
  }
  return out;
}

/** Learns a discussion request's labelled images and what its remixes were made from (a proxy turn's shared block). */
export function learnImages(seen: SeenImages, body: unknown): void {
  if (roundLabels(body).length === 0) return;
  for (const { text, url } of labelledImages(body)) if (new RegExp(`^${LABEL}$`).test(text)) seen.labels.set(fingerprint(url), text);
  for (const [label, m] of remixFacts(body)) seen.facts.set(label, m);
}

/** Learns the ids of a facilitator request's candidates (`Candidate ids: Image 1 = "1", …`). */
export function learnIds(seen: SeenImages, body: unknown): void {
  for (const [label, id] of idsOf(body).candidates) seen.ids.set(id, label);
}

/** The forecast's answer, or undefined when the request is not a forecast. */
export function forecastValue(
  body: unknown,
  wanted: ReturnType<typeof requestedJsonSchema>,
  seen: SeenImages,
): Record<string, unknown> | undefined {
  if (wanted?.name !== 'teamfusion_forecast' || !isObject(wanted.schema) || !isObject(wanted.schema.properties)) return undefined;
  const all = requestTexts(body).join('\n');
  if ('prefer' in wanted.schema.properties) {
    const comment = quotedAfter(all, String.raw`.*'s own comments on the brief \([^)]*\): `);
    const [a, b] = [quotedAfter(all, 'A: '), quotedAfter(all, 'B: ')];
    return { prefer: comment !== undefined && a !== undefined && b !== undefined ? memberPreference(comment, a, b) : 'tie' };
  }
  const letters = labelledImages(body)
    .map(({ text, url }) => ({ letter: /^Candidate (\w+):$/.exec(text)?.[1], url }))
    .filter((x): x is { letter: string; url: string } => x.letter !== undefined);
  const persona = forecastPersona(body, seen.ids);
  if (!persona) return { ranking: letters.map((l) => l.letter) };
  const labelOf = new Map(letters.map((l) => [l.letter, seen.labels.get(fingerprint(l.url))]));
  const known = letters.filter((l) => labelOf.get(l.letter) !== undefined);
  const view = personaView(
    persona,
    known.map((l) => labelOf.get(l.letter)!),
    seen.facts,
  );
  // Byte-identical images under two letters: each letter once, in the order the view gives their label.
  const ranked: string[] = [];
  for (const label of view.order) {
    const next = known.find((l) => labelOf.get(l.letter) === label && !ranked.includes(l.letter));
    if (next) ranked.push(next.letter);
  }
  return { ranking: [...ranked, ...letters.filter((l) => !ranked.includes(l.letter)).map((l) => l.letter)] };
}
