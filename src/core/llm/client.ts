/**
 * The one place a model client is made. The `openai` SDK does the transport: it reads OPENAI_API_KEY / OPENAI_BASE_URL when
 * they are not given, times out each request and retries 429 (honouring retry-after), 408/409, 5xx and connection errors.
 * The key is never logged, recorded or written anywhere by TeamFusion.
 */
import type OpenAI from 'openai';
import { openaiSdk } from './sdk';
import { watchingFetch } from './scripted';

/** The configuration is unusable (no key). The message is one sentence a user can act on. */
export class ModelConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelConfigError';
  }
}

export interface ModelClientConfig {
  apiKey?: string;
  baseURL?: string;
  /** Timeout of one request in milliseconds (default 120 000). */
  timeoutMs?: number;
  /** Retries of one request by the SDK (default 3). */
  maxRetries?: number;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = 3;

export const NO_KEY_MESSAGE =
  'No API key: set OPENAI_API_KEY (and OPENAI_BASE_URL for a non-OpenAI endpoint), or use "TeamFusion: Set API Key" in VS Code.';

export function createModelClient(cfg: ModelClientConfig = {}): OpenAI {
  const sdk = openaiSdk();
  // Every answer is watched for the scripted server's mark (scripted.ts), so a run against it is labelled as such.
  let client: OpenAI | undefined;
  const common = {
    timeout: cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: cfg.maxRetries ?? DEFAULT_MAX_RETRIES,
    fetch: watchingFetch(() => client),
  };
  // Azure OpenAI through the SDK's own client: AZURE_OPENAI_ENDPOINT (+ AZURE_OPENAI_API_KEY, OPENAI_API_VERSION), deployment
  // names as model names, the `api-key` header and `api-version` on every request. Only when no base URL was given: Azure's
  // OpenAI-compatible `/openai/v1` path is a plain base URL.
  const azureEndpoint = nonEmpty(process.env.AZURE_OPENAI_ENDPOINT);
  if (azureEndpoint && !nonEmpty(cfg.baseURL) && !nonEmpty(process.env.OPENAI_BASE_URL)) {
    const apiKey = nonEmpty(cfg.apiKey) ?? nonEmpty(process.env.AZURE_OPENAI_API_KEY) ?? nonEmpty(process.env.OPENAI_API_KEY);
    if (!apiKey) throw new ModelConfigError(NO_AZURE_KEY_MESSAGE);
    const apiVersion = nonEmpty(process.env.OPENAI_API_VERSION);
    if (!apiVersion) throw new ModelConfigError(NO_AZURE_VERSION_MESSAGE);
    return (client = new sdk.AzureOpenAI({ endpoint: azureEndpoint, apiKey, apiVersion, ...common }));
  }
  const apiKey = nonEmpty(cfg.apiKey) ?? nonEmpty(process.env.OPENAI_API_KEY);
  if (!apiKey) throw new ModelConfigError(NO_KEY_MESSAGE);
  return (client = new sdk.OpenAI({
    apiKey,
    // undefined → the SDK reads OPENAI_BASE_URL itself, else api.openai.com.
    baseURL: nonEmpty(cfg.baseURL),
    ...common,
  }));
}

export const NO_AZURE_KEY_MESSAGE = 'AZURE_OPENAI_ENDPOINT is set but no key: set AZURE_OPENAI_API_KEY (or OPENAI_API_KEY).';
export const NO_AZURE_VERSION_MESSAGE =
  'AZURE_OPENAI_ENDPOINT is set but not the API version: set OPENAI_API_VERSION (e.g. 2025-04-01-preview).';

/**
 * The image endpoint, apart from the chat one when it has a URL or a key of its own (`TEAMFUSION_IMAGE_BASE_URL` /
 * `--image-base-url` / `teamfusion.imageBaseUrl`, `TEAMFUSION_IMAGE_API_KEY` / "Set Image API Key"); else undefined: the chat
 * client serves image edits too. Its key falls back to the chat key, its URL to the chat URL.
 */
export function createImageClient(image: { apiKey?: string; baseURL?: string }, chat: ModelClientConfig): OpenAI | undefined {
  const apiKey = nonEmpty(image.apiKey);
  const baseURL = nonEmpty(image.baseURL);
  if (!apiKey && !baseURL) return undefined;
  return createModelClient({ ...chat, apiKey: apiKey ?? chat.apiKey, baseURL: baseURL ?? chat.baseURL });
}

/** Host (and port) of the client's endpoint, for the audit trail: never credentials, path or query. */
export function endpointHost(client: OpenAI): string | undefined {
  try {
    return new URL(client.baseURL).host;
  } catch {
    return undefined;
  }
}

function nonEmpty(s: string | undefined): string | undefined {
  const t = s?.trim();
  return t ? t : undefined;
}
