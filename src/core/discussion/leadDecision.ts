/**
 * Step 3b — under `hierarchy: lead-decides`: at the end of a round, the lead's proxy settles each decision point the remix
 * agent surfaced (strict JSON, one decision per point). Recorded on the iteration as `decisions` with who made them
 * (`by`: the lead's id, `via`: proxy — a person deciding in person can record `via: human`). In a round that makes a remix
 * the decisions are added to the editing directions, so the edit follows them; later rounds see them in their history.
 */
import * as z from 'zod';
import { toRecordedMessages, type ChatMessage } from '../llm/messages';
import { addPrompt, nameOf, nextPromptId, type StepContext } from '../step/context';
import { conversationMessages, temperatureOf } from './discussion';
import { discussionOf } from '../settings/discussionSettings';
import { isAbort } from '../llm/errors';
import { CancelledError, StepError, withChildSignal } from '../kernel/errors';
import { leadDecisionMessage } from './remixPrompts';
import type { Iteration } from '../record/record';

/** Whether this round still needs the lead's decisions. */
export function needsLeadDecision(ctx: Pick<StepContext, 'settings' | 'designers'>, it: Iteration): boolean {
  const lead = ctx.settings.lead;
  return (
    discussionOf(ctx.settings).hierarchy === 'lead-decides' &&
    lead !== undefined &&
    ctx.designers.some((d) => d.id === lead) &&
    Boolean(it.decisionPoints?.length) &&
    it.decisions === undefined &&
    !it.remix &&
    !it.remixes?.length
  );
}

const AnswerSchema = z.object({
  decisions: z
    .array(z.object({ question: z.string().optional(), decision: z.string().trim().min(1), reason: z.string().optional() }))
    .min(1),
});

export async function runLeadDecision(ctx: StepContext, it: Iteration, prefix: readonly ChatMessage[]): Promise<void> {
  const lead = ctx.designers.find((d) => d.id === ctx.settings.lead)!;
  const points = it.decisionPoints ?? [];
  const messages: ChatMessage[] = [
    ...prefix,
    ...conversationMessages(ctx, it),
    leadDecisionMessage({ lead, decisionPoints: points, nameOf: (id) => nameOf(ctx.designers, id), personaRole: ctx.settings.personaRole }),
  ];
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['decisions'],
    properties: {
      decisions: {
        type: 'array',
        minItems: points.length,
        maxItems: points.length,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['question', 'decision', 'reason'],
          properties: { question: { type: 'string' }, decision: { type: 'string' }, reason: { type: 'string' } },
        },
      },
    },
  };
  const structured = { name: 'teamfusion_lead_decisions', strict: true, schema };
  let completion;
  try {
    completion = await withChildSignal(ctx.signal, (signal) =>
      ctx.chat.chat({ model: ctx.settings.chatModel, messages, ...temperatureOf(ctx), structured, signal }),
    );
  } catch (err) {
    if (isAbort(err, ctx.signal)) throw new CancelledError();
    throw err;
  }
  const content = completion.text;
  let parsed: z.infer<typeof AnswerSchema> | undefined;
  try {
    const r = AnswerSchema.safeParse(JSON.parse(content));
    if (r.success) parsed = r.data;
  } catch {
    parsed = undefined;
  }
  const at = new Date().toISOString();
  addPrompt(ctx.record, {
    id: nextPromptId(ctx.record),
    iteration: it.index,
    kind: 'lead-decision',
    speaker: lead.id,
    model: completion.model ?? ctx.settings.chatModel,
    at,
    messages: toRecordedMessages(messages),
    responseSchema: structured,
    usage: completion.usage,
    ...temperatureOf(ctx),
    ...(parsed ? {} : { rejectedOutput: content, error: 'not a usable list of decisions' }),
  });
  if (!parsed) {
    await ctx.save();
    throw new StepError(`${lead.name}'s proxy gave no usable decisions for the open decision points. Resume the run to try again.`);
  }
  // One decision per point, in order; the question is always the remix agent's (the model may shorten it).
  it.decisions = points.slice(0, parsed.decisions.length).map((p, i) => {
    const d = parsed!.decisions[i]!;
    const reason = d.reason?.trim();
    return { question: p.question, decision: d.decision, ...(reason ? { reason } : {}), by: lead.id, via: 'proxy' as const, at };
  });
  if (!it.final && it.decisions.length && (it.editingDirections || it.proposals?.length)) {
    const line = `Decided by the lead: ${it.decisions.map((d) => `${d.question.replace(/[.?!]\s*$/, '')} → ${d.decision}`).join('; ')}.`;
    // Every edit of the round carries the lead's decisions (its one remix's directions, or each proposal's).
    for (const target of [it, ...(it.proposals ?? [])]) {
      if (!target.editingDirections) continue;
      target.editingDirections = `${target.editingDirections}\n${line}`;
      if (target.editingDirectionsDiscussed) target.editingDirectionsDiscussed = `${target.editingDirectionsDiscussed}\n${line}`;
    }
  }
  await ctx.save();
  ctx.emit({
    type: 'notice',
    runId: ctx.record.id,
    level: 'info',
    message: `${lead.name}'s proxy settled ${it.decisions.length} decision point${it.decisions.length === 1 ? '' : 's'}.`,
  });
}
