/**
 * The `openai` SDK behind the engine's chat and image interfaces (backend.ts): any OpenAI-compatible endpoint, and Azure
 * OpenAI through the SDK's own AzureOpenAI client (client.ts makes either).
 */
import type OpenAI from 'openai';
import { addUsage, zeroUsage } from '../kernel/usage';
import type { Usage } from '../kernel/usage';
import {
  isModelRequestError,
  type ChatAnswer,
  type ChatBackend,
  type ChatRequest,
  type ImageBackend,
  type ImageEditAnswer,
  type ImageEditRequest,
} from './backend';
import { endpointHost } from './client';
import { isScriptedClient } from './scripted';
import { checkRequestSize, toApiMessages } from './messages';
import { openaiSdk } from './sdk';
import { sdkCall } from './sdkErrors';

export class OpenAIChatBackend implements ChatBackend {
  readonly provider = 'openai' as const;
  readonly acceptsImages: boolean;
  readonly priced = true;
  readonly host: string | undefined;

  /** `textOnly`: the model cannot see images (a local model without vision); the runner sends each image as words. */
  constructor(
    readonly client: OpenAI,
    o: { textOnly?: boolean } = {},
  ) {
    this.host = endpointHost(client);
    this.acceptsImages = o.textOnly !== true;
  }

  get scripted(): boolean {
    return isScriptedClient(this.client);
  }

  async chat(req: ChatRequest): Promise<ChatAnswer> {
    checkRequestSize(req.messages); // counted from the parts: a request past the caps is never built
    // A failed request (or a stream the SDK cannot read on) leaves as a ModelRequestError of its kind (sdkErrors.ts).
    return sdkCall(() => this.send(req));
  }

  private async send(req: ChatRequest): Promise<ChatAnswer> {
    const base = {
      model: req.model,
      messages: toApiMessages(req.messages),
      ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
    };
    if (req.onDelta) {
      const usage = zeroUsage();
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

  get scripted(): boolean {
    return isScriptedClient(this.client);
  }

  edit(req: ImageEditRequest): Promise<ImageEditAnswer> {
    return sdkCall(() => this.send(req));
  }

  private async send(req: ImageEditRequest): Promise<ImageEditAnswer> {
    const sdk = openaiSdk();
    const files = await Promise.all(req.images.map((i) => sdk.toFile(i.data, i.name, { type: i.mime })));
    const res = await this.clientFor(req.model).images.edit(
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

  private readonly azureDeployments = new Map<string, OpenAI>();

  /**
   * Azure routes a request by the deployment in its path. The SDK finds it in a JSON body's `model`, not in a multipart
   * edit's, so an edit goes through an AzureOpenAI client made for that deployment (the SDK's own `deployment` routing).
   */
  private clientFor(model: string): OpenAI {
    const sdk = openaiSdk();
    const c = this.client;
    if (!(c instanceof sdk.AzureOpenAI)) return c;
    let d = this.azureDeployments.get(model);
    if (!d) {
      d = new sdk.AzureOpenAI({
        baseURL: `${c.baseURL.replace(/\/+$/, '')}/deployments/${encodeURIComponent(model)}`,
        apiKey: c.apiKey ?? undefined,
        apiVersion: c.apiVersion,
        timeout: c.timeout,
        maxRetries: c.maxRetries,
      });
      this.azureDeployments.set(model, d);
    }
    return d;
  }

  /**
   * The model list (GET /models costs nothing): a 404 on it, a refused key, or a list without the image model means this
   * endpoint cannot make the remixes. Azure lists base models, not deployments: on its /openai/v1 path only the key and the route are checked.
   */
  async check(model: string, signal?: AbortSignal): Promise<string | undefined> {
    const sdk = openaiSdk();
    const where = `The image endpoint ${this.host ?? 'api.openai.com'}`;
    const setting = 'teamfusion.imageBaseUrl (CLI: --image-base-url or TEAMFUSION_IMAGE_BASE_URL)';
    const azure = this.client instanceof sdk.AzureOpenAI || /\.azure\.com$/i.test(this.host ?? '');
    // Azure's deployments are not in a model list: the SDK's Azure client is not asked (its edits say what is wrong).
    if (this.client instanceof sdk.AzureOpenAI) return undefined;
    let ids: string[];
    try {
      const page = await sdkCall(() => this.client.models.list({ signal }));
      ids = page.data.map((m) => m.id);
    } catch (err) {
      if (isModelRequestError(err, 'auth')) {
        return `${where} did not accept its key (401): set it with "TeamFusion: Set Image API Key" (CLI: TEAMFUSION_IMAGE_API_KEY), or point ${setting} to an endpoint the key belongs to.`;
      }
      if (isModelRequestError(err, 'not-found') && !azure) {
        return `${where} has no model list (404 on /models), so it is not an endpoint that edits images: set ${setting} to one that does (e.g. https://api.openai.com/v1).`;
      }
      // Unreachable, rate-limited, cancelled…: the edit itself will say what is wrong, in the run.
      if (err instanceof Error && err.name === 'AbortError') throw err;
      if (isModelRequestError(err, 'aborted')) throw err;
      return undefined;
    }
    if (azure || ids.length === 0 || ids.includes(model)) return undefined;
    const imageModels = ids.filter((id) => /image|dall-e/i.test(id));
    return `${where} does not list the image model "${model}" (${imageModels.length ? `it lists ${imageModels.slice(0, 5).join(', ')}` : 'it lists no image model'}): set ${setting} to an endpoint that edits images, or teamfusion.imageModel (TEAMFUSION_IMAGE_MODEL) to a model it lists.`;
  }
}

/** OpenAI's chat usage object → ours. */
export function chatUsage(u: OpenAI.CompletionUsage | null | undefined): Partial<Usage> | undefined {
  if (!u) return undefined;
  return {
    inputTokens: u.prompt_tokens ?? 0,
    cachedInputTokens: u.prompt_tokens_details?.cached_tokens ?? 0,
    outputTokens: u.completion_tokens ?? 0,
  };
}
