/**
 * "TeamFusion: Code Discussion" (teamfusion.codeDiscussion): codes a run's messages with Bales IPA (src/core/analysis)
 * from VS Code — with a cancellable progress notification, a log in the Output channel, and the same guard as runs:
 * nothing is sent in an untrusted workspace or without a model (an API key, or with `teamfusion.chatProvider: "vscode"`
 * the VS Code language model the runs use, through the same chat interface). One coding per review at a time; the review panel
 * listens to `onProgress`. Argument: `{ reviewRoot, runId, force? }`, or nothing (a review and a run are picked).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { codeDiscussion, topChoiceOf, type CodeDiscussionResult } from '../../core/analysis';
import { confirmInModal } from '../costModal';
import type { PanelCodingProgress } from '../../protocol/panel';
import { COMMANDS } from '../commandIds';
import { guardCommand } from '../commandGuard';
import type { Services } from '../services';
import { runRefFromArg } from '../run/commandArgs';
import { pickRun } from '../run/pickRun';
import { redactSecrets } from '../run/keys/redact';
import { resolveRunSettings } from '../run/runSettings';
import { textChatFor, withCancellableProgress } from './textChat';
import { errorMessage } from '../../core/kernel/errors';

export const CODE_DISCUSSION_COMMAND = COMMANDS.codeDiscussion;
export const CANCEL_CODING_COMMAND = 'teamfusion.cancelCoding';

export interface CodingEvent {
  reviewRoot: string;
  progress: PanelCodingProgress;
}

const key = (root: string): string => path.resolve(root);

export class DiscussionCoding implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<CodingEvent>();
  readonly onProgress = this.emitter.event;
  private readonly active = new Map<string, { controller: AbortController; last: PanelCodingProgress }>();

  constructor(private readonly services: Services) {}

  /** The coding in flight for a review, if any. */
  current(reviewRoot: string): PanelCodingProgress | undefined {
    return this.active.get(key(reviewRoot))?.last;
  }

  cancel(reviewRoot?: string): void {
    for (const [root, a] of this.active) if (!reviewRoot || root === key(reviewRoot)) a.controller.abort();
  }

  dispose(): void {
    this.cancel();
    this.emitter.dispose();
  }

  private redact(line: string): string {
    return redactSecrets(line, this.services.runs.apiKeys.knownSecrets());
  }

  async code(reviewRoot: string, runId: string, force = false): Promise<CodeDiscussionResult | undefined> {
    const log = this.services.log;
    const text = await textChatFor(this.services, 'Code Discussion', reviewRoot, {
      now: this.active.has(key(reviewRoot)),
      say: () => void vscode.window.showWarningMessage('The discussion of this review is already being coded.'),
    });
    if (!text) return undefined;
    const config = vscode.workspace.getConfiguration('teamfusion');
    const client = text.client;
    const chat = text.onPlan?.chat;
    const model = text.onPlan?.model;
    const prices = resolveRunSettings((k) => config.inspect(k)).prices;
    const load = await this.services.reviews.load(vscode.Uri.file(reviewRoot), { partial: true });
    const designers = load.review?.designers.map((d) => ({ id: d.id, topChoice: topChoiceOf(d.entries) }));

    const controller = new AbortController();
    const entry = { controller, last: { runId, active: true, coded: 0, total: 0, message: 'Starting…' } };
    this.active.set(key(reviewRoot), entry);
    const emit = (p: PanelCodingProgress): void => {
      entry.last = p;
      this.emitter.fire({ reviewRoot, progress: p });
    };
    emit(entry.last);
    log.info(`Coding the discussion of run ${runId} in ${reviewRoot}${force ? ' (all messages again)' : ''}.`);
    try {
      const result = await withCancellableProgress(`TeamFusion: coding run ${runId}`, controller, (report) =>
        codeDiscussion({
          reviewRoot,
          runId,
          ...(client ? { client } : {}),
          ...(chat ? { chat } : {}),
          ...(model ? { model } : {}),
          force,
          signal: controller.signal,
          ...(prices ? { prices } : {}),
          ...(designers ? { designers } : {}),
          // Long paid work asks first, in a modal, with the count and the estimated cost.
          confirm: confirmInModal(`Coding run ${runId}`, 'Code the discussion'),
          onProgress: (p) => {
            report(`${p.coded} of ${p.total} coded. ${p.message}`);
            emit({ runId, active: true, coded: p.coded, total: p.total, message: p.message });
          },
          log: (line) => log.info(this.redact(line)),
        }),
      );
      const a = result.analysis;
      for (const n of result.notes) log.info(this.redact(n));
      const summary = `Coded ${a.bales.length} messages of run ${runId} (${result.newRequests} new requests, ${result.reused} reused${chat ? ', covered by your plan (VS Code model)' : a.usage.costUsd !== undefined ? `, about $${a.usage.costUsd.toFixed(4)}` : ''}).`;
      if (result.state === 'uncoded') {
        const text = `${summary} ${a.uncoded.length} could not be coded and are listed as uncoded: ${a.uncoded.join(', ')}.`;
        log.warn(text);
        void vscode.window.showWarningMessage(text);
      } else if (result.state === 'cancelled') {
        log.warn(result.notes.join(' ') || 'Coding cancelled.');
      } else {
        log.info(summary);
      }
      emit({
        runId,
        active: false,
        coded: a.bales.length,
        total: a.bales.length + a.uncoded.length,
        message: result.state === 'cancelled' ? 'Cancelled; what was coded is kept.' : summary,
      });
      return result;
    } catch (err) {
      const message = this.redact(errorMessage(err));
      log.error(`Code Discussion: ${message}`);
      void vscode.window.showErrorMessage(`TeamFusion could not code the discussion: ${message}`);
      emit({ runId, active: false, coded: 0, total: 0, message });
      return undefined;
    } finally {
      this.active.delete(key(reviewRoot));
    }
  }
}

let instance: DiscussionCoding | undefined;

/** The window's coding service (after registerDiscussionAnalysis). */
export function discussionCoding(): DiscussionCoding | undefined {
  return instance;
}

export function registerDiscussionAnalysis(context: vscode.ExtensionContext, services: Services): void {
  instance = new DiscussionCoding(services);
  const coding = instance;
  context.subscriptions.push(
    coding,
    vscode.commands.registerCommand(
      CODE_DISCUSSION_COMMAND,
      guardCommand(services.log, 'Code Discussion', async (arg) => {
        let ref = runRefFromArg(arg);
        if (!ref) {
          const review = await services.reviews.resolve(arg);
          if (!review) {
            void vscode.window.showInformationMessage('Open a folder with a TeamFusion review first.');
            return undefined;
          }
          const record = await pickRun(review.fsPath, {
            title: 'TeamFusion: Code Discussion',
            placeHolder: 'Which run should be coded?',
            emptyMessage: 'This review has no run yet.',
          });
          if (!record) return undefined;
          ref = { reviewRoot: review.fsPath, runId: record.id };
        }
        const force = typeof arg === 'object' && arg !== null && (arg as { force?: unknown }).force === true;
        return coding.code(ref.reviewRoot, ref.runId, force);
      }),
    ),
    vscode.commands.registerCommand(CANCEL_CODING_COMMAND, (arg?: { reviewRoot?: unknown }) => {
      coding.cancel(typeof arg?.reviewRoot === 'string' ? arg.reviewRoot : undefined);
    }),
  );
}
