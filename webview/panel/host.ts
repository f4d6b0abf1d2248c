/**
 * The webview's side of the protocol: the VS Code API object, validated posting and receiving, the one request channel
 * (requests declared in src/protocol/requests.ts, replies keyed by a sequence number, each request failing after one
 * timeout), and the persisted state (getState/setState; the panel is not kept alive when hidden).
 */
import type {
  HostMessage,
  PanelRequests,
  PanelState,
  RequestMessage,
  WebviewMessage,
  WebviewPersistedState,
} from '../../src/protocol/panel';
import { REQUEST_REPLIES, REQUEST_TIMEOUT_MS, isReplyType, type RequestKind } from '../../src/protocol/requestKinds';
import { checkHostMessage, checkPersistedState } from './guards';
import { errorMessage } from '../../src/protocol/shared';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** A request that got no usable reply: none in time, or one that does not answer it. */
export class RequestFailed extends Error {
  constructor(
    readonly kind: RequestKind,
    message: string,
  ) {
    super(message);
    this.name = 'RequestFailed';
  }
}

interface Pending {
  kind: RequestKind;
  settle(reply: unknown, error?: RequestFailed): void;
}

/**
 * Requests and their replies: one counter, one map of what waits, one timeout. A reply is taken only when it answers a
 * request that waits, with the reply type that request declares and the shape that type has; anything else is refused
 * (a request it names fails with why; a reply to nothing is reported and dropped).
 */
export class RequestChannel {
  private nextRequestId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly send: (m: WebviewMessage) => void,
    private readonly report: (problem: string) => void,
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
  ) {}

  /** Posts `kind` with `params`; resolves with its reply, or rejects with a RequestFailed that says why there is none. */
  request<K extends RequestKind>(kind: K, params: PanelRequests[K]['params']): Promise<PanelRequests[K]['reply']> {
    const requestId = this.nextRequestId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new RequestFailed(kind, `The extension did not answer (${kind}, ${Math.round(this.timeoutMs / 1000)} s); try again.`));
      }, this.timeoutMs);
      this.pending.set(requestId, {
        kind,
        settle: (reply, error) => {
          clearTimeout(timer);
          this.pending.delete(requestId);
          if (error) reject(error);
          else resolve(reply as PanelRequests[K]['reply']);
        },
      });
      this.send({ ...params, type: kind, requestId } as RequestMessage);
    });
  }

  /** How many requests wait for their reply. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Takes a reply (a host message of a reply type): answers the request it names, or refuses it. */
  receive(data: { type: string; requestId?: unknown; [field: string]: unknown }): void {
    const id = typeof data.requestId === 'number' ? data.requestId : undefined;
    const waiting = id === undefined ? undefined : this.pending.get(id);
    if (id === undefined || !waiting) {
      this.report(`Dropped a ${data.type} that answers no request waiting (requestId ${String(data.requestId)}).`);
      return;
    }
    const expected = REQUEST_REPLIES[waiting.kind];
    if (data.type !== expected) {
      waiting.settle(
        undefined,
        new RequestFailed(waiting.kind, `The extension answered ${waiting.kind} with ${data.type}, not ${expected}; try again.`),
      );
      return;
    }
    const checked = checkHostMessage(data);
    if (!checked.ok) {
      waiting.settle(
        undefined,
        new RequestFailed(waiting.kind, `The extension's answer to ${waiting.kind} was malformed (${checked.error}); try again.`),
      );
      return;
    }
    waiting.settle(checked.value);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class HostConnection {
  private readonly api: VsCodeApi = acquireVsCodeApi();
  private readonly channel = new RequestChannel(
    (m) => this.post(m),
    (problem) => this.log('warning', problem),
  );
  private persisted: WebviewPersistedState | undefined;

  constructor(private readonly onMessage: (m: HostMessage) => void) {
    this.persisted = checkPersistedState(this.api.getState());
    window.addEventListener('message', (e: MessageEvent<unknown>) => {
      const data = e.data;
      if (isObject(data) && typeof data.type === 'string' && isReplyType(data.type)) {
        this.channel.receive({ ...data, type: data.type });
        return;
      }
      const parsed = checkHostMessage(data);
      if (!parsed.ok) {
        this.log('warning', `Dropped an invalid message from the extension: ${parsed.error}`);
        return;
      }
      this.onMessage(parsed.value);
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

  /** Asks the host (a request of src/protocol/requests.ts): its reply, or a RequestFailed saying why there is none. */
  request<K extends RequestKind>(kind: K, params: PanelRequests[K]['params']): Promise<PanelRequests[K]['reply']> {
    return this.channel.request(kind, params);
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
