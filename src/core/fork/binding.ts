/**
 * A decision binds the next round (issue 38). When people settle a design fork — the team's vote, or the lead in person —
 * the first round planned after it carries the chosen side's remix among its candidates and sets aside the remixes of the
 * sides not chosen, recorded on that round as `setAside: [{ id, question, decidedIn }]`. A remix once set aside is never a
 * candidate again, nor the final pick. A reopened decision binds nothing more (what it set aside stays aside); a decision
 * whose side was set aside already is said and kept as history. Undecided forks go on as before. Pure: the planner of the
 * next round, the final pick, result.md and the vote read the rule from here.
 */
import type { Iteration } from '../record/record';
import { remixesOf } from '../record/remixes';
import { stands } from '../record/decisions';

export type SetAside = NonNullable<Iteration['setAside']>[number];
type Decision = NonNullable<Iteration['decisions']>[number];

/** A person's decision (a vote, the lead in person) not reopened: the one kind that binds later rounds. */
export function decisionInForce(d: Decision): boolean {
  return d.via === 'human' && stands(d);
}

const same = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/** A decision in force on a fork of a design round: the chosen side's remix and the others'. */
interface Binding {
  decidedIn: number;
  question: string;
  decision: string;
  chosen: string | undefined;
  others: string[];
}

function bindings(iterations: readonly Iteration[]): Binding[] {
  return iterations.flatMap((it) =>
    (it.decisions ?? []).filter(decisionInForce).flatMap((d) => {
      const sides = remixesOf(it).filter((m) => m.fork && same(m.fork.question, d.question));
      if (sides.length < 2) return [];
      const chosen = sides.find((m) => same(m.fork!.position, d.decision))?.id;
      return [
        {
          decidedIn: it.index,
          question: d.question,
          decision: d.decision,
          chosen,
          others: sides.filter((m) => m.id !== chosen).map((m) => m.id),
        },
      ];
    }),
  );
}

/** Every remix id set aside so far (by any round's `setAside`): never a candidate again, nor the final pick. */
export function setAsideIds(iterations: readonly Pick<Iteration, 'setAside'>[]): Set<string> {
  return new Set(iterations.flatMap((it) => (it.setAside ?? []).map((s) => s.id)));
}

/** What the next round takes from the decisions made so far. */
export interface NextRoundBinding {
  /** The remixes this round sets aside (not yet set aside by an earlier round). */
  setAside: SetAside[];
  /** The chosen sides' remixes this round carries among its candidates. */
  carried: string[];
  /** Every id no longer in the running: set aside earlier or now. */
  excluded: Set<string>;
  /** Sentences to say: what this round carries and sets aside, and decisions that name a side no longer in the running. */
  said: string[];
}

/** How the decisions in force bind round `index`, the next one planned (its candidates not chosen yet). */
export function bindNextRound(iterations: readonly Iteration[], index: number): NextRoundBinding {
  const before = setAsideIds(iterations);
  const excluded = new Set(before);
  const out: NextRoundBinding = { setAside: [], carried: [], excluded, said: [] };
  for (const b of bindings(iterations)) {
    const side = `"${b.decision}" (decided on "${b.question}" in round ${b.decidedIn})`;
    if (b.chosen === undefined || before.has(b.chosen)) {
      // Said every round it matters: the decision stays in its round, as history.
      if (b.chosen !== undefined)
        out.said.push(
          `The side ${side} is no longer in the running: its remix ${b.chosen} was set aside by an earlier decision; the decision is kept as history and binds nothing.`,
        );
      continue;
    }
    const fresh = b.others.filter((id) => !before.has(id));
    if (fresh.length === 0) continue;
    for (const id of fresh) {
      out.setAside.push({ id, question: b.question, decidedIn: b.decidedIn });
      excluded.add(id);
    }
    out.carried.push(b.chosen);
    out.said.push(`Round ${index} carries ${b.chosen}, the side ${side}, and sets aside ${fresh.join(', ')}.`);
  }
  out.carried = out.carried.filter((id) => !excluded.has(id));
  return out;
}

/**
 * The candidates `planned` as bound: those set aside left out, the chosen sides' remixes added (after the others) when the
 * planner had not kept them.
 */
export function boundCandidates(planned: readonly string[], b: Pick<NextRoundBinding, 'carried' | 'excluded'>): string[] {
  const kept = planned.filter((id) => !b.excluded.has(id));
  return [...kept, ...b.carried.filter((id) => !kept.includes(id))];
}

/**
 * Why a decision just recorded on round `iteration` binds nothing (a clause: "its remix … binds nothing."), or undefined when
 * it binds the next round: its side's remix was set aside by an earlier decision.
 */
export function sideOutOfRunning(
  iterations: readonly Iteration[],
  iteration: number,
  d: Pick<Decision, 'question' | 'decision'>,
): string | undefined {
  const it = iterations.find((x) => x.index === iteration);
  const chosen = it && remixesOf(it).find((m) => m.fork && same(m.fork.question, d.question) && same(m.fork.position, d.decision));
  if (!chosen || !setAsideIds(iterations).has(chosen.id)) return undefined;
  const by = iterations.find((x) => x.setAside?.some((s) => s.id === chosen.id));
  return `its remix ${chosen.id} was set aside in round ${by?.index ?? '?'}, so the side is no longer in the running: the decision is kept as history and binds nothing.`;
}
