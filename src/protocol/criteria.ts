/**
 * The team's criteria in the panel's Overview (issue 34): while criteria.json is current, the members × criteria matrix
 * (and for a design review the options × criteria one), most controversial criterion first, each cell with the quote it
 * rests on; otherwise one sentence saying why it is not shown (stale, edited by hand, unreadable).
 */
import * as z from 'zod';

const Cell = z.object({
  /** The grounded stance (member) or standing (option). */
  value: z.string().max(20),
  /** What the model claimed when its quote was not found (then `value` is no-position / not-mentioned). */
  claimed: z.string().max(20).optional(),
  quote: z.string().max(2000).optional(),
  file: z.string().max(300).optional(),
  verified: z.boolean().optional(),
});
export type PanelCriteriaCell = z.infer<typeof Cell>;

export const PanelCriteriaSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('current'),
    at: z.string().max(100),
    members: z.array(z.object({ id: z.string().max(200), name: z.string().max(200) })),
    /** Option ids of a design review (empty for a brief review). */
    options: z.array(z.string().max(200)),
    criteria: z.array(
      z.object({
        name: z.string().max(80),
        description: z.string().max(600),
        controversy: z.number().min(0).max(1),
        stances: z.record(z.string(), Cell),
        options: z.record(z.string(), Cell),
      }),
    ),
  }),
  z.object({ state: z.enum(['stale', 'edited', 'unreadable']), why: z.string().max(2000) }),
]);
export type PanelCriteria = z.infer<typeof PanelCriteriaSchema>;
