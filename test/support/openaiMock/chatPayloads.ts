/**
 * Chat completion answers shaped like OpenAI's: chat.completion objects, chat.completion.chunk SSE chunks,
 * and token usage estimated from the request (text ≈ 4 characters a token, an image ≈ 765 tokens, 85 at detail low),
 * with prompt caching imitated: a prompt of ≥ 1024 tokens reuses its longest prefix shared with an earlier one, in 128-token steps.
 */
import { createHash } from 'node:crypto';
import { isObject } from './openapiSchema';
import type { MockUsage } from './types';

export interface UsageNumbers {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

/** One piece of a prompt for prefix matching: a stable key and its token weight. */
interface PromptUnit {
  key: string;
  tokens: number;
}

const textTokens = (text: string): number => Math.ceil(text.length / 4);

/** The prompt as units (message headers, text parts, images), in order. */
export function promptUnits(body: unknown): PromptUnit[] {
  const units: PromptUnit[] = [];
  const messages = isObject(body) && Array.isArray(body.messages) ? body.messages : [];
  for (const m of messages) {
    if (!isObject(m)) continue;
    units.push({ key: `role:${String(m.role)}`, tokens: 4 });
    const content = m.content;
    if (typeof content === 'string') {
      units.push({ key: `text:${content}`, tokens: textTokens(content) });
    } else if (Array.isArray(content)) {
      for (const part of content) {
        if (!isObject(part)) continue;
        if (part.type === 'text' && typeof part.text === 'string') {
          units.push({ key: `text:${part.text}`, tokens: textTokens(part.text) });
        } else if (part.type === 'image_url' && isObject(part.image_url)) {
          const url = typeof part.image_url.url === 'string' ? part.image_url.url : '';
          const low = part.image_url.detail === 'low';
          const digest = createHash('sha1').update(url).digest('hex');
          units.push({ key: `image:${digest}:${low ? 'low' : 'high'}`, tokens: low ? 85 : 765 });
        } else {
          const json = JSON.stringify(part);
          units.push({ key: `part:${json}`, tokens: textTokens(json) });
        }
      }
    }
  }
  if (isObject(body) && body.response_format !== undefined) {
    const json = JSON.stringify(body.response_format);
    units.push({ key: `format:${json}`, tokens: textTokens(json) });
  }
  return units;
}

/** Remembers earlier prompts and tells how many tokens of a new one would be served from the cache. */
export class PromptCache {
  private history: PromptUnit[][] = [];

  /** Prompt token count and cached tokens of `units`, then remembers them. */
  account(units: PromptUnit[]): { promptTokens: number; cachedTokens: number } {
    const promptTokens = Math.max(
      1,
      units.reduce((sum, u) => sum + u.tokens, 0),
    );
    let best = 0;
    for (const earlier of this.history) {
      let shared = 0;
      for (const [i, unit] of units.entries()) {
        if (earlier[i]?.key !== unit.key) break;
        shared += unit.tokens;
      }
      best = Math.max(best, shared);
    }
    this.history.push(units);
    if (this.history.length > 200) this.history.shift();
    const cachedTokens = promptTokens >= 1024 ? Math.min(Math.floor(best / 128) * 128, promptTokens) : 0;
    return { promptTokens, cachedTokens };
  }

  clear(): void {
    this.history = [];
  }
}

export function makeUsage(estimated: { promptTokens: number; cachedTokens: number }, content: string, forced?: MockUsage): UsageNumbers {
  const prompt = forced?.prompt_tokens ?? estimated.promptTokens;
  const completion = forced?.completion_tokens ?? Math.max(1, textTokens(content));
  const cached = Math.min(forced?.cached_tokens ?? estimated.cachedTokens, prompt);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

export function chatCompletion(meta: CompletionMeta, content: string, usage: UsageNumbers, finishReason = 'stop'): object {
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage,
    service_tier: 'default',
    system_fingerprint: 'fp_mock',
  };
}

/**
 * Splits text into stream deltas of a few words each (whitespace kept, so joining them gives the text back);
 * long runs without spaces (JSON) are cut every 16 characters so they stream in pieces too.
 */
export function splitDeltas(content: string, wordsPerChunk = 3): string[] {
  const tokens = content.match(/\S{1,16}\s*|\s+/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i += wordsPerChunk) out.push(tokens.slice(i, i + wordsPerChunk).join(''));
  return out;
}

/** The SSE chunks of a streamed answer (without the final [DONE]). */
export function chatChunks(
  meta: CompletionMeta,
  content: string,
  usage: UsageNumbers,
  includeUsage: boolean,
  finishReason = 'stop',
): object[] {
  const base = {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    service_tier: 'default',
    system_fingerprint: 'fp_mock',
  };
  const withUsage = (chunk: object): object => (includeUsage ? { ...chunk, usage: null } : chunk);
  const chunks: object[] = [
    withUsage({
      ...base,
      choices: [{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }],
    }),
  ];
  for (const piece of splitDeltas(content)) {
    chunks.push(withUsage({ ...base, choices: [{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }] }));
  }
  chunks.push(withUsage({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: finishReason }] }));
  if (includeUsage) chunks.push({ ...base, choices: [], usage });
  return chunks;
}
