/**
 * What the brief as a checklist asks (issue 41): once a run, the brief's must-haves, each with a verbatim quote from
 * brief.md; then, for each remix, a check of every item against the image (pass, fail or unclear, one line of reason).
 * Both answers are strict JSON; item ids and results are enums. The brief and the items are data: sent quoted.
 */
import type { StructuredOutput } from '../llm/backend';
import type { ChatMessage, ChatPart } from '../llm/messages';
import { quoted } from '../llm/quoted';
import { CHECK_RESULTS, type Checklist } from '../record/record';

/** At most this many must-haves are asked for. */
export const MAX_CHECKLIST_ITEMS = 8;

export const CHECKLIST_STRUCTURED: StructuredOutput = {
  name: 'teamfusion_checklist',
  strict: true,
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['items'],
    properties: {
      items: {
        type: 'array',
        description: `The brief's must-haves, at most ${MAX_CHECKLIST_ITEMS}.`,
        maxItems: MAX_CHECKLIST_ITEMS,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['text', 'quote'],
          properties: {
            text: { type: 'string', description: 'The must-have as one short checkable requirement.' },
            quote: { type: 'string', description: 'The words of the brief that state it, copied exactly (verbatim).' },
          },
        },
      },
    },
  },
};

export function checklistMessages(brief: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `List the must-haves of the design brief below: what any design for it must show or respect, each as one short requirement ` +
        `that can be checked by looking at an image, at most ${MAX_CHECKLIST_ITEMS}. For each give "quote": the words of the brief that ` +
        'state it, copied exactly as they stand (a quote not found in the brief is dropped). Answer with JSON only.',
    },
    { role: 'user', content: `The brief (brief.md), quoted:\n${quoted(brief)}` },
  ];
}

/** The answer of one check: every item once, its result and one line of reason. */
export function checkStructured(itemIds: readonly string[]): StructuredOutput {
  return {
    name: 'teamfusion_check',
    strict: true,
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['checks'],
      properties: {
        checks: {
          type: 'array',
          description: `One entry per item (${itemIds.join(', ')}), in that order.`,
          minItems: itemIds.length,
          maxItems: itemIds.length,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['item', 'result', 'reason'],
            properties: {
              item: { type: 'string', enum: [...itemIds] },
              result: { type: 'string', enum: [...CHECK_RESULTS] },
              reason: { type: 'string', description: 'One line: what in the image decides it.' },
            },
          },
        },
      },
    },
  };
}

/** The check of one remix: the items (quoted) and the image. */
export function checkMessages(items: Checklist['items'], image: ChatPart): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You check one design against the must-haves of its brief. For each item say "pass" when the image clearly meets it, ' +
        '"fail" when it clearly does not, "unclear" when the image cannot tell; give one line of reason naming what you see. ' +
        'Answer with JSON only.',
    },
    {
      role: 'user',
      content: [
        {
          type: 'text',
          text: `The must-haves (each with the brief's words, quoted):\n${items.map((i) => `${i.id}: ${quoted(i.text)} — brief: ${quoted(i.quote)}`).join('\n')}`,
        },
        image,
      ],
    },
  ];
}
