/**
 * A member's votes on a run's forks (issue 33): `runs/<run-id>/votes/<designer-id>.yaml` =
 *   designer: <id>
 *   votes: [ { iteration: <k>, decisionPoint: <n>, choice: <remix id> } ]
 * validated like survey files (one schema at the door, each problem at its line): the designer must be the file's name
 * (the one id rule, by loadVotes), a vote must name a round that forked at that decision point, its choice must be one of
 * that fork's remixes, and one question gets one vote. The valid votes of a file count even when another entry is refused.
 */
import { stringify } from '../../kernel/yaml';
import type { Diagnostic } from '../../diagnostics/diagnostics';
import { error, warning } from '../../diagnostics/diagnostics';
import { TypedByField } from '../../record/fields';
import { typedWords } from '../../authorship/typist';
import { writeReviewFile } from '../../files/reviewWrites';
import { LIMITS, readReviewText } from '../../files/reviewFiles';
import { DESIGNER_ID_PATTERN } from '../../rankings/designerId';
import { runRel } from '../../rerank/paths';
import type { RunRecord } from '../../record/record';
import { loadMemberFiles } from '../evaluate/feedback';
import { checkMemberList, pairOf, shownValue, valuePos, type MemberList } from '../checks/memberFile';
import { forkOf } from './forks';
import type { AuthorCheck } from './authorship';

export interface Vote {
  iteration: number;
  decisionPoint: number;
  /** A remix id of that fork. */
  choice: string;
  /**
   * (issue 39) Typed on someone else's machine for the file's member: who typed it (a member id, or a git e-mail). Such a
   * vote is kept and said, and never counts as the member's vote.
   */
  typedBy?: string;
}

export interface MemberVotes {
  designer: string;
  file: string;
  votes: Vote[];
}

export const VOTES_DIR = 'votes';

export function votesRel(runId: string, designer?: string): string {
  return designer === undefined ? `${runRel(runId)}/${VOTES_DIR}` : `${runRel(runId)}/${VOTES_DIR}/${designer}.yaml`;
}

const whole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1;

const VOTES_LIST: MemberList = {
  what: 'A votes file',
  field: 'votes',
  required: ['iteration', 'decisionPoint', 'choice'],
  allowed: ['iteration', 'decisionPoint', 'choice', 'typedBy'],
  per: 'per vote',
};

/** Validates the text of a votes file against the run record. */
export function checkVotesText(
  text: string,
  file: string,
  record: Pick<RunRecord, 'iterations'>,
): { votes?: MemberVotes; diagnostics: Diagnostic[] } {
  const votes: Vote[] = [];
  const seen = new Set<string>();
  const { designer, diagnostics } = checkMemberList(text, file, VOTES_LIST, ({ e, item, at }, { posOf, diagnostics }) => {
    const place = (key: string) => valuePos(pairOf(item, key), posOf, at);
    const problem = (key: string, message: string) => {
      const p = place(key);
      diagnostics.push(error(file, message, p.line, p.column));
    };
    if (!whole(e.iteration))
      return problem('iteration', `iteration must be a round number of this run (found ${shownValue(e.iteration)}).`);
    if (!whole(e.decisionPoint))
      return problem('decisionPoint', `decisionPoint must be a whole number of 1 or more (found ${shownValue(e.decisionPoint)}).`);
    const fork = forkOf(record, e.iteration, e.decisionPoint);
    if (!fork)
      return problem(
        'decisionPoint',
        `Round ${e.iteration} has no fork at decision point ${e.decisionPoint}, so there is nothing to vote on there.`,
      );
    if (typeof e.choice !== 'string' || !fork.sides.some((s) => s.id === e.choice)) {
      return problem(
        'choice',
        `choice must be one of this fork's remixes (${fork.sides.map((s) => s.id).join(', ')}), found ${shownValue(e.choice)}.`,
      );
    }
    if (e.typedBy !== undefined && !TypedByField.safeParse(e.typedBy).success)
      return problem('typedBy', `typedBy must be a member id or a git e-mail (found ${shownValue(e.typedBy)}).`);
    const key = `${e.iteration}/${e.decisionPoint}`;
    if (seen.has(key))
      return problem(
        'decisionPoint',
        `A second vote on decision point ${e.decisionPoint} of round ${e.iteration}; keep one vote per question.`,
      );
    seen.add(key);
    votes.push({
      iteration: e.iteration,
      decisionPoint: e.decisionPoint,
      choice: e.choice,
      ...(typeof e.typedBy === 'string' ? { typedBy: e.typedBy } : {}),
    });
  });
  if (!designer) return { diagnostics };
  return { votes: { designer, file, votes }, diagnostics };
}

