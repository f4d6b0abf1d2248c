/**
 * review.yaml `guests:` (perspectives that are not on the team, called into a discussion) and `humans:` (designers who
 * take over their proxy). Shapes and messages here; checks against the rankings (a guest id that is also a designer id,
 * a human who is not a designer) in loadReview, at the entry's line.
 */
import * as z from 'zod';
import { DESIGNER_ID_PATTERN, designerKey } from '../rankings/designerId';
import { isOneLine, notOneLineMessage } from '../rankings/rankingFields';
import { shown } from '../kernel/text';
import { error } from '../diagnostics/diagnostics';
import type { Diagnostic } from '../diagnostics/diagnostics';

export interface Guest {
  /** Called in with `@<id>`; same rule as designer ids, and never equal to one. */
  id: string;
  /** Display name ("Lumen brand manager"). */
  name: string;
  role?: string;
  /** What they care about; given to the model that speaks for them. */
  perspective: string;
}

const guestText = (field: string, required: boolean) => {
  const t = z
    .string({ error: (iss) => `A guest's ${field} must be text (found ${shown(iss.input)}).` })
    .trim()
    .min(1, { error: `A guest's ${field} is empty; fill it in${required ? '' : ' or remove the line'}.` })
    .max(2000, { error: `A guest's ${field} is longer than 2000 characters.` });
  return required ? t : t.optional();
};
/** A guest's name or role: one line (rankingFields.isOneLine), like a designer's. */
const guestLine = (field: string, required: boolean) => {
  const t = z
    .string({ error: (iss) => `A guest's ${field} must be text (found ${shown(iss.input)}).` })
    .trim()
    .min(1, { error: `A guest's ${field} is empty; fill it in${required ? '' : ' or remove the line'}.` })
    .max(2000, { error: `A guest's ${field} is longer than 2000 characters.` })
    .refine(isOneLine, { error: (iss) => notOneLineMessage(`A guest's ${field}`, iss.input) });
  return required ? t : t.optional();
};

export const GuestSchema = z.strictObject(
  {
    id: z
      .string({ error: (iss) => `A guest needs id: (letters, digits, ".", "_", "-"; found ${shown(iss.input)}).` })
      .regex(DESIGNER_ID_PATTERN, {
        error: (iss) =>
          `A guest id uses letters, digits, ".", "_" and "-" only, starting with a letter or digit (found ${shown(iss.input)}).`,
      }),
    name: guestLine('name', true),
    role: guestLine('role', false),
    perspective: guestText('perspective', true),
  },
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `A guest has unknown fields (${(iss as { keys?: string[] }).keys?.join(', ')}); a guest has id, name, role and perspective.`
        : `Each guest is a group with id:, name:, role: and perspective: (found ${shown(iss.input)}).`,
  },
);

export const GuestsSchema = z
  .array(GuestSchema, {
    error: (iss) => `guests must be a list of guests, each with id, name, role and perspective (found ${shown(iss.input)}).`,
  })
  .max(20, { error: 'guests lists more than 20 guests.' })
  .superRefine((guests, ctx) => {
    const seen = new Set<string>();
    guests.forEach((g, i) => {
      const key = designerKey(g.id);
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: [i], message: `The guest id "${g.id}" is used twice; give each guest its own id.` });
      seen.add(key);
    });
  });

export const HumansSchema = z.array(
  z.string({ error: (iss) => `humans lists designer ids (found ${shown(iss.input)}).` }).regex(DESIGNER_ID_PATTERN, {
    error: (iss) => `humans lists designer ids (found ${shown(iss.input)}).`,
  }),
  { error: (iss) => `humans must be a list of designer ids, e.g. [ana] (found ${shown(iss.input)}).` },
);

/** review.yaml's guests and humans against the designer ids found in rankings/ (`seen`: lower-cased id → file). */
export function checkPeople(
  config: { humans?: string[]; guests?: Guest[] },
  seen: ReadonlyMap<string, string>,
  haveRankings: boolean,
  where: (key: string) => [number, number],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  (config.guests ?? []).forEach((g, i) => {
    if (seen.has(designerKey(g.id))) {
      out.push(
        error(
          'review.yaml',
          `The guest id "${g.id}" is also a designer id (rankings/${seen.get(designerKey(g.id))}); give the guest another id.`,
          ...where(`guests.${i}`),
        ),
      );
    }
  });
  if (haveRankings) {
    (config.humans ?? []).forEach((id, i) => {
      if (!seen.has(designerKey(id)))
        out.push(error('review.yaml', `humans names "${id}", but no ranking file has that designer id.`, ...where(`humans.${i}`)));
    });
  }
  return out;
}
