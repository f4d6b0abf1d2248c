/**
 * What each message the panel's webview posts does, declared once per kind: it `reads` (changes nothing in the workspace
 * and sends nothing to a model: showing, opening, logging), it `writes` (a file of the review, the user's secrets, a run's
 * state) or it `sends` (something to a model). Workspace Trust is an allow-list over this table: in Restricted Mode the
 * host refuses every kind not declared `reads` (src/extension/panel/handlers/trustGate.ts). The table is checked against
 * the message union by the compiler: a new kind without a declaration does not compile. Type imports only.
 */
import type { WebviewMessage } from './panel';

export type MessageKind = WebviewMessage['type'];
export type MessageEffect = 'reads' | 'writes' | 'sends';

export const MESSAGE_EFFECTS = {
  ready: 'reads',
  refresh: 'reads',
  openRun: 'reads',
  openFile: 'reads',
  /** Opens a run's blind re-rank set in the panel. */
  openRerank: 'reads',
  /** From a blind re-rank set back to its run's panel. */
  backToRun: 'reads',
  /** Remembers "I am" in VS Code's own workspace state: no file of the review, nothing sent. */
  setMe: 'reads',
  log: 'reads',
  showBriefChanges: 'reads',
  run: 'sends',
  refine: 'sends',
  codeDiscussion: 'sends',
  adoptBrief: 'writes',
  commentOnBrief: 'writes',
  /** Marks the run cancelled in its record. */
  cancel: 'writes',
  /** Keeps what was coded so far. */
  cancelCoding: 'writes',
  /** The user's secret storage. */
  setApiKey: 'writes',
  saveRanking: 'writes',
  saveRatings: 'writes',
  saveSurvey: 'writes',
  saveCoverage: 'writes',
  say: 'writes',
  pin: 'writes',
  vote: 'writes',
  /** The lead reopens a decision: run.json. */
  reopen: 'writes',
} as const satisfies Record<MessageKind, MessageEffect>;

/** The kinds refused in Restricted Mode: every kind not declared `reads`. */
export type GuardedKind = { [K in MessageKind]: (typeof MESSAGE_EFFECTS)[K] extends 'reads' ? never : K }[MessageKind];
