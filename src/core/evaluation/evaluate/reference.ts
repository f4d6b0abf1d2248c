/**
 * The published study's reference values, shown beside a team's own numbers (docs/evaluation.md "Did it help?"): Kendall's W before
 * → after the discussion, how often a generated option was the team's top 1 / within its top 2 in the blind re-ranking,
 * the mean rating of proxy commentary (1–5), and the means of the three survey questions (1–5).
 */
export const REFERENCE = {
  wBefore: 0.37,
  wAfter: 0.43,
  top1Rate: 0.5,
  top2Rate: 0.88,
  ratingsMean: 4.06,
  survey: { representative: 4.3, clarity: 3.8, satisfied: 4.2 },
  /** Minutes to a decision: the usual way → TeamFusion (issue 19). */
  decisionMinutes: { usual: 18.0, teamfusion: 12.4 },
} as const;
