/**
 * What a run works on. The engine (runner.ts: the record, the loop, resume, people, one driver, cost, prompts by
 * reference) is one; a task supplies only what differs:
 *   - who speaks (`view`: the review as the run sees it, `designers` being the members whose proxies speak),
 *   - the proposal under discussion and each round's steps (`runIteration`: the shared prefix and personas for the
 *     discussion, then the remix agent and what it produces),
 *   - when a round is done, what the next one discusses, what closes a run, and the readable files.
 * `design`: candidate images and rankings (the first release). `brief`: the brief itself and the members' comments
 * (issue 17, briefTask.ts).
 */
import type { Review } from '../review/model';
import type { PriceTable } from '../llm/pricing';
import type { StepContext } from '../step/context';
import type { Person } from './deliverables/deliverables';
import type { Iteration, RunOption, RunRecord, RunTaskKind } from '../record/record';

export interface RunTask {
  readonly kind: RunTaskKind;
  /** Whether the run sends images (design: every step does; without an image library it stops before any request). */
  readonly usesImages: boolean;
  /** The review as this task's run sees it: `designers` are the members whose proxies speak. */
  view(review: Review): Review;
  /** Why this review cannot be run as this task (one sentence), or undefined. Checked before anything is sent. */
  unusable(review: Review): string | undefined;
  /** The options a new record lists. */
  options(review: Review): RunOption[];
  /** The iterate step: what the next round discusses (`say`: sentences for the run's notices, e.g. what a decision bound). */
  planNext(record: RunRecord, feedback?: string, say?: (sentence: string) => void): Iteration;
  /**
   * What a new run's first round will read, made ready beforehand (design: its images prepared for the chat model, into
   * the memo the round reads), while the image endpoint is asked whether it can make the remixes. Nothing is sent.
   */
  prepare?(reviewRoot: string, record: RunRecord, cacheDir?: string): Promise<void>;
  /** One round, each step skipped when the record shows it done. */
  runIteration(ctx: StepContext, review: Review, it: Iteration, cacheDir?: string): Promise<void>;
  isDone(ctx: StepContext, it: Iteration): boolean;
  /** After the last round, before the run is completed (brief: the direct baseline). */
  finish(ctx: StepContext, review: Review, prices: PriceTable): Promise<void>;
  /** The final pick of a completed run, if the task has one. */
  finalPick(record: RunRecord): string | undefined;
  /** result.md and transcript.md. */
  writeDeliverables(reviewRoot: string, record: RunRecord, people: readonly Person[]): Promise<void>;
}
