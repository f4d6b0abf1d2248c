/**
 * What every pipeline step gets: the chat and image backends, the record being written, and a way to tell listeners and save.
 * Steps mutate the record (the single source of truth) and call `save()` after each unit of work.
 */
import type OpenAI from 'openai';
import type { ChatBackend, ImageBackend } from '../llm/backend';
import type { DesignerRanking } from '../review/model';
import type { PriceTable } from '../llm/pricing';
import type { RunEvent } from './events';
import type { PromptRecord, RunRecord, RunSettings, Usage } from '../record/record';
import type { PeopleInRun } from '../people/driver';

export interface StepContext {
  /** The chat model's backend (proxies, remix agent, guests, lead decisions). */
  chat: ChatBackend;
  /** The image-edit endpoint's backend. */
  images: ImageBackend;
  record: RunRecord;
  settings: RunSettings;
  designers: readonly DesignerRanking[];
  /** Absolute path of the review folder. */
  reviewRoot: string;
  /** Absolute path of the run folder. */
  runDir: string;
  signal?: AbortSignal;
  emit(event: RunEvent): void;
  /** Writes run.json atomically and tells listeners. */
  save(): Promise<void>;
  log(line: string): void;
  /** The price table in use (built-in merged with the user's), for per-call cost estimates. */
  prices?: PriceTable;
  /** People in the run (their messages, pins, take-overs, guests); absent in steps run on their own. */
  people?: PeopleInRun;
}

export function nextPromptId(record: RunRecord): string {
  return `p${record.prompts.length + 1}`;
}

/** Adds a prompt to the record and its usage to the run's totals. */
export function addPrompt(record: RunRecord, prompt: PromptRecord): void {
  record.prompts.push(prompt);
  if (prompt.usage) addUsage(record.usage, prompt.usage);
}

export function addUsage(total: Usage, u: Partial<Usage>): void {
  total.inputTokens += u.inputTokens ?? 0;
  total.cachedInputTokens += u.cachedInputTokens ?? 0;
  total.outputTokens += u.outputTokens ?? 0;
  total.images += u.images ?? 0;
  for (const k of ['imageTextInputTokens', 'imageInputTokens', 'imageOutputTokens'] as const) {
    if (u[k] !== undefined) total[k] = (total[k] ?? 0) + u[k]!;
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

export function nameOf(designers: readonly DesignerRanking[], id: string): string {
  return designers.find((d) => d.id === id)?.name ?? id;
}
