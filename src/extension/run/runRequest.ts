/**
 * What a VS Code command asks for, as one run request (core/run/session.ts): what to do with which settings (askedRun),
 * and how the run reaches the models (modelMeans: the chat through an endpoint with the key or a VS Code model, the image
 * endpoint with its own key and URL, else the chat's). Free of `vscode`: the run manager passes in what it read.
 */
import type OpenAI from 'openai';
import { ModelConfigError, createImageClient, createModelClient, endpointHost } from '../../core/llm/client';
import { OpenAIImageBackend } from '../../core/llm/openaiBackend';
import type { ImageBackend } from '../../core/llm/backend';
import type { RunMeans, RunWhat } from '../../core/run/session';
import type { PriceTable } from '../../core/llm/pricing';
import { resolveRunSettings, type ConnectionSettings, type InspectFn } from './runSettings';
import type { ChatBackend } from '../../core/llm/backend';
import type { RunTaskKind } from '../../core/record/record';

/** The chat a run goes through, checked before anything about the run is asked (RunManager.chatReady). */
export interface ChatReady {
  provider: 'openai' | 'vscode';
  /** The chat key (absent only on a VS Code model). */
  apiKey?: string;
  /** The VS Code model's backend (provider "vscode"). */
  chat?: ChatBackend;
}

/** A run on a VS Code model with no key at all: it has no endpoint for the remixes, and says so before anything is spent. */
class NoImageEndpoint implements ImageBackend {
  readonly host = undefined;
  private readonly sentence =
    'The remixes are made on an image endpoint, and none has a key: use "TeamFusion: Set Image API Key" (or Set API Key) and ' +
    'teamfusion.imageBaseUrl, or run one iteration (it makes no remix).';
  check(): Promise<string | undefined> {
    return Promise.resolve(this.sentence);
  }
  edit(): Promise<never> {
    return Promise.reject(new ModelConfigError(this.sentence));
  }
}

/** The means of a run, and where it goes in words for the log ("endpoint api.openai.com, image endpoint …"). */
export function modelMeans(
  ready: ChatReady,
  imageKey: string | undefined,
  connection: ConnectionSettings,
  modelId: string | undefined,
): { means: RunMeans; where: string } {
  const { provider, chat, apiKey } = ready;
  let client: OpenAI | undefined;
  let imageClient: OpenAI | undefined;
  if (apiKey || provider === 'openai') {
    client = createModelClient({ apiKey: apiKey, ...connection });
    imageClient = createImageClient(
      { apiKey: imageKey, baseURL: connection.imageBaseURL },
      { apiKey: apiKey, baseURL: connection.baseURL, timeoutMs: connection.timeoutMs, maxRetries: connection.maxRetries },
    );
  } else if (imageKey) {
    imageClient = createModelClient({
      apiKey: imageKey,
      baseURL: connection.imageBaseURL ?? connection.baseURL,
      timeoutMs: connection.timeoutMs,
      maxRetries: connection.maxRetries,
    });
  }
  const images: ImageBackend = imageClient
    ? new OpenAIImageBackend(imageClient)
    : client
      ? new OpenAIImageBackend(client)
      : new NoImageEndpoint();
  const imageHost = imageClient ? `, image endpoint ${endpointHost(imageClient) ?? 'default'}` : '';
  const chatWhere = chat ? `VS Code model ${modelId ?? ''}` : `endpoint ${client ? (endpointHost(client) ?? 'default') : 'none'}`;
  return { means: { ...(client ? { client } : {}), ...(chat ? { chat } : {}), images }, where: `${chatWhere}${imageHost}` };
}

export interface StartOptions {
  feedback?: string;
  iterations?: number;
  turns?: number;
  /** A subset (two or more) of the review's designer ids; all of them when absent. */
  designers?: string[];
  /** `brief`: the members' comments → one revised brief; `design`: today's run. The engine's default when absent. */
  task?: RunTaskKind;
}

/** What the user asked a window for. */
export type RunAsked =
  | { kind: 'start'; reviewRoot: string; options: StartOptions }
  | { kind: 'resume'; reviewRoot: string; runId: string }
  | { kind: 'refine'; reviewRoot: string; runId: string; feedback?: string };

/**
 * What a request does, with the settings of the teamfusion.* keys (`inspect`) under the command's own choices; a VS Code
 * model's id (`chatModel`) is kept in a new run's settings. Resume and refine keep the recorded settings (only prices apply).
 */
export function askedRun(
  asked: RunAsked,
  inspect: InspectFn,
  chatModel?: string,
): { what: RunWhat; feedback?: string; prices?: PriceTable; warnings: string[] } {
  if (asked.kind !== 'start') {
    const resolved = resolveRunSettings(inspect);
    const feedback = asked.kind === 'refine' ? asked.feedback : undefined;
    return {
      what: { kind: asked.kind, runId: asked.runId },
      ...(feedback ? { feedback } : {}),
      ...(resolved.prices ? { prices: resolved.prices } : {}),
      warnings: [],
    };
  }
  const o = asked.options;
  const resolved = resolveRunSettings(inspect, { iterations: o.iterations, turns: o.turns, designers: o.designers });
  if (chatModel) resolved.settings.chatModel = chatModel;
  const feedback = o.feedback?.trim();
  return {
    // The same run path for both kinds of run: only the task differs.
    what: { kind: 'start', settings: resolved.settings, ...(o.task ? { task: o.task } : {}) },
    ...(feedback ? { feedback } : {}),
    ...(resolved.prices ? { prices: resolved.prices } : {}),
    warnings: resolved.warnings,
  };
}
