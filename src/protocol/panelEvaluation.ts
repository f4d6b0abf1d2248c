/**
 * "Did it help?" and the run's feedback and discussion analysis as the panel's state carries them: the evaluation of a run,
 * the side-by-side with the team's usual way, ratings and survey answers, Bales coding and stance. Only zod here.
 */
import * as z from 'zod';
import { AnalysisFileSchema } from '../core/analysis/schema';
import { StanceTableSchema } from '../core/analysis/stance';

/** One side of "Did it help?": agreement before the run or after it (blind re-ranking). */
const EvalSideSchema = z.object({
  w: z.number(),
  meanSpearman: z.number().nullable(),
  band: z.enum(['slight', 'fair', 'moderate', 'substantial', 'almost-perfect']),
  designers: z.array(z.string()),
  options: z.number().int().nonnegative(),
  pValue: z.number().min(0).max(1),
  pPermutation: z.number().min(0).max(1),
});
const Pair = z.tuple([z.number(), z.number()]);

/** "Did it help?" for the run shown (src/core/evaluation compareRun), once it has a re-rank set. */
export const EvaluationSchema = z.object({
  runId: z.string(),
  /** Review-relative path of the re-rank set: runs/<run-id>/rerank. */
  folder: z.string(),
  before: EvalSideSchema,
  after: EvalSideSchema.nullable(),
  paired: z
    .object({
      designers: z.array(z.string()),
      wBefore: z.number(),
      wAfter: z.number(),
      change: z.number(),
      interval: Pair,
      verdict: z.enum(['converged', 'diverged', 'no evidence']),
      chanceInterval: Pair,
      designerInterval: Pair.nullable(),
    })
    .nullable(),
  acceptance: z
    .object({
      ranking: z.array(z.string()),
      positions: z.array(z.number().int().positive()),
      generated: z.array(z.string()),
      top1: z.boolean(),
      top2: z.boolean(),
      bestGenerated: z.object({ letter: z.string(), id: z.string(), position: z.number().int().positive() }).nullable(),
    })
    .nullable(),
  ratings: z.object({
    n: z.number().int().nonnegative(),
    mean: z.number().nullable(),
    sd: z.number().nullable(),
    positiveShare: z.number().nullable(),
    byDesigner: z.record(z.string(), z.object({ n: z.number().int(), mean: z.number() })),
    lowestDesigner: z.object({ designer: z.string(), mean: z.number() }).nullable(),
    distribution: z.tuple([z.number(), z.number(), z.number(), z.number(), z.number()]),
  }),
  survey: z.object({
    n: z.number().int().nonnegative(),
    representative: z.number().nullable(),
    clarity: z.number().nullable(),
    satisfied: z.number().nullable(),
    answered: z.object({ representative: z.number().int(), clarity: z.number().int(), satisfied: z.number().int() }),
  }),
  rerankings: z.number().int().nonnegative(),
  /** The designers whose blind re-ranking is saved (ids), once the re-rank set exists. */
  reranked: z.array(z.string()).optional(),
  remixes: z.number().int().nonnegative(),
  timing: z.object({
    startedAt: z.string(),
    rerankedAt: z.string().nullable(),
    rerankedFrom: z.enum(['record', 'file times']).nullable(),
    committedAt: z.string().nullable(),
    hoursToRerank: z.number().nullable(),
    hoursToCommit: z.number().nullable(),
    note: z.string().nullable(),
  }),
  missing: z.string().nullable(),
  /**
   * Proxy fidelity (issue 32): each designer's proxy's sealed forecast against that designer's own blind re-ranking
   * (Kendall's τ-b), the persona-free control's, and the lift. Only designers whose blind re-ranking is saved are here.
   */
  fidelity: z.record(z.string(), z.object({ tau: z.number(), control: z.number().nullable(), lift: z.number().nullable() })).optional(),
  /**
   * The pools of directions (issue 41): each round that elected its remixes from a pool, its size, the elected letters, its
   * diversity, whether it was asked again and whether the election chose the agent's own first proposal (a).
   */
  pool: z
    .array(
      z.object({
        iteration: z.number().int().positive(),
        candidates: z.number().int().positive(),
        elected: z.array(z.string()),
        diversity: z.number(),
        reasked: z.boolean(),
        firstElected: z.boolean(),
      }),
    )
    .optional(),
  /** The final pick's checks against the brief's checklist (issue 41), its failed items with their quotes; null without. */
  checklist: z
    .object({
      remix: z.string(),
      items: z.number().int().nonnegative(),
      pass: z.number().int().nonnegative(),
      fail: z.number().int().nonnegative(),
      unclear: z.number().int().nonnegative(),
      passRate: z.number().min(0).max(1),
      failed: z.array(z.object({ item: z.string(), text: z.string(), quote: z.string(), reason: z.string() })),
    })
    .nullable()
    .optional(),
  problems: z.array(z.string()),
  /** The run was answered by the bundled scripted server: said first, in words. */
  scripted: z.literal(true).optional(),
});
export type PanelEvaluation = z.infer<typeof EvaluationSchema>;

