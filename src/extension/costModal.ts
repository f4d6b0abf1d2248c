/**
 * The cost question in VS Code (core/llm/costQuestion.ts asks it only above its thresholds): a modal that says the work
 * and its estimated cost; only the button `go` sends anything.
 */
import * as vscode from 'vscode';
import { CONFIRM_ABOVE_REQUESTS, CONFIRM_ABOVE_USD, costWords, type ConfirmCost } from '../core/llm/costQuestion';

export function confirmInModal(subject: string, go: string): ConfirmCost {
  return async (cost) => {
    const answer = await vscode.window.showWarningMessage(
      `${subject} will send ${costWords(cost)}.`,
      {
        modal: true,
        detail: `More than ${CONFIRM_ABOVE_REQUESTS} requests, or more than $${CONFIRM_ABOVE_USD} estimated, are sent only when you confirm.`,
      },
      go,
    );
    return answer === go;
  };
}
