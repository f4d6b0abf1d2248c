/**
 * The webview's checks of what reaches it: the envelope of host messages and its own persisted state. The extension
 * host builds every message from validated core data and checks every message it receives against the zod schemas of
 * src/protocol/panel.ts (unit tests pin the host's output to those schemas); the webview checks only the shape it
 * relies on, so its bundle carries no schema library. Unknown message types pass and are ignored by the app.
 */
import type { HostMessage, WebviewPersistedState } from '../../src/protocol/panel';
import type { ReplyType } from '../../src/protocol/requestKinds';

export type GuardResult<T> = { ok: true; value: T } | { ok: false; error: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const LEVELS = new Set(['info', 'warning', 'error']);

type Shape = (m: Record<string, unknown>) => string | undefined;
const answered = (m: Record<string, unknown>) => typeof m.requestId === 'number' && typeof m.ok === 'boolean';

/** What must hold for each reply type (every one the request channel waits for: the Record is complete by type). */
const REPLY_SHAPES: Record<ReplyType, Shape> = {
  saveRankingResult: (m) => (answered(m) && Array.isArray(m.diagnostics) ? undefined : 'saveRankingResult is incomplete'),
  saveFeedbackResult: (m) =>
    answered(m) && (m.message === undefined || isString(m.message)) ? undefined : 'saveFeedbackResult is incomplete',
  peopleResult: (m) => (answered(m) && isString(m.message) ? undefined : 'peopleResult is incomplete'),
};

/** What must hold for each message type the app handles; other types only need a string `type`. */
const SHAPES: Record<string, Shape> = {
  state: (m) => {
    const s = m.state;
    if (!isObject(s)) return 'state is not an object';
    if (!isString(s.root) || !isString(s.title) || !isString(s.base)) return 'state lacks root, title or base';
    if (!Array.isArray(s.diagnostics) || !Array.isArray(s.runs)) return 'state lacks diagnostics or runs';
    if (typeof s.trusted !== 'boolean' || typeof s.running !== 'boolean') return 'state lacks trusted or running';
    return undefined;
  },
  runEvent: (m) => (isObject(m.event) && isString(m.event.type) ? undefined : 'runEvent lacks an event type'),
  notice: (m) => (LEVELS.has(m.level as string) && isString(m.message) ? undefined : 'notice lacks a level or message'),
  ...REPLY_SHAPES,
};

export function checkHostMessage(data: unknown): GuardResult<HostMessage> {
  if (!isObject(data) || !isString(data.type)) return { ok: false, error: 'not a message with a type' };
  const problem = Object.prototype.hasOwnProperty.call(SHAPES, data.type) ? SHAPES[data.type]?.(data) : undefined;
  return problem ? { ok: false, error: problem } : { ok: true, value: data as unknown as HostMessage };
}

export function checkPersistedState(data: unknown): WebviewPersistedState | undefined {
  if (!isObject(data) || !isString(data.root)) return undefined;
  if (data.runId !== undefined && !isString(data.runId)) return undefined;
  if (data.tab !== undefined && !isString(data.tab)) return undefined;
  return data as WebviewPersistedState;
}