/** One condition of the comparison with the team's usual way (src/core/evaluation/evaluate/baseline.ts ConditionSide). */
const ConditionSideSchema = z.object({
  reviews: z.number().int().nonnegative(),
  survey: z.object({
    n: z.number().int().nonnegative(),
    representative: z.number().nullable(),
    clarity: z.number().nullable(),
    satisfied: z.number().nullable(),
  }),
  decisionMinutes: z.number().nullable(),
});
const PairedDifferenceSchema = z.object({
  diff: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  teams: z.number().int().nonnegative(),
});

/**
 * "Did it help?" beside the team's usual way (issue 19): this TeamFusion review's team, paired with its usual-way review(s)
 * in the same parent folder exactly as `evaluate` pairs them (conditionsOf); survey means Q1–Q3, decision time, workflow.
 */
export const SideBySideSchema = z.object({
  /** The parent folder's name. */
  folder: z.string(),
  /** The team: sorted designer ids. */
  team: z.array(z.string()),
  conditions: z.object({
    teamfusion: ConditionSideSchema,
    usual: ConditionSideSchema,
    paired: z.object({
      teams: z.number().int().nonnegative(),
      representative: PairedDifferenceSchema,
      clarity: PairedDifferenceSchema,
      satisfied: PairedDifferenceSchema,
      decisionMinutes: PairedDifferenceSchema,
    }),
    workflow: z.object({
      teamfusion: z.number().int().nonnegative(),
      usual: z.number().int().nonnegative(),
      signTestP: z.number().min(0).max(1).nullable(),
      conflicting: z.number().int().nonnegative(),
    }),
    teams: z.array(
      z.object({ designers: z.array(z.string()), teamfusion: z.array(z.string()), usual: z.array(z.string()), paired: z.boolean() }),
    ),
    reference: z.object({
      survey: z.object({ representative: z.number(), clarity: z.number(), satisfied: z.number() }),
      decisionMinutes: z.object({ usual: z.number(), teamfusion: z.number() }),
    }),
  }),
});
export type PanelSideBySide = z.infer<typeof SideBySideSchema>;

const SurveyAnswersSchema = z.object({
  representative: z.number().int().min(1).max(5).optional(),
  clarity: z.number().int().min(1).max(5).optional(),
  satisfied: z.number().int().min(1).max(5).optional(),
  comment: z.string().optional(),
});
export const FeedbackSchema = z.object({
  runId: z.string(),
  ratings: z.record(z.string(), z.record(z.string(), z.object({ score: z.number().int().min(1).max(5), comment: z.string().optional() }))),
  survey: z.record(z.string(), SurveyAnswersSchema),
  /** Brief runs: each member's saved confirmations of their own coverage (runs/<id>/coverage/<designer-id>.yaml). */
  coverage: z
    .record(
      z.string(),
      z.array(
        z.object({
          point: z.string(),
          agree: z.boolean(),
          status: z.enum(['kept', 'changed', 'left-out']).optional(),
          comment: z.string().optional(),
        }),
      ),
    )
    .optional(),
  /** Problems in the run's ratings/, survey/ and coverage/ files (`file:line:col: error: …`). */
  problems: z.array(z.string()),
});
export type PanelFeedback = z.infer<typeof FeedbackSchema>;
/** Coding in progress for a run of this review (code-discussion from the panel or the command). */
export const CodingProgressSchema = z.object({
  runId: z.string(),
  active: z.boolean(),
  coded: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  message: z.string(),
});
export type PanelCodingProgress = z.infer<typeof CodingProgressSchema>;

/** Discussion analysis of the run shown: its analysis.json (without the prompt text) and the stance table from the record. */
export const DiscussionAnalysisSchema = z.object({
  runId: z.string(),
  analysis: AnalysisFileSchema.omit({ prompt: true }).optional(),
  /** Why analysis.json cannot be shown, in words. */
  error: z.string().optional(),
  stance: StanceTableSchema.optional(),
  coding: CodingProgressSchema.optional(),
});
export type PanelDiscussionAnalysis = z.infer<typeof DiscussionAnalysisSchema>;
