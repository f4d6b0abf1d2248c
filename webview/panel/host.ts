/**
 * The webview's side of the protocol: the VS Code API object, validated posting and receiving, requests with replies
 * keyed by a sequence number, and the persisted state (getState/setState; the panel is not kept alive when hidden).
 */
import type {
  HostMessage,
  PanelState,
  SaveFeedbackReply,
  SaveRankingReply,
  SaveRankingRequest,
  SaveRatingsRequest,
  SaveSurveyRequest,
  WebviewMessage,
  WebviewPersistedState,
} from '../../src/protocol/panel';
import { checkHostMessage, checkPersistedState } from './guards';
import { errorMessage } from '../../src/core/kernel/errors';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export class HostConnection {
  private readonly api: VsCodeApi = acquireVsCodeApi();
  private nextRequestId = 1;
  private readonly pending = new Map<number, (reply: SaveRankingReply) => void>();
  private readonly pendingFeedback = new Map<number, (reply: SaveFeedbackReply) => void>();
  private persisted: WebviewPersistedState | undefined;

  constructor(private readonly onMessage: (m: HostMessage) => void) {
    this.persisted = checkPersistedState(this.api.getState());
    window.addEventListener('message', (e: MessageEvent<unknown>) => {
      const parsed = checkHostMessage(e.data);
      if (!parsed.ok) {
        this.log('warning', `Dropped an invalid message from the extension: ${parsed.error}`);
        return;
      }
      const m = parsed.value;
      if (m.type === 'saveRankingResult') {
        const resolve = this.pending.get(m.requestId);
        this.pending.delete(m.requestId);
        resolve?.(m);
        return;
      }
      if (m.type === 'saveFeedbackResult') {
        const resolve = this.pendingFeedback.get(m.requestId);
        this.pendingFeedback.delete(m.requestId);
        resolve?.(m);
        return;
      }
      this.onMessage(m);
    });
  }

  /**
   * The state the page came with (the host writes the first state into the page: no round trip before the first
   * paint), checked like a posted one; undefined when there is none or it does not check.
   */
  pageState(): PanelState | undefined {
    const text = document.getElementById('tf-state')?.textContent;
    if (!text) return undefined;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      this.log('warning', `The page's state is not JSON: ${errorMessage(e)}`);
      return undefined;
    }
    const parsed = checkHostMessage({ type: 'state', state: data });
    if (!parsed.ok || parsed.value.type !== 'state') {
      this.log('warning', `Dropped the page's state: ${parsed.ok ? 'not a state' : parsed.error}`);
      return undefined;
    }
    return parsed.value.state;
  }

  /** Posts a command (typed by the protocol; the host checks every message it receives against the schemas). */
  post(m: WebviewMessage): void {
    this.api.postMessage(m);
  }

  saveRanking(req: DistributiveOmit<SaveRankingRequest, 'type' | 'requestId'>, timeoutMs = 30_000): Promise<SaveRankingReply> {
    const requestId = this.nextRequestId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        resolve({
          type: 'saveRankingResult',
          requestId,
          ok: false,
          diagnostics: [{ file: 'rankings', line: 0, column: 0, severity: 'error', message: 'The extension did not answer; try again.' }],
        });
      }, timeoutMs);
      this.pending.set(requestId, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      this.post({ type: 'saveRanking', requestId, ...req });
    });
  }

  /** saveRatings / saveSurvey: resolves with the host's answer (or a "did not answer" after `timeoutMs`). */
  saveFeedback(
    req: DistributiveOmit<SaveRatingsRequest, 'requestId'> | DistributiveOmit<SaveSurveyRequest, 'requestId'>,
    timeoutMs = 30_000,
  ): Promise<SaveFeedbackReply> {
    const requestId = this.nextRequestId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pendingFeedback.delete(requestId);
        resolve({ type: 'saveFeedbackResult', requestId, ok: false, message: 'The extension did not answer; try again.' });
      }, timeoutMs);
      this.pendingFeedback.set(requestId, (reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
      this.post({ ...req, requestId } as WebviewMessage);
    });
  }

  log(level: 'info' | 'warning' | 'error', message: string): void {
    this.post({ type: 'log', level, message: message.slice(0, 4000) });
  }

  get state(): WebviewPersistedState | undefined {
    return this.persisted;
  }

  /** Merges into the persisted state (needs `root`, known once the first state arrived). */
  persist(patch: Partial<WebviewPersistedState>): void {
    const next = { ...(this.persisted ?? { root: '' }), ...patch };
    if (!next.root) return;
    this.persisted = next;
    this.api.setState(next);
  }
}
