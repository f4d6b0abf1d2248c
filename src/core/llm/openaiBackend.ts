/**
 * The `openai` SDK behind the engine's chat and image interfaces (backend.ts): any OpenAI-compatible endpoint, and Azure
 * OpenAI through the SDK's own AzureOpenAI client (client.ts makes either).
 */
import type OpenAI from 'openai';
import { chatUsage, addUsage } from '../run/context';
import type { Usage } from '../run/record';
import type { ChatAnswer, ChatBackend, ChatRequest, ImageBackend, ImageEditAnswer, ImageEditRequest } from './backend';
import { endpointHost } from './client';
import { toApiMessages } from './messages';
import { openaiSdk } from './sdk';

export class OpenAIChatBackend implements ChatBackend {
  readonly provider = 'openai' as const;
  readonly acceptsImages = true;
  readonly priced = true;
  readonly host: string | undefined;

  constructor(readonly client: OpenAI) {
    this.host = endpointHost(client);
  }

  async chat(req: ChatRequest): Promise<ChatAnswer> {
    const base = {
      model: req.model,
      messages: toApiMessages(req.messages),
      ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
    };
    if (req.onDelta) {
      const usage: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, images: 0 };
      let text = '';
      let finishReason: string | undefined;
      const stream = await this.client.chat.completions.create(
        { ...base, stream: true, stream_options: { include_usage: true } },
        { signal: req.signal },
      );
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        const delta = choice?.delta?.content;
        if (delta) {
          text += delta;
          req.onDelta(delta);
        }
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        const u = chatUsage(chunk.usage);
        if (u) addUsage(usage, u);
      }
      return { text, finishReason, usage };
    }
    const completion = await this.client.chat.completions.create(
      { ...base, ...(req.structured ? { response_format: { type: 'json_schema' as const, json_schema: req.structured } } : {}) },
      { signal: req.signal },
    );
    const choice = completion.choices[0];
    return {
      text: choice?.message?.content ?? '',
      ...(choice?.message?.refusal ? { refusal: choice.message.refusal } : {}),
      finishReason: choice?.finish_reason,
      usage: chatUsage(completion.usage),
    };
  }
}

export class OpenAIImageBackend implements ImageBackend {
  readonly host: string | undefined;

  constructor(readonly client: OpenAI) {
    this.host = endpointHost(client);
  }

  async edit(req: ImageEditRequest): Promise<ImageEditAnswer> {
    const sdk = openaiSdk();
    const files = await Promise.all(req.images.map((i) => sdk.toFile(i.data, i.name, { type: i.mime })));
    const res = await this.client.images.edit(
      {
        model: req.model,
        image: files,
        prompt: req.prompt,
        n: 1,
        ...(req.size ? { size: req.size as OpenAI.ImageEditParams['size'] } : {}),
        ...(req.quality ? { quality: req.quality as OpenAI.ImageEditParams['quality'] } : {}),
      },
      { signal: req.signal },
    );
    const first = res.data?.[0];
    return { b64: first?.b64_json ?? undefined, url: first?.url ?? undefined, usage: res.usage };
  }
}
