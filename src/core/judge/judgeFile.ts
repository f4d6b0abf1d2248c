/**
 * runs/<run-id>/judge.json: the judge's verdicts on a brief run (issue 17, item 5), written only through the review-file
 * room and read back as its kind (byte cap, nesting, UTF-8) and checked with zod like any input.
 */
import * as z from 'zod';
import { readKindJson } from '../files/kindJson';
import { writeKindFile } from '../files/writeCaps';
import { UsageSchema } from '../record/record';
import { reviewRelative } from '../record/paths';
import { madeInRunNotCounted } from '../record/recordAuthor';
import { ReviewFileError } from '../files/reviewFiles';
import type { AuthorshipDoor } from '../authorship/door';
import { DIMENSION_NAMES, type JudgeDimension } from './judgePrompts';

export const JUDGE_FILE = 'judge.json';

/** What the judge says in every file and every output: the limit of a model judging a model's text. */
export const JUDGE_CAVEAT =
  "A model judging a model's text is a proxy for people's judgement, not a substitute: ask the team too (rerank, preference files, compare).";

export const SIDES = ['teamfusion', 'direct', 'tie'] as const;
export type Side = (typeof SIDES)[number];

const SideSchema = z.enum(SIDES);

/** One of the two judgements of a dimension: which revision was shown as A, what the judge answered, what that means. */
const OrderSchema = z.object({
  shownAsA: z.enum(['teamfusion', 'direct']),
  answer: z.enum(['A', 'B', 'tie']),
  prefers: SideSchema,
  reason: z.string().max(20_000),
});
export type JudgeOrder = z.infer<typeof OrderSchema>;

const dimensionsOf = <T extends z.ZodType>(t: T) =>
  z.object(Object.fromEntries(DIMENSION_NAMES.map((d) => [d, t])) as Record<JudgeDimension, T>);

export const JudgeFileSchema = z.object({
  runId: z.string().max(200),
  model: z.string().max(200),
  at: z.string().max(100),
  /** Per dimension: the side preferred in both orders, else a tie. */
  dimensions: dimensionsOf(SideSchema),
  /** Per dimension: the two judgements, TeamFusion's revision shown first as A, then the direct one. */
  orders: dimensionsOf(z.tuple([OrderSchema, OrderSchema])),
  /** Dimensions whose verdict flipped with the order (counted as ties). */
  flipped: z
    .array(z.enum(DIMENSION_NAMES as [JudgeDimension, ...JudgeDimension[]]))
    .max(DIMENSION_NAMES.length)
    .refine((xs) => new Set(xs).size === xs.length, 'a dimension is listed twice'),
  /** What was compared, relative to the review root. */
  files: z.object({ teamfusion: z.string().max(1000), direct: z.string().max(1000) }),
  requests: z.number().int().nonnegative(),
  usage: UsageSchema.pick({ inputTokens: true, cachedInputTokens: true, outputTokens: true }),
  costUsd: z.number().nonnegative().optional(),
  caveat: z.string().max(1000),
  /** The verdicts came from the bundled scripted server, not from `model` (llm/scripted.ts). */
  scripted: z.literal(true).optional(),
});
export type JudgeFile = z.infer<typeof JudgeFileSchema>;

export function judgePath(runId: string): string {
  return reviewRelative(runId, JUDGE_FILE);
}

/**
 * The run's judge.json, or undefined when there is none. Throws ReviewFileError naming the file when it is unusable, or
 * when it does not count as its maker's (recordAuthor.ts madeInRunNotCounted: any member judges a run; no one else changes
 * the verdicts they got). `door`: the review's authorship door when the reader has one open.
 */
export async function readJudgeFile(root: string, runId: string, door?: AuthorshipDoor): Promise<JudgeFile | undefined> {
  const file = await readKindJson(root, judgePath(runId), 'judge', JudgeFileSchema, 'judge again with --force to replace it');
  const why = file && (await madeInRunNotCounted(root, runId, JUDGE_FILE, door));
  if (why) throw new ReviewFileError(judgePath(runId), why);
  return file;
}

export async function writeJudgeFile(root: string, judge: JudgeFile): Promise<void> {
  await writeKindFile(root, judgePath(judge.runId), 'judge', `${JSON.stringify(judge, null, 2)}\n`);
}
