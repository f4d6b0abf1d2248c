/**
 * What a running TeamFusion run tells its listeners (the CLI prints these, the extension forwards them to the panel).
 * Plain data only, so they cross the webview boundary unchanged.
 */
import type { Phase } from '../settings/discussionSettings';
import type { Iteration, Message, MessageKind, Pin, RunRecord, RunStatus, WaitingFor } from '../record/record';

export type RunEvent =
  | { type: 'run-started'; runId: string; runDir: string; resumed: boolean }
  | { type: 'iteration-started'; runId: string; iteration: number; candidates: string[]; final: boolean }
  /** `phase`: independent and separate turns may run concurrently (their deltas interleave; tell them by speaker + turn).
   * `turn` is null for a turn outside the schedule (asked for by an @mention, a guest); `kind` defaults to proxy. */
  | {
      type: 'turn-started';
      runId: string;
      iteration: number;
      speaker: string;
      speakerName: string;
      turn: number | null;
      phase?: Phase;
      kind?: MessageKind;
    }
  /** A streamed piece of the message being written. */
  | { type: 'turn-delta'; runId: string; iteration: number; speaker: string; turn: number | null; text: string }
  | { type: 'turn-completed'; runId: string; iteration: number; message: Message }
  /** The run waits for a person who took over their proxy (the record says status "waiting"). */
  | { type: 'waiting'; runId: string; waitingFor: WaitingFor; speakerName: string }
  | { type: 'pins-changed'; runId: string; pins: Pin[] }
  | { type: 'remix-agent-completed'; runId: string; iteration: Iteration }
  /** `remixId`: which of several remixes of the round (absent with one a round). */
  | { type: 'image-edit-started'; runId: string; iteration: number; from: string[]; remixId?: string }
  | { type: 'remix-created'; runId: string; iteration: number; remixId: string; file: string }
  /** Something the user should read: a retry, a repair, a warning. */
  /** `logged`: the same words already went to the log (printers that show the log skip it; the panel shows it). */
  | { type: 'notice'; runId: string; level: 'info' | 'warning' | 'error'; message: string; logged?: true }
  /** The record after it was written to disk. */
  | { type: 'record-saved'; runId: string; record: RunRecord }
  | { type: 'run-finished'; runId: string; status: RunStatus; error?: string };

export type RunListener = (event: RunEvent) => void;
