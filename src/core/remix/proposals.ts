/**
 * The remix agent's proposals (several remixes a round, issue 19; a pool's candidates, issue 41): their JSON schema (what
 * the model is asked for) and zod schema (what an answer must be: exactly n, no two with the same directions), the
 * directions in four labelled parts, and a proposal as the edits take it (labels renumbered for its own inputs).
 */
import * as z from 'zod';
import type { StepContext } from '../step/context';
import { DIRECTION_PARTS, type PromptCandidate, type PromptReference } from '../discussion/prompts';
import { joinDirections } from '../discussion/remixPrompts';
import { editText } from './editText';
import { referencesForEdit } from './imageEdit';
import type { Pool, Proposal } from '../record/record';

/** One proposal as the remix agent wrote it (the discussion's labels); `differs` only in a pool (issue 41). */
export interface AgentProposal {
  idea?: string;
  differs?: string;
  from: string[];
  editingDirections: string;
}

/**
 * The JSON schema of one proposal of several remixes a round: what it sets out to do, its inputs and its four-part
 * directions; in a pool (issue 41) also one line on how it differs from the others.
 */
export function proposalJsonSchema(candidateIds: readonly string[], maxInputs: number, pooled = false) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['idea', ...(pooled ? ['differs'] : []), 'from', 'editingDirections'],
    properties: {
      idea: { type: 'string', description: 'What this remix sets out to do, in a few words.' },
      ...(pooled ? { differs: { type: 'string', description: 'One line: how these directions differ from the other proposals.' } } : {}),
      from: {
        type: 'array',
        description: 'The candidate ids this remix starts from, best first: its input images, in this order.',
        items: { type: 'string', enum: [...candidateIds] },
        minItems: 1,
        maxItems: maxInputs,
      },
      editingDirections: directionsJsonSchema(),
    },
  };
}

export function directionsJsonSchema() {
  const parts = Object.fromEntries(
    DIRECTION_PARTS.map((p) => [p.key, { type: 'string', description: `${p.label}: what to take, change and avoid.` }]),
  );
  return {
    type: 'object',
    description: 'Instructions for the image-edit model, in four parts.',
    additionalProperties: false,
    required: DIRECTION_PARTS.map((p) => p.key),
    properties: parts,
  };
}

/** The `remixes` field: exactly `n` proposals (a pool's candidates when `pooled`). */
export function proposalsJsonSchema(candidateIds: readonly string[], maxInputs: number, n: number, pooled = false) {
  return {
    type: 'array',
    description: pooled
      ? `Exactly ${n} different proposals: the pool the team's proxies rank and elect from.`
      : `Exactly ${n} different proposals, each made by its own image edit.`,
    items: proposalJsonSchema(candidateIds, maxInputs, pooled),
    minItems: n,
    maxItems: n,
  };
}

export const directionsSchema = z
  .union([
    z.string(),
    z.object(
      Object.fromEntries(DIRECTION_PARTS.map((p) => [p.key, z.string().optional()])) as Record<
        (typeof DIRECTION_PARTS)[number]['key'],
        z.ZodOptional<z.ZodString>
      >,
    ),
  ])
  .transform((v) => (typeof v === 'string' ? v.trim() : joinDirections(v)))
  .refine((v) => v.length > 0, 'editingDirections is empty');

/** Exactly `n` proposals over `candidateIds`, no two with the same directions (zod; `differs` is a pool's, issue 41). */
export function proposalsSchema(candidateIds: readonly string[], n: number) {
  const candidate = z.enum(candidateIds as [string, ...string[]]);
  return z
    .array(
      z.object({
        idea: z.string().optional(),
        differs: z.string().optional(),
        from: z.array(candidate).min(1),
        editingDirections: directionsSchema,
      }),
    )
    .length(n, { message: `must hold exactly ${n} proposals` })
    .superRefine((list, c) => {
      const seen = new Map<string, number>();
      list.forEach((p, i) => {
        const key = p.editingDirections
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, ' ')
          .trim();
        const same = seen.get(key);
        if (same !== undefined) {
          c.addIssue({
            code: 'custom',
            path: [i, 'editingDirections'],
            message: `proposal ${i + 1} has the same editing directions as proposal ${same + 1}; each remix must be different`,
          });
        } else seen.set(key, i);
      });
    });
}

/** A proposal as parsed: trimmed idea and differs, distinct inputs, at most `maxInputs` of them. */
export function agentProposal(
  p: { idea?: string; differs?: string; from: string[]; editingDirections: string },
  maxInputs: number,
): AgentProposal {
  return {
    ...(p.idea?.trim() ? { idea: p.idea.trim() } : {}),
    ...(p.differs?.trim() ? { differs: p.differs.trim() } : {}),
    from: [...new Set(p.from)].slice(0, maxInputs),
    editingDirections: p.editingDirections,
  };
}

/**
 * Proposals as the edits take them: each one's directions renumbered for its own inputs ("Image 1" = its first `from`),
 * with the references cited this round that its edit can take; the text as discussed kept beside it. Unmapped labels
 * are said once.
 */
export function proposalsForEdit(
  ctx: StepContext,
  r: {
    candidates: readonly Pick<PromptCandidate, 'id' | 'label'>[];
    references?: readonly Pick<PromptReference, 'id' | 'label' | 'note'>[];
  },
  cited: readonly string[],
  items: readonly (Pick<Proposal, 'letter' | 'idea' | 'from'> & { editingDirections: string })[],
): Proposal[] {
  const byId = new Map(r.candidates.map((c) => [c.id, c]));
  const unmapped = new Set<string>();
  const proposals = items.map((p) => {
    const sent = referencesForEdit(p.from.length, cited, ctx.settings.imageModel).sent.map((id) =>
      (r.references ?? []).find((x) => x.id === id)!,
    );
    const mapped = editText(
      p.editingDirections,
      p.from.map((id) => ({ label: byId.get(id)?.label ?? id })),
      sent,
    );
    for (const u of mapped.unmapped) unmapped.add(u);
    return {
      letter: p.letter,
      ...(p.idea ? { idea: p.idea } : {}),
      from: p.from,
      editingDirections: mapped.text,
      editingDirectionsDiscussed: p.editingDirections,
    };
  });
  if (unmapped.size) {
    ctx.emit({
      type: 'notice',
      runId: ctx.record.id,
      level: 'warning',
      message: `The editing directions mention ${[...unmapped].join(', ')}, which the edit model will not receive.`,
    });
  }
  return proposals;
}

/** A pool's candidates (issue 41) from the agent's proposals: lettered a, b, …, with the discussion's labels. */
export function poolCandidates(proposals: readonly AgentProposal[]): Pool['candidates'] {
  return proposals.map((p, i) => ({
    letter: String.fromCharCode(97 + i),
    editingDirections: p.editingDirections,
    from: p.from,
    differs: p.differs ?? p.idea ?? '',
  }));
}
