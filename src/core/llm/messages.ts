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
