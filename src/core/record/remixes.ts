/**
 * Several remixes a round (issue 19), read the same way everywhere: an iteration's one `remix` (every record before it, and
 * runs with one remix a round) or its `remixes`, each with the directions it was made from. Pure (types only), so the
 * webview bundle can use it too.
 */
import type { Checklist, Iteration, Remix, RunSettings } from './record';
import { poolSettingOf } from '../settings/discussionSettings';

/** Every remix an iteration made: its one `remix`, or the `remixes` of several (older records: the one). */
export function remixesOf(it: Pick<Iteration, 'remix' | 'remixes'>): Remix[] {
  return [...(it.remix ? [it.remix] : []), ...(it.remixes ?? [])];
}

/**
 * The letter a remix's id and file carry (issues 19, 41), the one rule every writer and checker follows: its proposal's
 * letter only when the round makes more than one remix (`r<k><letter>`, `iteration-<k>/remix-<letter>.png`, in `remixes`).
 * A round of one remix (a pooled round that elected one direction) is `r<k>`, `iteration-<k>/remix.png`, its one `remix`,
 * which keeps the proposal's letter as `letter`.
 */
export function idLetterOf(it: Pick<Iteration, 'proposals'>, letter: string | undefined): string | undefined {
  return letter !== undefined && (it.proposals?.length ?? 0) > 1 ? letter : undefined;
}

/** The remix made from the round's proposal `letter` (in `remixes`, or the round's one `remix`); undefined while not made. */
export function remixOfLetter(it: Pick<Iteration, 'remix' | 'remixes'>, letter: string): Remix | undefined {
  return remixesOf(it).find((m) => m.letter === letter);
}

/** A remix with the directions it was made from (its proposal's, or the iteration's when there is one remix). */
export interface RemixMade extends Remix {
  editingDirections?: string;
  editingDirectionsDiscussed?: string;
  idea?: string;
}

/** Every remix of an iteration with its own directions. */
export function remixesWithDirections(
  it: Pick<Iteration, 'remix' | 'remixes' | 'proposals' | 'editingDirections' | 'editingDirectionsDiscussed'>,
): RemixMade[] {
  return remixesOf(it).map((r) => {
    const p = r.letter ? it.proposals?.find((x) => x.letter === r.letter) : undefined;
    if (p)
      return {
        ...r,
        editingDirections: p.editingDirections,
        ...(p.editingDirectionsDiscussed ? { editingDirectionsDiscussed: p.editingDirectionsDiscussed } : {}),
        ...(p.idea ? { idea: p.idea } : {}),
      };
    if (r.letter) return { ...r };
    return {
      ...r,
      ...(it.editingDirections ? { editingDirections: it.editingDirections } : {}),
      ...(it.editingDirectionsDiscussed ? { editingDirectionsDiscussed: it.editingDirectionsDiscussed } : {}),
    };
  });
}

/** A must-have of the brief (issue 41) that the remixes of a round failed, with the remixes that failed it. */
export interface FailedMustHave {
  text: string;
  quote: string;
  remixes: string[];
}

/** The checklist items the remixes of the round before `index` failed (issue 41), in item order. */
export function failedMustHaves(
  record: { checklist?: Checklist; iterations: readonly Pick<Iteration, 'index' | 'remix' | 'remixes'>[] },
  index: number,
): FailedMustHave[] {
  const before = record.iterations.find((x) => x.index === index - 1);
  if (!record.checklist || !before) return [];
  return record.checklist.items.flatMap((item) => {
    const remixes = remixesOf(before)
      .filter((m) => m.checks?.some((c) => c.item === item.id && c.result === 'fail'))
      .map((m) => m.id);
    return remixes.length ? [{ text: item.text, quote: item.quote, remixes }] : [];
  });
}

/** What a fork remix's card says (issue 33): the side it takes, of which decision point. */
export function forkSideText(fork: NonNullable<Remix['fork']>): string {
  return `Takes the side "${fork.position}" of decision point ${fork.decisionPoint}: ${fork.question}`;
}

/**
 * Sets of directions the remix agent proposes a remix round (issue 41): the run's recorded `pool` (absent, as in records
 * from before pools were on by default: 1, no pool; a new run records DEFAULT_POOL). Only a pool larger than one is ranked
 * and elected; it is never smaller than the remixes a round makes.
 */
export function poolOf(s: Pick<RunSettings, 'pool' | 'remixesPerIteration'>): number {
  const pool = poolSettingOf(s);
  return pool > 1 ? Math.max(pool, remixesPerIterationOf(s)) : 1;
}

/** Remixes a round of this run makes (older records: 1). */
export function remixesPerIterationOf(s: Pick<RunSettings, 'remixesPerIteration'>): number {
  return s.remixesPerIteration ?? 1;
}

/** A remix by both its names: the image label the discussion uses ("Image 7") and its id ("r1"), and the round that made it. */
export interface RemixName {
  id: string;
  label: string;
  round: number;
}

/** Every remix of a run in the order made, with the label it was given when it joined the candidates. */
export function remixNames(record: {
  iterations: readonly Pick<Iteration, 'index' | 'remix' | 'remixes'>[];
  options: readonly { id: string; label: string }[];
}): RemixName[] {
  return record.iterations.flatMap((it) =>
    remixesOf(it).map((r) => ({
      id: r.id,
      label: record.options.find((o) => o.id === r.id)?.label ?? r.id,
      round: it.index,
    })),
  );
}

/**
 * Whether the remix ids skip: an id is "r" and the round that made it (and a letter when a round made several), so a
 * round that made no remix leaves a gap (r1, r3) that needs saying.
 */
export function remixIdsJump(names: readonly RemixName[]): boolean {
  const rounds = [...new Set(names.map((n) => n.round))];
  return rounds.some((round, i) => round !== i + 1);
}

/** The sentence that explains the ids, said where they jump. */
export const REMIX_ID_NOTE =
  'A remix id is "r" and the round that made it (with a letter when a round made several), so a round without a remix ' +
  'leaves a gap; its image number is the next one free after every candidate before it.';
