/**
 * Who can speak in a run: the designers (each may speak in person or through their proxy) and the review's guests.
 * Mentions, say/pin checks and the prompts all look people up here.
 */
import type { DesignerComment, DesignerRanking, Guest, ReviewConfig } from '../review/model';
import { identitiesOf } from '../authorship/rule';
import { taskOf, type RunRecord } from '../record/record';
import { topChoiceOf } from '../analysis/stance';
import { printable } from '../kernel/text';
import { sameDesigner } from '../rankings/designerId';
import { MAX_SAY_CHARS } from '../record/fields';
import type { Team } from '../step/people';

/** The members of a review who speak in a run: the rankings' designers in a design run, the comments' authors in a brief run. */
type Members = {
  designers: readonly Pick<DesignerRanking, 'id' | 'name' | 'role'>[];
  comments?: readonly Pick<DesignerComment, 'designer' | 'name' | 'role'>[];
  config: { guests?: Guest[]; lead?: string } & Pick<ReviewConfig, 'team' | 'requireSignedCommits'>;
};

/**
 * The team of a run: designers and guests of the review, humans and called guests from the run's settings. A brief run's
 * members are the authors of comments/ (the same intake for both kinds of run: people say and pin in either).
 */
export function teamOf(review: Members, record?: Pick<RunRecord, 'settings' | 'task'>): Team {
  const brief = record ? taskOf(record) === 'brief' : review.designers.length === 0;
  const commenters = (review.comments ?? []).map((c) => ({ id: c.designer, name: c.name, role: c.role }));
  return {
    designers: brief ? commenters : review.designers,
    guests: review.config.guests ?? [],
    humans: record?.settings.humans ?? [],
    calledGuests: record?.settings.guests ?? [],
    lead: review.config.lead,
    identities: identitiesOf(review.config),
  };
}

/** Is `id` one of the team's designers (the people who may have entries in a run's inbox)? */
export function isDesigner(team: Team, id: string): boolean {
  return team.designers.some((d) => sameDesigner(d.id, id));
}

/** A designer or guest id as the team spells it (ids match case-insensitively, as file names do). */
export function findPerson(team: Team, id: string): { kind: 'designer' | 'guest'; id: string; name: string; role?: string } | undefined {
  const key = id.toLowerCase();
  const d = team.designers.find((x) => x.id.toLowerCase() === key);
  if (d) return { kind: 'designer', id: d.id, name: d.name, role: d.role };
  const g = team.guests.find((x) => x.id.toLowerCase() === key);
  if (g) return { kind: 'guest', id: g.id, name: g.name, role: g.role };
  return undefined;
}

export function personName(team: Team, id: string): string {
  return findPerson(team, id)?.name ?? id;
}

export function isHuman(team: Team, designerId: string): boolean {
  return team.humans.some((h) => h.toLowerCase() === designerId.toLowerCase());
}

/** `@ana`, `@client`: an @ at the start or after a space or opening punctuation, then an id (a trailing dot is not part of it). */
const MENTION = /(^|[\s(["'“‘,;:])@([A-Za-z0-9][A-Za-z0-9._-]*)/g;

/** The ids named with @ in a text, in the order named, each once, as written (trailing "." or "-" dropped). */
export function mentionedIds(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(MENTION)) {
    const id = m[2]!.replace(/[._-]+$/, '');
    if (id && !out.some((x) => x.toLowerCase() === id.toLowerCase())) out.push(id);
  }
  return out;
}

/** A person's message as people type it: "/pass" (any case, alone) lets the proxy speak that turn. */
export function isPass(text: string): boolean {
  return /^\/pass$/i.test(text.trim());
}

/** Checks a person's message before anything is written. Returns the mentions resolved to team ids, or a reason in words. */
export function checkSay(
  team: Team,
  record: Pick<RunRecord, 'id' | 'status'>,
  speaker: string,
  text: string,
): { ok: true; speaker: string; mentions: string[]; pass: boolean } | { ok: false; error: string } {
  if (record.status === 'completed') {
    return { ok: false, error: `Run ${record.id} is completed; nobody can speak in it any more (refine it with feedback instead).` };
  }
  // Cheap caps first: a message too long is refused before anything is looked at in it.
  if (text.length > MAX_SAY_CHARS) {
    return {
      ok: false,
      error: `The message is ${text.length} characters long; a message is at most ${MAX_SAY_CHARS} (docs/security.md "Limits"). Say it in shorter parts.`,
    };
  }
  const who = team.designers.find((d) => sameDesigner(d.id, speaker));
  if (!who) {
    const known = team.designers.map((d) => d.id).join(', ');
    return {
      ok: false,
      error: `"${printable(speaker.length > 100 ? `${speaker.slice(0, 100)}…` : speaker)}" is not a designer of this review (designers: ${known}).`,
    };
  }
  if (!text.trim()) return { ok: false, error: 'The message is empty; write what you want to say (or /pass at your turn).' };
  const pass = isPass(text);
  const mentions: string[] = [];
  for (const id of pass ? [] : mentionedIds(text)) {
    const p = findPerson(team, id);
    if (!p) {
      const known = [...team.designers.map((d) => d.id), ...team.guests.map((g) => g.id)].join(', ');
      return { ok: false, error: `@${id} names nobody in this review (designers and guests: ${known}).` };
    }
    if (!mentions.includes(p.id)) mentions.push(p.id);
  }
  return { ok: true, speaker: who.id, mentions, pass };
}

/** Everyone the files name: the designers (with their top choice, for the stance table), then the guests (marked). */
export function peopleOf(review: {
  designers: readonly Pick<DesignerRanking, 'id' | 'name' | 'role' | 'entries'>[];
  config: { guests?: Guest[] };
}) {
  return [
    ...review.designers.map((d) => ({ id: d.id, name: d.name, role: d.role, topChoice: topChoiceOf(d.entries) })),
    ...(review.config.guests ?? []).map((g) => ({ id: g.id, name: g.name, role: g.role, guest: true })),
  ];
}

/**
 * An inbox entry is a file in the review folder like any other (untrusted): it is taken in only when it names a designer
 * of the run (and, for a message, known @mentions). Returns why not, or undefined when it may be taken in.
 */
export function entryProblem(
  team: Team,
  entry: { type: 'say'; speaker: string; mentions?: string[] } | { type: 'pin' | 'criterion'; by: string },
): string | undefined {
  const who = entry.type === 'say' ? entry.speaker : entry.by;
  if (!team.designers.some((d) => d.id === who)) return `"${who}" is not a designer of this run`;
  if (entry.type === 'say') {
    const unknown = (entry.mentions ?? []).find((id) => !findPerson(team, id));
    if (unknown) return `@${unknown} names nobody in this review`;
  }
  return undefined;
}