/**
 * Every valid votes file of a run (files named after anyone not on `team` refused, and with `authored` those whose last
 * commit is not their member's: see authorship.ts), plus the diagnostics (capped per file) and the files refused for
 * their author (review-relative path → why).
 */
export async function loadVotes(
  root: string,
  record: RunRecord,
  team?: readonly string[],
  authored?: AuthorCheck,
): Promise<{ members: MemberVotes[]; diagnostics: Diagnostic[]; unauthored: Map<string, string> }> {
  const unauthored = new Map<string, string>();
  const notTheirs = async (f: { rel: string; id: string }, out: Diagnostic[]): Promise<boolean> => {
    const forged = await authored?.(f.rel, f.id);
    if (forged === undefined) return false;
    unauthored.set(f.rel, forged);
    out.push(error(f.rel, `These votes are not counted: ${forged}; each member votes only as themselves.`, 1, 1));
    return true;
  };
  const { found, diagnostics } = await loadMemberFiles(
    root,
    votesRel(record.id),
    'votes',
    team,
    (text, rel) => {
      const r = checkVotesText(text, rel, record);
      // A vote typed for the member on someone else's machine (issue 39) is said and never counted as theirs.
      const typed = r.votes?.votes.filter((v) => v.typedBy !== undefined) ?? [];
      for (const v of typed) r.diagnostics.push(warning(rel, `${typedVoteSentence(v, r.votes!.designer)}`, 1, 1));
      const value = r.votes && typed.length ? { ...r.votes, votes: r.votes.votes.filter((v) => v.typedBy === undefined) } : r.votes;
      return { value, diagnostics: r.diagnostics };
    },
    notTheirs,
    null, // votes are checked by `authored` (their last commit only: the vote command rewrites the file whole)
  );
  return { members: found, diagnostics, unauthored };
}

/** A vote typed for `designer` on someone else's machine, in one sentence: kept, and not counted as theirs. */
export function typedVoteSentence(
  v: Pick<Vote, 'iteration' | 'decisionPoint' | 'choice' | 'typedBy'>,
  designer: string,
  name: (id: string) => string = (id) => id,
): string {
  return `The vote for ${v.choice} on decision point ${v.decisionPoint} of round ${v.iteration} was ${typedWords(v.typedBy ?? '', designer, name)}; it is kept, and it does not count as ${name(designer)}'s vote (a vote counts only as its member committed it).`;
}

/** Writes a member's votes (validated against the record first; throws with the first problem). */
export async function writeVotes(
  root: string,
  record: RunRecord,
  designer: string,
  votes: readonly Vote[],
  ifSame?: string,
): Promise<string> {
  if (!DESIGNER_ID_PATTERN.test(designer)) throw new Error(`"${designer}" is not a designer id.`);
  const rel = votesRel(record.id, designer);
  let text = stringify(
    {
      designer,
      votes: votes.map((v) => ({
        iteration: v.iteration,
        decisionPoint: v.decisionPoint,
        choice: v.choice,
        ...(v.typedBy !== undefined ? { typedBy: v.typedBy } : {}),
      })),
    },
    { lineWidth: 0 },
  );
  // `ifSame`: a line that makes the file differ from the one there when it would be written byte for byte the same (a file
  // whose commits are not its member's must change, so that the member's commit of it is theirs: issue 39).
  if (ifSame !== undefined) {
    const now = await readReviewText(root, rel, LIMITS.smallFile).catch(() => undefined);
    if (now === text) text = `# ${ifSame.replace(/[\r\n]+/g, ' ')}\n${text}`;
  }
  const bad = checkVotesText(text, rel, record).diagnostics.find((d) => d.severity === 'error');
  if (bad) throw new Error(bad.message);
  await writeReviewFile(root, rel, text);
  return rel;
}
