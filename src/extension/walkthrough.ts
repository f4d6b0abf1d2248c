/**
 * The "Get started with TeamFusion" walkthrough (package.json `walkthroughs`). Its steps complete on context keys set
 * here once a step's command has done its work — not on `onCommand`, which fires when the command starts: completing a
 * step moves the walkthrough's focus to the next step, and that would close the quick pick the command had just opened.
 */
import * as vscode from 'vscode';
import type { Services } from './services';

export const STEP_DONE = {
  newReview: 'teamfusion.walkthrough.reviewCreated',
  rankings: 'teamfusion.walkthrough.rankingsChecked',
  analysis: 'teamfusion.walkthrough.reviewOpened',
  apiKey: 'teamfusion.walkthrough.apiKeySet',
  firstRun: 'teamfusion.walkthrough.runStarted',
} as const;

export function completeStep(key: (typeof STEP_DONE)[keyof typeof STEP_DONE]): void {
  void vscode.commands.executeCommand('setContext', key, true);
}

/** `fn`, after which the step is done unless it resolved to undefined or false (the user backed out). */
export function completesStep<T>(
  key: (typeof STEP_DONE)[keyof typeof STEP_DONE],
  fn: (arg: unknown) => Promise<T>,
): (arg: unknown) => Promise<T> {
  return async (arg: unknown) => {
    const result = await fn(arg);
    if (result !== undefined && result !== false) completeStep(key);
    return result;
  };
}

/** The first run: done when a run starts. */
export function registerWalkthrough(context: vscode.ExtensionContext, services: Services): void {
  context.subscriptions.push(
    services.runs.onEvent(({ event }) => {
      if (event.type === 'run-started') completeStep(STEP_DONE.firstRun);
    }),
  );
}
