/**
 * What every pipeline step gets: the chat and image backends, the record being written, and a way to tell listeners and save.
 * Steps mutate the record (the single source of truth) and call `save()` after each unit of work.
 */
import type { ChatBackend, ImageBackend } from '../llm/backend';
import type { DesignerRanking } from '../review/model';
import type { PriceTable } from '../llm/pricing';
import type { RunEvent } from './events';
import type { PromptRecord, RunRecord, RunSettings } from '../record/record';
import { addUsage } from '../kernel/usage';
import type { People } from './people';

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
  /** Writes run.json atomically and tells listeners (after any save started behind a request is done). */
  save(): Promise<void>;
  /**
   * Starts the save of what was just recorded without waiting for it, so the next step can be prepared (the inbox read,
   * the prompt built) while it is written and synced; `then` runs once it is durable (what reports the step as done). At
   * most one at a time: whoever changes the record, tells listeners or sends a request next calls `settled()` first.
   * Absent when saves must stay in line (a run that syncs through git commits each save before it pulls).
   */
  saveBehind?(then: () => void): void;
  /** Waits for the save started behind a request (and what it reports); throws if it failed. */
  settled?(): Promise<void>;
  log(line: string): void;
  /** The price table in use (built-in merged with the user's), for per-call cost estimates. */
  prices?: PriceTable;
  /** People in the run (their messages, pins, take-overs, guests); absent in steps run on their own. */
  people?: People;
}

export function nextPromptId(record: RunRecord): string {
  return `p${record.prompts.length + 1}`;
}

/** Adds a prompt to the record and its usage to the run's totals. */
export function addPrompt(record: RunRecord, prompt: PromptRecord): void {
  record.prompts.push(prompt);
  if (prompt.usage) addUsage(record.usage, prompt.usage);
}

export function nameOf(designers: readonly DesignerRanking[], id: string): string {
  return designers.find((d) => d.id === id)?.name ?? id;
}
