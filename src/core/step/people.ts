/**
 * People in a run as every step sees them: the team, and the turn-boundary questions a step asks (what the inbox holds,
 * who speaks in person, which extra turn is next). The people room's driver (people/driver.ts) is the one implementation;
 * steps know only this interface, so the step room never depends on the people room.
 */
import type { DesignerRanking, Guest } from '../review/model';
import type { Iteration, WaitingFor } from '../record/record';
import type { Identities } from '../authorship/rule';

/** Who can speak in a run: the designers, the review's guests, who took over their proxy, who was called in. */
export interface Team {
  designers: readonly Pick<DesignerRanking, 'id' | 'name' | 'role'>[];
  guests: readonly Guest[];
  /** Designer ids who took over their proxy for this run. */
  humans: readonly string[];
  /** Guest ids called in for the whole run (once per iteration, after the designers). */
  calledGuests: readonly string[];
  lead?: string;
  /** The members' git e-mails (review.yaml team.<id>.git): over --sync, entries are checked against their commits. */
  identities?: Identities;
}

/** An extra turn asked for by an @mention: who speaks, and the message that asked. */
export interface ExtraTurn {
  speaker: string;
  kind: 'proxy' | 'guest';
  replyTo: string;
}

export interface People {
  readonly team: Team;
  /** Takes in what the inbox holds; `slot` is the scheduled turn the driver is at. Returns true when anything changed. */
  intake(slot?: WaitingFor): Promise<boolean>;
  /** Whether this designer took over their proxy for the run. */
  isHuman(designerId: string): boolean;
  /** Whether the person answered this turn in person, and whether the answer was "/pass". */
  answered(it: Iteration, speaker: string, turn: number): { answered: boolean; pass: boolean };
  /** The next turn an @mention asked for in this iteration, if any. */
  nextExtra(it: Iteration): ExtraTurn | undefined;
  /** The next called guest who has not spoken in this iteration, if any. */
  nextCalledGuest(it: Iteration): string | undefined;
  /** Waits for the person at this slot (holding or stopping, as the driver was made). */
  waitFor(slot: WaitingFor): Promise<void>;
}
