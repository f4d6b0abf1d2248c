/**
 * Workspace Trust for the panel's messages, as an allow-list: in Restricted Mode every message kind not declared `reads`
 * in src/protocol/effects.ts is refused here, before any handler runs (a webview can post any message: the host refuses,
 * not the page). A refused request gets its own refusal reply; a refused command a notice in the panel. Either way the
 * user is also told in VS Code, with a button to manage trust. No `vscode` import: the trust is injected (../trust.ts).
 */
import { MESSAGE_EFFECTS, type GuardedKind } from '../../../protocol/effects';
import { isRequestKind, PANEL_REQUESTS, type HostMessage, type WebviewMessage } from '../../../protocol/panel';

export interface PanelTrust {
  /** Whether the workspace is trusted (asked at each message: trust can be granted while the panel is open). */
  trusted(): boolean;
  /** Tells the user (outside the panel) that `action` is off here, with a button to manage trust; logs it. */
  refused(effect: 'writes' | 'sends', action: string): void;
}

/** What each refused kind is, in words: the action (for VS Code's warning) and what the panel says instead of doing it. */
const REFUSALS: { [K in GuardedKind]: { action: string; says: string } } = {
  run: { action: 'starting a run', says: 'Runs are off in an untrusted workspace: nothing is sent to a model.' },
  refine: { action: 'refining a run', says: 'Refining is off in an untrusted workspace: nothing is sent to a model.' },
  codeDiscussion: { action: 'coding a discussion', says: 'Coding is off in an untrusted workspace: nothing is sent to a model.' },
  adoptBrief: { action: 'adopting a revised brief', says: 'Nothing is written in an untrusted workspace: brief.md is unchanged.' },
  commentOnBrief: { action: 'commenting on the brief', says: 'Nothing is written in an untrusted workspace: no comment file is made.' },
  cancel: { action: 'cancelling a run', says: 'Nothing is written in an untrusted workspace: no run is cancelled.' },
  cancelCoding: { action: 'stopping a coding', says: 'Nothing is written in an untrusted workspace: no coding is stopped.' },
  setApiKey: {
    action: 'setting the API key',
    says: 'The API key is not set from an untrusted workspace: nothing is sent to a model here.',
  },
  saveRanking: {
    action: 'saving a ranking from the panel',
    says: 'Nothing is written in an untrusted workspace: your ranking is not saved.',
  },
  saveRatings: { action: 'saving ratings', says: 'Nothing is written in an untrusted workspace: your ratings are not saved.' },
  saveSurvey: { action: 'saving survey answers', says: 'Nothing is written in an untrusted workspace: your answers are not saved.' },
  saveCoverage: { action: 'saving coverage answers', says: 'Nothing is written in an untrusted workspace: your answers are not saved.' },
  say: { action: 'speaking in a run', says: 'Nothing is written in an untrusted workspace: your message is not recorded.' },
  pin: { action: 'pinning a message', says: 'Nothing is written in an untrusted workspace: the pin is not recorded.' },
  vote: { action: 'voting', says: 'Nothing is written in an untrusted workspace: your vote is not saved.' },
  reopen: { action: 'reopening a decision', says: 'Nothing is written in an untrusted workspace: the decision is not reopened.' },
};

/** What the panel answers `m` with in Restricted Mode; undefined when `m` may go ahead (trusted, or declared `reads`). */
export function untrustedRefusal(m: WebviewMessage, trust: PanelTrust): HostMessage | undefined {
  const effect = MESSAGE_EFFECTS[m.type];
  if (effect === 'reads' || trust.trusted()) return undefined;
  const { action, says } = REFUSALS[m.type as GuardedKind];
  trust.refused(effect, action);
  if (isRequestKind(m.type) && 'requestId' in m) return PANEL_REQUESTS[m.type].refused(m.requestId, says);
  return { type: 'notice', level: 'warning', message: says };
}
