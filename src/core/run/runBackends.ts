/** The chat and image backends of a run, and the wrappers the engine puts around the chat (text-only, checked first). */
import type OpenAI from 'openai';
import type { ChatBackend, ChatRequest, ImageBackend } from '../llm/backend';
import { withoutImages } from '../llm/messages';
import { OpenAIChatBackend, OpenAIImageBackend } from '../llm/openaiBackend';
import type { Review } from '../review/model';
import type { RunRecord } from '../record/record';
import { remixesWithDirections } from '../record/remixes';
import { reviewRelative } from '../record/paths';

/** The chat and image backends of a run: those given, else the openai SDK client's. */
export function backendsOf(o: { client?: OpenAI; chat?: ChatBackend; images?: ImageBackend }): { chat: ChatBackend; images: ImageBackend } {
  const need = (what: string): OpenAI => {
    if (!o.client) throw new Error(`A run needs a ${what} backend or an openai client.`);
    return o.client;
  };
  return { chat: o.chat ?? new OpenAIChatBackend(need('chat')), images: o.images ?? new OpenAIImageBackend(need('image')) };
}

/** What a text-only model is told about a candidate: the designers' justifications, or what a remix was made from. */
export function describeCandidate(review: Review, record: RunRecord, file: string): string | undefined {
  const reference = record.references?.find((r) => r.file === file);
  if (reference)
    return `A reference image the team chose for style, not a candidate${reference.note ? `: ${JSON.stringify(reference.note)}` : ''}`;
  const option = record.options.find((op) => op.file === file);
  if (!option) return undefined;
  const remix = record.iterations.flatMap((it) => remixesWithDirections(it)).find((m) => reviewRelative(record.id, m.file) === file);
  if (remix) {
    const from = (remix.from ?? []).map((id) => record.options.find((op) => op.id === id)?.label ?? id).join(', ');
    return `A remix made from ${from}${remix.editingDirections ? ` with these directions: ${remix.editingDirections.replace(/\s+/g, ' ').trim()}` : ''}`;
  }
  const said = review.designers
    .map((d) => ({ d, e: d.entries.find((e) => e.option === option.id) }))
    .filter((x) => x.e?.justification?.trim())
    .map((x) => `${x.d.name} (rank ${x.e!.rank}): ${x.e!.justification.trim()}`);
  return said.length ? `What the designers wrote about it — ${said.join('; ')}` : undefined;
}

export function textOnly(chat: ChatBackend, describe: (file: string) => string | undefined): ChatBackend {
  return {
    provider: chat.provider,
    host: chat.host,
    acceptsImages: false,
    priced: chat.priced,
    chat: (req) => chat.chat({ ...req, messages: withoutImages(req.messages, describe) }),
  };
}

/** `chat` whose first request waits for `check` (run once; its failure fails that request and every later one). */
export function checkedFirst(chat: ChatBackend, check: () => Promise<void>): ChatBackend {
  let checked: Promise<void> | undefined;
  return {
    provider: chat.provider,
    host: chat.host,
    acceptsImages: chat.acceptsImages,
    priced: chat.priced,
    async chat(req) {
      await (checked ??= check());
      return chat.chat(req);
    },
  };
}

/**
 * `chat` that hands each request's messages to `sent` once the request is on its way (the run writes their prompt parts
 * while it is in flight: PromptPartsWriter.ahead).
 */
export function partsAhead(chat: ChatBackend, sent: (messages: ChatRequest['messages']) => void): ChatBackend {
  return {
    provider: chat.provider,
    host: chat.host,
    acceptsImages: chat.acceptsImages,
    priced: chat.priced,
    chat(req) {
      const answer = chat.chat(req);
      sent(req.messages);
      return answer;
    },
  };
}
