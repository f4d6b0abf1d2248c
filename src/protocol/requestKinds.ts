/**
 * The panel's requests by name, each with the `type` of its one reply: what the webview may ask the host and what answer
 * to wait for. No zod here (the webview bundle imports it; it carries no schema library): the params and reply schemas
 * of each request are declared beside it in requests.ts, which the host checks every message with.
 */

/** Request kind → the `type` of the host message that answers it (the reply carries the request's `requestId`). */
export const REQUEST_REPLIES = {
  saveRanking: 'saveRankingResult',
  saveRatings: 'saveFeedbackResult',
  saveSurvey: 'saveFeedbackResult',
  saveCoverage: 'saveFeedbackResult',
  say: 'peopleResult',
  pin: 'peopleResult',
  vote: 'peopleResult',
} as const;

export type RequestKind = keyof typeof REQUEST_REPLIES;
export type ReplyType = (typeof REQUEST_REPLIES)[RequestKind];

export const REQUEST_KINDS = Object.keys(REQUEST_REPLIES) as RequestKind[];
const REPLY_TYPES: ReadonlySet<string> = new Set(Object.values(REQUEST_REPLIES));

/** How long the webview waits for a reply before the request fails (the host answers every request, also a refusal). */
export const REQUEST_TIMEOUT_MS = 30_000;

export function isRequestKind(type: string): type is RequestKind {
  return Object.prototype.hasOwnProperty.call(REQUEST_REPLIES, type);
}

export function isReplyType(type: string): type is ReplyType {
  return REPLY_TYPES.has(type);
}
