/** What a handler of the review panel's messages may do: the panel it acts for, as one small interface. */
import type * as vscode from 'vscode';
import type { Services } from '../../services';
import type { HostMessage, PanelRequests, RequestKind, WebviewMessage } from '../../../protocol/panel';
import type { CommandArgList, CommandName } from '../../commandIds';
import type { PanelTrust } from './trustGate';

export interface PanelActions {
  readonly services: Services;
  readonly root: vscode.Uri;
  /** The workspace's trust, asked before any handler runs (./trustGate.ts). */
  readonly trust: PanelTrust;
  post(m: HostMessage): void;
  /** Invokes a command by its typed id; a failure is logged and said in the panel. */
  command<K extends CommandName>(name: K, ...arg: CommandArgList<K>): Promise<void>;
  /** Shows this run (undefined: the newest). */
  showRun(runId: string | undefined): Promise<void>;
  /** Reloads the review (`all`) or only its runs. */
  reload(all: boolean): void;
  /** The page said `ready`. */
  pageReady(): Promise<void>;
  /** Asks the user to confirm (a modal warning with `button`, and Cancel); true when they chose `button`. */
  confirm(message: string, detail: string, button: string): Promise<boolean>;
}

/** The message of `type`. */
export type MessageOf<T extends WebviewMessage['type']> = Extract<WebviewMessage, { type: T }>;

/** Handles a message that is not a request (fire and forget). */
export type CommandHandler<T extends WebviewMessage['type']> = (m: MessageOf<T>, panel: PanelActions) => Promise<void> | void;

/**
 * Handles a request: `answer` posts its one reply (checked against the reply's schema), then the handler may go on
 * (what follows a save: a commit, a reload).
 */
export type RequestHandler<K extends RequestKind> = (
  m: PanelRequests[K]['message'],
  panel: PanelActions,
  answer: (reply: PanelRequests[K]['reply']) => void,
) => Promise<void>;
