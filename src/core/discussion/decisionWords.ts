/**
 * How a settled decision point reads in later prompts and edits (issues 10 and 33): one sentence per decision, said the same
 * way in the history every later prompt carries and in the directions of every later edit.
 *   - the lead's proxy:                       "Decided by the lead: Serif or sans → serif."
 *   - the team's vote (everyone, or closed):  "Decided by the team: Warm or cool palette? → warm palette, 3 to 1."
 *   - the lead in person (`lead-decides`):    "Decided by the lead in person: Warm or cool palette? → cool palette."
 *   - the lead's close of a vote (issue 39):  "Decided by the lead closing the vote with 1 of 3 votes: … → warm palette, 1 to 0."
 *     never "the team": a close is the lead's act on the votes cast so far, said with how many of the team had voted.
 */
import type { Iteration } from '../record/record';
import { stands } from '../record/decisions';

type Decision = NonNullable<Iteration['decisions']>[number];

/** "warm palette, 3 to 1" — the winner and its margin, as later prompts say it. */
export function marginText(d: Pick<Decision, 'decision' | 'counts'>): string {
  if (!d.counts) return d.decision;
  const won = d.counts[d.decision] ?? 0;
  const rest = Object.entries(d.counts)
    .filter(([p]) => p !== d.decision)
    .map(([, n]) => n)
    .sort((a, b) => b - a);
  return `${d.decision}, ${[won, ...rest].join(' to ')}`;
}

/** Did the votes (not a person) choose this side: the count's one leader? */
function wonTheVote(d: Pick<Decision, 'decision' | 'counts'>): boolean {
  if (!d.counts) return false;
  const won = d.counts[d.decision] ?? 0;
  return won > 0 && Object.entries(d.counts).every(([p, n]) => p === d.decision || n < won);
}

/** Who settled it, in words: "the team" (every member voted), "the lead closing the vote", "the lead in person", "the lead". */
export function decidedBy(d: Pick<Decision, 'decision' | 'counts' | 'via' | 'by'>): string {
  if (d.via === 'proxy') return 'the lead';
  if (d.by === 'team') return 'the team';
  return wonTheVote(d) ? 'the lead closing the vote' : 'the lead in person';
}

/** The votes a decision was taken on: its voters, else the sum of its counts. */
function votesCast(d: Pick<Decision, 'counts' | 'voters'>): number {
  return d.voters?.length ?? Object.values(d.counts ?? {}).reduce((s, n) => s + n, 0);
}

/**
 * A lead's close in words (issue 39): "the lead closed it with 1 of 3 votes", or with the lead's name "the lead, Ana Ruiz,
 * closed it with 1 of 3 votes" — `teamSize` is who could vote (without it: "with 1 vote"). The one wording of a close
 * wherever one is shown (result.md, compare, the panel, run_summary, later prompts).
 */
export function closeWords(d: Pick<Decision, 'counts' | 'voters'>, teamSize?: number, leadName?: string): string {
  const n = votesCast(d);
  const of = teamSize !== undefined && teamSize >= n ? ` of ${teamSize}` : '';
  return `the lead${leadName ? `, ${leadName},` : ''} closed it with ${n}${of} vote${(of ? teamSize : n) === 1 ? '' : 's'}`;
}

/**
 * "Decided by the team: Warm or cool palette? → warm palette, 3 to 1." A lead's close: "Decided by the lead closing the vote
 * with 1 of 3 votes: … → warm palette, 1 to 0." (`teamSize`: who could vote, when known).
 */
export function decisionSentence(d: Decision, teamSize?: number): string {
  const by = decidedBy(d);
  const what = by === 'the team' || by === 'the lead closing the vote' ? marginText(d) : d.decision;
  const who =
    by === 'the lead closing the vote' ? closeWords(d, teamSize).replace(/^the lead closed it with/, 'the lead closing the vote with') : by;
  const s = `Decided by ${who}: ${d.question.trim()} → ${what.trim()}`;
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** The decisions people made in person or by vote (`via: human`) in the rounds before `index` that stand (not reopened), in round order. */
export function humanDecisionsBefore(iterations: readonly Iteration[], index: number): Decision[] {
  return iterations.filter((it) => it.index < index).flatMap((it) => (it.decisions ?? []).filter((d) => d.via === 'human' && stands(d)));
}

/** `text` with `line` on a line of its own at the end, once (a resume never adds it twice). */
export function withLine(text: string, line: string): string {
  return text.split('\n').includes(line) ? text : `${text}\n${line}`;
}

/**
 * The edits of round `it` not yet made carry every side people decided in earlier rounds: each decision's sentence goes
 * at the end of the round's directions (its one remix's and each proposal's), discussed and as sent to the edit model.
 * A round whose remix is already made is left as it is (a round already run is never changed by a later decision).
 * Returns whether anything changed.
 */
export function carryDecidedSides(iterations: readonly Iteration[], it: Iteration): boolean {
  if (it.final || it.remix || it.remixes?.length) return false;
  const lines = humanDecisionsBefore(iterations, it.index).map(decisionSentence);
  let changed = false;
  for (const target of [it, ...(it.proposals ?? [])]) {
    for (const line of lines) {
      if (target.editingDirections !== undefined) {
        const next = withLine(target.editingDirections, line);
        changed ||= next !== target.editingDirections;
        target.editingDirections = next;
      }
      if (target.editingDirectionsDiscussed !== undefined)
        target.editingDirectionsDiscussed = withLine(target.editingDirectionsDiscussed, line);
    }
  }
  return changed;
}
