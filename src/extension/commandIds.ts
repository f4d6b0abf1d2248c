/**
 * The commands the extension invokes from its own code (the review panel's handlers), by typed id: the id each is
 * registered under and the argument it takes. They are invoked by name (`command(name, arg)`), never by an id string.
 * Type imports only: unit tests read the map.
 */
import type * as vscode from 'vscode';
import type { RunTaskKind } from '../core/record/record';

export const COMMANDS = {
  runReview: 'teamfusion.runReview',
  refineRun: 'teamfusion.refineRun',
  cancelRun: 'teamfusion.cancelRun',
  setApiKey: 'teamfusion.setApiKey',
  showBriefChanges: 'teamfusion.showBriefChanges',
  adoptRevisedBrief: 'teamfusion.adoptRevisedBrief',
  commentOnBrief: 'teamfusion.commentOnBrief',
  codeDiscussion: 'teamfusion.codeDiscussion',
  openReview: 'teamfusion.openReview',
  /** VS Code's own: opens a file in an editor. */
  open: 'vscode.open',
} as const;

export type CommandName = keyof typeof COMMANDS;

/** What each command takes (its handler checks it again: a command can be invoked from anywhere). */
export interface CommandArgs {
  runReview: { reviewRoot: string; task?: RunTaskKind; resume?: string };
  refineRun: { reviewRoot: string; runId: string; feedback: string };
  cancelRun: { reviewRoot: string; runId?: string };
  setApiKey: undefined;
  showBriefChanges: { reviewRoot: string; runId: string; iteration?: number };
  adoptRevisedBrief: { reviewRoot: string; runId: string; iteration?: number };
  /** The review's brief.md as a URI string. */
  commentOnBrief: { uri: string };
  codeDiscussion: { reviewRoot: string; runId: string; force?: true };
  /** A review folder (the blind re-rank set of a run is one), or a run of a review to show. */
  openReview: vscode.Uri | { reviewRoot: string; runId: string };
  open: vscode.Uri;
}

/** The argument list of a command: none, or its one argument. */
export type CommandArgList<K extends CommandName> = CommandArgs[K] extends undefined ? [] : [CommandArgs[K]];
