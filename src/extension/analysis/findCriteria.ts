/**
 * "TeamFusion: Find the Team's Criteria" (teamfusion.findCriteria, issue 34): the review's criteria from VS Code through
 * findCriteria (src/core/criteria), on the same chat as the runs (the VS Code language model with
 * `teamfusion.chatProvider: "vscode"`, else the OpenAI-compatible endpoint and its key). Nothing is sent in an untrusted
 * workspace or without a model; a current criteria.json is reused (nothing sent). Progress is a cancellable notification,
 * every line goes to the Output channel, and the result (reused or found, requests, cost) is said in a notification.
 * Argument: a review (folder, tree item) or nothing (the review is picked like the other commands).
 */
import * as vscode from 'vscode';
import { CriteriaError, findCriteria, loadForCriteria, type FindCriteriaResult } from '../../core/criteria';
import { resolveRunSettings as engineSettings } from '../../core/run/runSettings';
import type { ChatBackend } from '../../core/llm/backend';
import { createModelClient } from '../../core/llm/client';
import { OpenAIChatBackend } from '../../core/llm/openaiBackend';
import { CancelledError, errorMessage } from '../../core/kernel/errors';
import { guardCommand } from '../commandGuard';
import type { Services } from '../services';
import { redactSecrets } from '../run/keys/redact';
import { resolveRunSettings } from '../run/runSettings';
import { chatBackendOf, textChatFor, withCancellableProgress } from './textChat';

export const FIND_CRITERIA_COMMAND = 'teamfusion.findCriteria';
const NAME = "Find the Team's Criteria";

/** The sentence said when the criteria are in hand. */
export function criteriaOutcome(r: FindCriteriaResult, onPlan: boolean): string {
  const n = r.file.criteria.length;
  const what = `${n} criteri${n === 1 ? 'on' : 'a'}`;
  if (r.reused) return `Reused criteria.json (${what}, found ${r.file.at}); nothing was sent.`;
  const cost = onPlan
    ? 'covered by your plan (VS Code model)'
    : r.file.costUsd === undefined
      ? 'cost unknown (model not in the price table)'
      : `about $${r.file.costUsd.toFixed(4)}`;
  return `Found ${what} with ${r.file.requests} request${r.file.requests === 1 ? '' : 's'} to ${r.file.model}, ${cost}. Written: criteria.json, criteria.md.`;
}

export async function findTeamCriteria(services: Services, arg: unknown): Promise<FindCriteriaResult | undefined> {
  const log = services.log;
  const redact = (line: string): string => redactSecrets(line, services.runs.apiKeys.knownSecrets());
  const review = await services.reviews.resolve(arg);
  if (!review) {
    void vscode.window.showInformationMessage('Open a folder with a TeamFusion review first.');
    return undefined;
  }
  const reviewRoot = review.fsPath;
  const text = await textChatFor(services, NAME, reviewRoot);
  if (!text) return undefined;
  const config = vscode.workspace.getConfiguration('teamfusion');
  const settings = resolveRunSettings((k) => config.inspect(k));
  // The model the runs of this review use: the setting, else review.yaml, env and the default (as the engine resolves it).
  const model = text.onPlan?.model ?? engineSettings(settings.settings, (await loadForCriteria(reviewRoot)).config).chatModel;
  const onPlan = text.onPlan !== undefined;
  // Made when a request has to be sent (a current criteria.json needs no key).
  const chat = (): ChatBackend => chatBackendOf(text) ?? new OpenAIChatBackend(createModelClient());
  const force = typeof arg === 'object' && arg !== null && (arg as { force?: unknown }).force === true;
  log.info(`${NAME}: ${reviewRoot}${force ? ' (found again)' : ''}.`);
  const controller = new AbortController();
  try {
    const result = await withCancellableProgress(`TeamFusion: finding the team's criteria`, controller, (report) =>
      findCriteria({
        reviewRoot,
        chat,
        model,
        force,
        ...(settings.prices ? { prices: settings.prices } : {}),
        signal: controller.signal,
        log: (line) => {
          log.info(redact(line));
          report(redact(line));
        },
      }),
    );
    for (const n of result.notes) log.info(redact(n));
    const text = criteriaOutcome(result, onPlan);
    log.info(text);
    void vscode.window.showInformationMessage(`TeamFusion: ${text}`);
    return result;
  } catch (err) {
    if (err instanceof CancelledError || controller.signal.aborted) {
      log.warn(`${NAME}: cancelled; nothing was written.`);
      void vscode.window.showInformationMessage('TeamFusion: finding the criteria was cancelled; nothing was written.');
      return undefined;
    }
    const message = redact(errorMessage(err));
    log.error(`${NAME}: ${message}`);
    if (err instanceof CriteriaError) void vscode.window.showWarningMessage(`TeamFusion: ${message}`);
    else void vscode.window.showErrorMessage(`TeamFusion could not find the criteria: ${message}`);
    return undefined;
  }
}

export function registerFindCriteria(context: vscode.ExtensionContext, services: Services): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      FIND_CRITERIA_COMMAND,
      guardCommand(services.log, NAME, (arg) => findTeamCriteria(services, arg)),
    ),
  );
}
