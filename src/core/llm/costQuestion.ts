/**
 * THE cost question, one place for every command that spends: a run (startRun), the coding of a discussion (coder.ts).
 * Above CONFIRM_ABOVE_REQUESTS requests or CONFIRM_ABOVE_USD estimated dollars, the work is said in words and sent only
 * when someone says yes (`--yes`, or a question on a terminal, on the command line; a modal in VS Code). Without a yes
 * nothing is sent and nothing is written.
 */

/**
 * Above this many requests, the work is asked for first. docs/security.md "Limits". 100, not 50: a default run of a team of
 * four (pool 4 and the checklist on, issue 41) sends 54 chat requests, and the dollars are held by CONFIRM_ABOVE_USD.
 */
export const CONFIRM_ABOVE_REQUESTS = 100;
/** Above this estimated cost (US dollars), the work is asked for first, however few the requests. */
export const CONFIRM_ABOVE_USD = 5;

/** What a piece of work is about to send, for the question asked before it. */
export interface WorkCost {
  requests: number;
  /** What the requests are for, in words after "for": "100,000 messages", "3 rounds of 60 members". */
  of: string;
  /** Estimated US dollars (price table × estimated tokens); undefined without a price. */
  estimateUsd?: number;
  /** Sent through the Batch API (said as "batch requests"). */
  batch?: boolean;
}

/** Says yes (true) or no to the work; called only when the work passes a threshold. */
export type ConfirmCost = (cost: WorkCost) => Promise<boolean>;

const count = (x: number): string => x.toLocaleString('en-US');

/** "12,500 requests for 100,000 messages (about $3.20)": the cost in words. */
export function costWords(c: WorkCost): string {
  const usd = c.estimateUsd === undefined ? 'no price known for the model' : `about $${c.estimateUsd.toFixed(2)}`;
  return `${count(c.requests)} ${c.batch ? 'batch ' : ''}request${c.requests === 1 ? '' : 's'} for ${c.of} (${usd})`;
}

/** Whether the work passes a threshold, and which one, in words (undefined: it is sent without a question). */
export function overThreshold(c: WorkCost): string | undefined {
  if (c.requests > CONFIRM_ABOVE_REQUESTS) return `more than ${CONFIRM_ABOVE_REQUESTS} requests`;
  if (c.estimateUsd !== undefined && c.estimateUsd > CONFIRM_ABOVE_USD) return `more than $${CONFIRM_ABOVE_USD}`;
  return undefined;
}

/** The work was not confirmed: nothing was sent or written. */
export class CostNotConfirmedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CostNotConfirmedError';
  }
}

/**
 * Asks `confirm` when the work passes a threshold; throws CostNotConfirmedError (one sentence naming the work, its cost and
 * how to go ahead) when nobody said yes. `subject` starts the sentence: "Coding run X", "This run of review Y".
 */
export async function askBeforeSending(cost: WorkCost, confirm: ConfirmCost | undefined, subject: string): Promise<void> {
  const over = overThreshold(cost);
  if (!over) return;
  if (confirm && (await confirm(cost))) return;
  throw new CostNotConfirmedError(
    `${subject} would send ${costWords(cost)}, ${over}; nothing was sent. Confirm to go ahead (on the command line: run it again with --yes).`,
  );
}
