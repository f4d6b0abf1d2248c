/**
 * The forks of the run shown, for the panel's vote (issue 33): each fork's question, its sides (the remix that takes each
 * position, and who holds it), who has voted for which side, the tally and — once recorded — the decision. The webview
 * keeps the vote blind: holders, voters and the tally are shown to a member only once they have voted (or it is decided).
 * Only zod here (bundled into the webview).
 */
import * as z from 'zod';

const id = z.string().max(200);

export const PanelForkSchema = z.object({
  iteration: z.number().int().min(1),
  decisionPoint: z.number().int().min(1),
  question: z.string().max(2000),
  sides: z
    .array(
      z.object({
        id,
        letter: z.string().max(4).optional(),
        position: z.string().max(2000),
        holders: z.array(id).max(100),
        /** A brief fork's side: its passage (iteration-<k>/fork-<letter>.md), shown as text; or why it cannot be shown. */
        passage: z
          .string()
          .max(400 * 1024)
          .optional(),
        passageError: z.string().max(2000).optional(),
      }),
    )
    .min(2)
    .max(4),
  /** designer id → the remix id they voted for (valid votes only, counted as the tally counts them). */
  votes: z.record(id, id),
  /** Votes per position. */
  counts: z.record(z.string().max(2000), z.number().int().min(0)),
  missing: z.array(id).max(100),
  decision: z
    .object({
      decision: z.string().max(2000),
      by: id,
      via: z.enum(['proxy', 'human']).optional(),
      counts: z.record(z.string().max(2000), z.number().int().min(0)).optional(),
      /** In run.json (not only counted from the votes files): the lead may reopen it. */
      recorded: z.boolean().optional(),
    })
    .optional(),
});
export type PanelFork = z.infer<typeof PanelForkSchema>;

export const PanelForksSchema = z.object({
  runId: id,
  /** The team of the run (who may vote), in id order. */
  team: z.array(id).max(100),
  /** The run's lead (run.json settings, else review.yaml), who alone may reopen a decision. */
  lead: id.optional(),
  forks: z.array(PanelForkSchema).max(100),
  /** Votes files not counted (`file:line:col: error: …`): someone else committed them, or they do not check. */
  problems: z.array(z.string().max(4000)).max(100),
});
export type PanelForks = z.infer<typeof PanelForksSchema>;
