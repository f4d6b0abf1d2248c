/**
 * The one table of read-only questions (issue 42): `teamfusion mcp`, VS Code's language-model tools and the `@teamfusion`
 * chat participant all answer from here. Each question is a pure read of a review folder — nothing sent, nothing written —
 * with the input `{ review, runId? }`; `ask` checks the input, keeps the folder under the asker's root, and bounds the answer.
 */
import { errorMessage } from '../kernel/errors';
import { zodSentence } from '../kernel/zodText';
import { formatDiagnostic } from '../diagnostics/diagnostics';
import { analyzeFolder } from './analyze';
import { validateFolder, validSummary } from './validate';
import { criteriaAnswer } from './criteria';
import { runSummary } from './runSummary';
import { nextSteps } from './nextSteps';
import { bounded, QuestionError, QuestionInputSchema, type QuestionInput } from './question';
import { reviewUnder } from './root';

export { QuestionInputSchema, QuestionInputShown, QuestionError, type QuestionInput, type Quoted } from './question';

export const QUESTION_NAMES = ['analyze', 'validate', 'criteria', 'run_summary', 'next_steps'] as const;
export type QuestionName = (typeof QUESTION_NAMES)[number];

export interface Question {
  name: QuestionName;
  title: string;
  description: string;
  /** The answer for an absolute review folder (already checked to be under the root). Throws a sentence when there is none. */
  answer(folder: string, input: QuestionInput): Promise<object>;
}

/** The validation problems, as `teamfusion validate` lists them. */
async function validateAnswer(folder: string): Promise<object> {
  const { review, diagnostics } = await validateFolder(folder);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return {
    valid: review !== undefined && errors === 0,
    errors,
    warnings: diagnostics.length - errors,
    problems: diagnostics.map((d) => ({
      file: d.file,
      line: d.line,
      column: d.column,
      severity: d.severity,
      message: d.message,
      text: formatDiagnostic(d),
    })),
    ...(review && errors === 0 ? { holds: validSummary(review) } : {}),
  };
}

async function analyzeAnswer(folder: string): Promise<object> {
  const outcome = await analyzeFolder(folder);
  if (outcome.json) return outcome.json;
  const first = outcome.diagnostics.find((d) => d.severity === 'error');
  // A diagnostic about the folder as a whole (it does not exist, it is a file) is its own sentence, as the CLI says it.
  if (first && first.file === '.' && first.line === 0 && first.column === 0) throw new QuestionError(first.message);
  if (outcome.failure === 'invalid')
    throw new QuestionError(
      `The review cannot be analysed: ${first ? formatDiagnostic(first) : 'it is not valid'} (validate lists every problem).`,
    );
  throw new QuestionError(`The review cannot be analysed: ${outcome.failure ?? 'nothing to analyse.'}`);
}

export const QUESTIONS: readonly Question[] = [
  {
    name: 'analyze',
    title: "The team's agreement",
    description:
      "The agreement analysis of a TeamFusion review folder, exactly as `teamfusion analyze --json` prints it: Kendall's W with its band and p-values, weighted Borda and Schulze orders, each designer's agreement with the rest (the outlier), the contested options, and the criteria when criteria.json is current. Computed, never guessed; nothing is sent to a model.",
    answer: (folder) => analyzeAnswer(folder),
  },
  {
    name: 'validate',
    title: 'Problems in a review folder',
    description:
      'The problems of a TeamFusion review folder, as `teamfusion validate` lists them: file, line, column, severity and message for each; valid when there is no error.',
    answer: (folder) => validateAnswer(folder),
  },
  {
    name: 'criteria',
    title: "The team's criteria",
    description:
      "The criteria the team judges by, as `teamfusion criteria` found them (criteria.json): each criterion's controversy and every member's stance with its quote; whether the file is current. Never finds them anew (that would send a paid request). Names and quotes are the members' and the model's words, returned as quoted data.",
    answer: (folder) => criteriaAnswer(folder),
  },
  {
    name: 'run_summary',
    title: 'A run in summary',
    description:
      "A TeamFusion run (the newest unless runId names one): status, rounds, each decision and how it was made, the forks still open and who has voted, the sides set aside, coverage and proxy fidelity where measured, the pools of directions (diversity, re-asks, how often the agent's own first proposal was elected) and the brief's checklist (the final pick's pass rate and failed items), and the cost. Questions and positions are the models' and members' words, returned as quoted data.",
    answer: (folder, input) => runSummary(folder, input.runId),
  },
  {
    name: 'next_steps',
    title: 'What is left to decide',
    description:
      'What the team still has to decide in a TeamFusion run (the newest unless runId names one): the turn it waits for, forks not yet decided with who has and has not voted, open decision points, and who has not re-ranked blind.',
    answer: (folder, input) => nextSteps(folder, input.runId),
  },
];

export function questionNamed(name: string): Question | undefined {
  return QUESTIONS.find((q) => q.name === name);
}

/** An answer, or one sentence saying why there is none. */
export type Answer = { ok: true; value: object } | { ok: false; error: string };

/**
 * Asks one question: the input checked, the folder kept under `root` (the MCP server's start directory, the workspace), the
 * answer bounded in size (cut answers say so in `cut`). Every failure is one sentence; nothing throws.
 */
export async function ask(name: string, input: unknown, root: string): Promise<Answer> {
  const q = questionNamed(name);
  if (!q) return { ok: false, error: `There is no question "${name}"; ask one of ${QUESTION_NAMES.join(', ')}.` };
  const parsed = QuestionInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: capitalised(zodSentence(parsed.error, 'the input')) };
  try {
    const folder = await reviewUnder(root, parsed.data.review);
    return { ok: true, value: bounded(await q.answer(folder, parsed.data)) };
  } catch (err) {
    return { ok: false, error: oneSentence(errorMessage(err)) };
  }
}

/** The first line of a message (a record's several diagnostics are one per line): one sentence for the asker. */
function oneSentence(message: string): string {
  return message.split('\n')[0]!.trim() || 'The question could not be answered.';
}

/** "the input has …" → "The input has …" (a field name such as runId keeps its case). */
function capitalised(s: string): string {
  return s.startsWith('the ') ? `T${s.slice(1)}` : s;
}
