/**
 * What the mock answers when nothing is queued and no fallback decides:
 * a short designer-like chat turn that names image labels from the request, a JSON instance of the requested
 * json_schema, or a PNG for image edits.
 */
import { isObject } from './openapiSchema';
import { instanceFromSchema } from './schemaInstance';
import type { MockReply, RecordedRequest } from './types';

/** Every text the request's messages carry, in order. */
export function requestTexts(body: unknown): string[] {
  const texts: string[] = [];
  const messages = isObject(body) && Array.isArray(body.messages) ? body.messages : [];
  for (const m of messages) {
    if (!isObject(m)) continue;
    if (typeof m.content === 'string') texts.push(m.content);
    else if (Array.isArray(m.content)) {
      for (const part of m.content) if (isObject(part) && typeof part.text === 'string') texts.push(part.text);
    }
  }
  return texts;
}

/** Distinct "Image k" labels in the request, in order of first appearance (e.g. "Image 3", "Image B", "Image option-2"). */
export function imageLabels(body: unknown): string[] {
  const labels: string[] = [];
  for (const text of requestTexts(body)) {
    for (const m of text.matchAll(/\bImage\s+([A-Za-z0-9][\w.-]*[A-Za-z0-9]|[A-Za-z0-9])/g)) {
      const label = `Image ${m[1]}`;
      if (!labels.includes(label)) labels.push(label);
    }
  }
  return labels;
}

const AGREE = [
  (a: string, b?: string) =>
    `I agree: ${a} has the strongest focal point${b ? `, and ${b} comes close` : ''}. Its palette fits the brief's mood, so I would keep it in the next round.`,
  (a: string, b?: string) =>
    `Good point. ${a} reads clearly at a glance${b ? ` where ${b} feels busier` : ''}; I'd keep its composition and warm up the colours a little.`,
];
const DISAGREE = [
  (a: string, b?: string) =>
    `I see it differently: ${a} looks polished but generic${b ? `, while ${b} has more character` : ''}. I'd rank it lower for this brand.`,
  (a: string, b?: string) =>
    `I'm not convinced by ${a}. The typography fights the product shot${b ? `; ${b} handles that balance better` : ''}, so it should not lead.`,
];

/** A short designer-like chat turn; which labels and stance vary with the conversation length. */
export function designerReply(body: unknown): string {
  const labels = imageLabels(body);
  const messages = isObject(body) && Array.isArray(body.messages) ? body.messages.length : 0;
  const agree = messages % 2 === 0;
  const pick = agree ? AGREE : DISAGREE;
  const phrase = pick[Math.floor(messages / 2) % pick.length];
  if (labels.length === 0) {
    return agree
      ? 'I agree with the direction so far: the calmer options suit the brief better than the loud ones.'
      : 'I disagree a little: the boldest option is the only one that would stand out on a shelf.';
  }
  const first = labels[messages % labels.length] ?? '';
  const second = labels.length > 1 ? labels[(messages + 1) % labels.length] : undefined;
  return phrase ? phrase(first, second) : first;
}

/** The json_schema of a request's response_format, when it asks for one. */
export function requestedJsonSchema(body: unknown): { name: string; schema: unknown } | undefined {
  if (!isObject(body) || !isObject(body.response_format) || body.response_format.type !== 'json_schema') return undefined;
  const js = body.response_format.json_schema;
  if (!isObject(js)) return undefined;
  return { name: typeof js.name === 'string' ? js.name : 'response', schema: js.schema ?? {} };
}

const FILLER = ' The label, the cap and the bottle read as one family, and the shelf test is what decides it in the end.';

/** `text` made about `bytes` long with more of the same kind of words (never shorter than it was). */
export function padReply(text: string, bytes: number): string {
  let out = text;
  while (Buffer.byteLength(out) + FILLER.length <= bytes) out += FILLER;
  return out;
}

/** The default reply for a request (route-specific); `messageBytes` pads plain designer replies to about that size. */
export function defaultReply(req: RecordedRequest, messageBytes = 0): MockReply {
  if (req.route === 'edit') return { kind: 'image' };
  const wanted = requestedJsonSchema(req.body);
  if (wanted) return { kind: 'json', value: instanceFromSchema(wanted.schema, wanted.name) };
  if (isObject(req.body) && isObject(req.body.response_format) && req.body.response_format.type === 'json_object') {
    return { kind: 'json', value: { answer: designerReply(req.body) } };
  }
  return { kind: 'chat', content: padReply(designerReply(req.body), messageBytes) };
}
