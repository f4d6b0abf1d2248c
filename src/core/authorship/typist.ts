/**
 * Who is at the keyboard (issue 39, item 2): this machine's git identity (`git config user.email`) as the team names it in
 * review.yaml — a member id, or the e-mail itself when it is no member's. A line, pin or vote entered here for another
 * member is typed for them, never theirs: it is marked `typedBy` and shown as "typed on <typist>'s machine for <member>";
 * with signatures required (review.yaml, or the member's own setting: ownSettings.ts, git config) it is refused whole.
 * Where the door checks nothing (outside git, no e-mails in review.yaml) nobody is told apart and nothing is marked.
 */
import { printable } from '../kernel/text';
import { sameDesigner } from '../rankings/designerId';

/** This machine's git identity, as the door resolved it. */
export interface Typist {
  /** `git config user.email` (undefined when it is not set). */
  email?: string;
  /** The member whose review.yaml e-mails hold it (designerKey form), when one does. */
  member?: string;
  /** Signatures are required (review.yaml or this member's own setting). */
  requireSigned: boolean;
}

/** What entering something for `member` on this machine comes to. */
export type Typing =
  /** The member's own (or nothing is checked): nothing to mark. */
  | { own: true }
  /** Typed for the member by `typedBy` (a member id, or this machine's e-mail). */
  | { own: false; typedBy: string }
  /** Not taken at all, with the sentence why. */
  | { own: false; refused: string };

/**
 * The one rule of who types for whom: `member` and `typist.member` compared as designer ids (any case, sameDesigner).
 * `what`: "a line", "a pin", "a vote"; `name`: a person's name for an id (or the id itself); `how`: how the member enters
 * it themself ("says it", "votes"); `ids`: the team's ids, so the typist is spelled as the team spells them.
 */
export function typingFor(
  typist: Typist | undefined,
  member: string,
  o: { what: string; name?: (id: string) => string; how?: string; ids?: readonly string[] } = { what: 'a line' },
): Typing {
  if (!typist) return { own: true };
  if (typist.member !== undefined && sameDesigner(typist.member, member)) return { own: true };
  const name = o.name ?? ((id: string) => id);
  const them = name(member);
  if (!typist.email) {
    return {
      own: false,
      refused: `This machine has no git user.email, so who types here cannot be told, and ${o.what} for ${printable(them)} is taken only from them (set git config user.email).`,
    };
  }
  const typedBy = typist.member !== undefined ? (o.ids?.find((id) => sameDesigner(id, typist.member!)) ?? typist.member) : typist.email;
  if (typist.requireSigned) {
    return {
      own: false,
      refused: `${capital(o.what)} typed on ${printable(typistName(typedBy, name))}'s machine for ${printable(them)} is not taken: with signatures required (requireSignedCommits) only ${printable(them)}'s own signed commit speaks for them, so ${printable(them)} ${o.how ?? 'says it'} on their own machine.`,
    };
  }
  return { own: false, typedBy };
}

/** A typist in words: a member's name, or the e-mail as it is. */
export function typistName(typedBy: string, name: (id: string) => string = (id) => id): string {
  return typedBy.includes('@') ? typedBy : name(typedBy);
}

/** "typed on Ana's machine for Ben" (plain words; the caller escapes them for Markdown or HTML). */
export function typedWords(typedBy: string, member: string, name: (id: string) => string = (id) => id): string {
  return `typed on ${typistName(typedBy, name)}'s machine for ${name(member)}`;
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
