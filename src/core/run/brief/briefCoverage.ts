/**
 * The brief remix agent's coverage, checked before it is kept (issue 32, item 2): every quote is looked up in the revised
 * brief it claims to quote (verify.ts). When a quote is not found, or a member who commented has no point at all (an
 * empty `coverage: []` included), the agent is asked ONCE to repair — the request recorded like every repair — and the
 * better of the two answers is kept (fewer problems; the repair on a tie). What is still wrong is said in the log and on
 * the run's notices, naming the members; the quotes keep `verified: false` and result.md names whom nothing was said for.
 */
import type { ChatMessage } from '../../llm/messages';
import type { StructuredOutput } from '../../llm/backend';
import type { Coverage } from '../../record/record';
import type { StepContext } from '../../step/context';
import { askStructured } from '../../remix/remixAgent';
import { StepError } from '../../kernel/errors';
import {
  coverageProblem,
  coverageProblemCount,
  markVerified,
  reportedNothing,
  unreportedMembers,
  unverifiedEntries,
} from '../../coverage/verify';
import { warn } from '../../step/warn';

/** What the check needs of a parsed brief answer. */
export interface WithCoverage {
  revisedBrief: string;
  report: { coverage: Coverage[] };
}

export interface CoverageQuestion<T extends WithCoverage> {
  iteration: number;
  base: readonly ChatMessage[];
  structured: StructuredOutput;
  parse: (content: string) => T | { error: string };
  memberIds: readonly string[];
  nameOf: (id: string) => string;
}

function verifiedCopy<T extends WithCoverage>(answer: T): T {
  return { ...answer, report: { ...answer.report, coverage: markVerified(answer.report.coverage, answer.revisedBrief) } };
}

/** The coverage repair request: the problem in words, and the whole answer again. */
export function coverageRepairMessage(problem: string): ChatMessage {
  return {
    role: 'user',
    content: `Your coverage needs one correction: ${problem} Answer again with the whole JSON (the same revisedBrief unless a point needs it), matching the schema exactly.`,
  };
}

/** Asks the brief remix agent, checks its coverage, and asks once more when the coverage cannot be verified. */
export async function askWithCheckedCoverage<T extends WithCoverage>(ctx: StepContext, q: CoverageQuestion<T>): Promise<T> {
  let content = '';
  const first = verifiedCopy(
    await askStructured(ctx, {
      iteration: q.iteration,
      base: q.base,
      structured: q.structured,
      parse: (text) => {
        const parsed = q.parse(text);
        if (!('error' in parsed)) content = text;
        return parsed;
      },
    }),
  );
  let kept = first;
  const problem = coverageProblem(first.report.coverage, q.memberIds);
  if (problem) {
    const line = `The remix agent's coverage in round ${q.iteration} cannot be verified (${problem}); asking it once to repair.`;
    warn(ctx, line);
    try {
      const repaired = verifiedCopy(
        await askStructured(ctx, {
          iteration: q.iteration,
          base: [...q.base, { role: 'assistant', content }, coverageRepairMessage(problem)],
          structured: q.structured,
          parse: q.parse,
          extraAttempts: 0,
          repairing: content,
        }),
      );
      if (coverageProblemCount(repaired.report.coverage, q.memberIds) <= coverageProblemCount(first.report.coverage, q.memberIds))
        kept = repaired;
    } catch (err) {
      // An unusable repair keeps the first answer (its problems are said below); a cancel still ends the run.
      if (!(err instanceof StepError)) throw err;
    }
  }
  sayWhatIsStillWrong(ctx, q, kept.report.coverage);
  return kept;
}

function sayWhatIsStillWrong(ctx: StepContext, q: CoverageQuestion<WithCoverage>, coverage: readonly Coverage[]): void {
  const lines: string[] = [];
  for (const id of unreportedMembers(coverage, q.memberIds)) lines.push(`Round ${q.iteration}: ${reportedNothing(q.nameOf(id))}.`);
  const bad = unverifiedEntries(coverage);
  if (bad.length) {
    const who = [...new Set(bad.map((c) => q.nameOf(c.designer)))].join(', ');
    lines.push(
      `Round ${q.iteration}: ${bad.length} coverage quote${bad.length === 1 ? ' is' : 's are'} not in the revised brief (${who}); kept as verified: false.`,
    );
  }
  for (const line of lines) {
    warn(ctx, line);
  }
}
