/**
 * criteria.json (issue 34): the criteria a team uses, who holds which, and where the options stand. The shape is the
 * contract's (section 7); this file owns its schema, the controversy score and the file's own hash. Read back as untrusted
 * input like every file the tool writes (kind `criteria`: capped, nesting checked, zod).
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';

export const CRITERIA_FILE = 'criteria.json';
export const CRITERIA_MARKDOWN = 'criteria.md';
/** Criteria found against the bundled scripted server: kept apart from the team's (never read by analyze, the panel or a run). */
export const SCRIPTED_CRITERIA_FILE = 'criteria.scripted.json';
export const SCRIPTED_CRITERIA_MARKDOWN = 'criteria.scripted.md';
/** At most this many criteria per review: more would not be read by a lead. */
export const MAX_CRITERIA = 12;

export const STANCES = ['values', 'against', 'no-position'] as const;
export type Stance = (typeof STANCES)[number];
export const STANDINGS = ['strong', 'weak', 'not-mentioned'] as const;
export type Standing = (typeof STANDINGS)[number];

/** One line of text, no control characters (a name or a file). */
const line = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !/[\u0000-\u001f\u007f-\u009f]/.test(s), 'has a line break or a control character');

const Quoted = {
  /** The words the stance or standing rests on, as the model quoted them. */
  quote: z.string().max(2000).optional(),
  /** The file the quote is from, relative to the review root. */
  file: line(300).optional(),
  /** Whether the quote was found in that file (after folding whitespace, case and quotes). */
  verified: z.boolean().optional(),
};

export const MemberStanceSchema = z
  .object({
    /** The grounded stance: `no-position` when the model's quote was not found. */
    stance: z.enum(STANCES),
    /** What the model claimed, when its quote was not found and the stance was set to no-position. */
    claimed: z.enum(STANCES).optional(),
    ...Quoted,
  })
  .strict();
export type MemberStance = z.infer<typeof MemberStanceSchema>;

export const OptionStandingSchema = z.object({ standing: z.enum(STANDINGS), claimed: z.enum(STANDINGS).optional(), ...Quoted }).strict();
export type OptionStanding = z.infer<typeof OptionStandingSchema>;

const Id = line(200).pipe(z.string().min(1));

export const CriterionSchema = z
  .object({
    name: line(80).pipe(z.string().min(1)),
    description: z.string().max(600),
    controversy: z.number().min(0).max(1),
    stances: z.record(Id, MemberStanceSchema),
    options: z.record(Id, OptionStandingSchema).optional(),
  })
  .strict();
export type Criterion = z.infer<typeof CriterionSchema>;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'is not a sha256 hex digest');

export const CriteriaFileSchema = z
  .object({
    at: line(100),
    model: line(200),
    task: z.enum(['design', 'brief']),
    /** Every file read, with the sha256 of its bytes: the criteria are current while these are unchanged. */
    sources: z.record(line(300), Sha256),
    criteria: z
      .array(CriterionSchema)
      .max(MAX_CRITERIA)
      .refine((cs) => new Set(cs.map((c) => c.name.toLowerCase())).size === cs.length, 'names a criterion twice'),
    /** Per contested option, the criteria on which its supporters and critics hold opposite stances. */
    contested: z.record(Id, z.array(line(80)).max(MAX_CRITERIA)).optional(),
    requests: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative().optional(),
    /** Found against the bundled scripted server, not `model`: written apart (SCRIPTED_CRITERIA_FILE), never the team's. */
    scripted: z.literal(true).optional(),
    /** sha256 of the file's content without this field: a hand edit (a stance changed, a quote edited) is noticed. */
    sha256: Sha256,
  })
  .strict();
export type CriteriaFile = z.infer<typeof CriteriaFileSchema>;

/**
 * How contested a criterion is: the share of the team holding a position, times how evenly they split.
 * With n the team's size and v, a the members whose grounded stance is `values`, `against`:
 * (v + a) / n × (1 − |v − a| / (v + a)), and 0 when v + a = 0. 1 when everyone holds one and the team splits evenly.
 */
export function controversy(stances: readonly Stance[], teamSize: number): number {
  const v = stances.filter((s) => s === 'values').length;
  const a = stances.filter((s) => s === 'against').length;
  if (v + a === 0 || teamSize <= 0) return 0;
  return ((v + a) / teamSize) * (1 - Math.abs(v - a) / (v + a));
}

/** The hash a criteria file keeps of itself: sha256 of its JSON without `sha256`, keys in the order written. */
export function contentHash(file: Omit<CriteriaFile, 'sha256'> & { sha256?: string }): string {
  const { sha256: _drop, ...rest } = file;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
}

export function sha256Of(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Criteria, most controversial first (ties: by name, so the order is stable). */
export function byControversy(cs: readonly Criterion[]): Criterion[] {
  return [...cs].sort((x, y) => y.controversy - x.controversy || x.name.localeCompare(y.name));
}

/** Criteria cannot be found (nothing worth reading, too large, no usable answer): one sentence; nothing was written. */
export class CriteriaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CriteriaError';
  }
}
