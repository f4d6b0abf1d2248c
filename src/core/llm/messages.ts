/**
 * Chat messages built once and rendered twice: for the API (images as data URLs) and for the run record (images as
 * references: file + sha256 + mime). Keeping one source guarantees that what is recorded is what was sent.
 */
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { RecordedMessage } from '../record/record';
import type { PreparedImage } from './images';

export type ChatPart =
  | { type: 'text'; text: string }
  /** `file` is relative to the review root. */
  | { type: 'image'; file: string; label: string; image: PreparedImage };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ChatPart[];
}

export function toApiMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    if (typeof m.content === 'string') return { role: m.role, content: m.content };
    if (m.role !== 'user') {
      // Only user messages may carry images; other roles get their text parts joined.
      return { role: m.role, content: m.content.map((p) => (p.type === 'text' ? p.text : `[${p.label}]`)).join('\n\n') };
    }
    const parts: ChatCompletionContentPart[] = m.content.map((p) =>
      p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: p.image.dataUrl } },
    );
    return { role: 'user', content: parts };
  });
}

export function toRecordedMessages(messages: readonly ChatMessage[]): RecordedMessage[] {
  return messages.map((m) => ({
    role: m.role,
    content:
      typeof m.content === 'string'
        ? m.content
        : m.content.map((p) =>
            p.type === 'text'
              ? { type: 'text' as const, text: p.text }
              : { type: 'image' as const, file: p.file, label: p.label, sha256: p.image.sha256, mime: p.image.mime },
          ),
  }));
}

/**
 * For a text-only chat model: every image part becomes a text part that names the candidate and says what is known of it
 * (`describe(file)`: the designers' justifications, or what a remix was made from), so nothing is sent that it cannot read.
 */
export function withoutImages(messages: readonly ChatMessage[], describe: (file: string) => string | undefined): ChatMessage[] {
  return messages.map((m) =>
    typeof m.content === 'string'
      ? m
      : {
          ...m,
          content: m.content.map((p): ChatPart => {
            if (p.type === 'text') return p;
            const about = describe(p.file);
            return { type: 'text', text: `[${p.label}: an image this model cannot see${about ? `. ${about}` : ''}]` };
          }),
        },
  );
}

/** The most text one request may carry (about a million tokens, the largest context window a chat model offers). */
export const MAX_REQUEST_TEXT_BYTES = 4 * 1024 * 1024;
/** The most one request may carry with its images (as data URLs). */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

/** Bytes of text and of images (data URLs) of a request, counted from its parts without building it. */
export function requestBytes(messages: readonly ChatMessage[]): { text: number; images: number } {
  let text = 0;
  let images = 0;
  for (const m of messages) {
    if (typeof m.content === 'string') text += Buffer.byteLength(m.content, 'utf8');
    else
      for (const p of m.content)
        if (p.type === 'text') text += Buffer.byteLength(p.text, 'utf8');
        else images += p.image.dataUrl.length;
  }
  return { text, images };
}

/** A request larger than a request may be, refused before it is built or sent. */
export class RequestTooLargeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RequestTooLargeError';
  }
}

/** Throws RequestTooLargeError (one sentence) when `messages` would make a request past the caps. Every backend calls it first. */
export function checkRequestSize(messages: readonly ChatMessage[]): void {
  const { text, images } = requestBytes(messages);
  const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (text > MAX_REQUEST_TEXT_BYTES) {
    throw new RequestTooLargeError(
      `This request would carry ${mb(text)} of text, more than the ${mb(MAX_REQUEST_TEXT_BYTES)} a request may; it was not sent.`,
    );
  }
  if (text + images > MAX_REQUEST_BYTES) {
    throw new RequestTooLargeError(
      `This request would carry ${mb(text + images)} with its images, more than the ${mb(MAX_REQUEST_BYTES)} a request may; it was not sent (a smaller imageMaxSide makes the images smaller).`,
    );
  }
}
