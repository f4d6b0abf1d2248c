/**
 * Routes each message of the review panel's webview to its area's handler: a request (src/protocol/requests.ts) to one
 * that answers it exactly once, with a reply checked against the request's declared reply schema (or its refusal); anything else to one
 * that acts. Workspace Trust is asked first, in one place (./trustGate.ts): an allow-list of the kinds declared read-only.
 */
import { isRequestKind, type RequestKind, type RequestMessage, type WebviewMessage } from '../../../protocol/panel';
import { answerRequest } from './answer';
import { untrustedRefusal } from './trustGate';
import type { CommandHandler, PanelActions, RequestHandler } from './context';
import { briefHandlers } from './brief';
import { pageHandlers } from './page';
import { peopleHandlers } from './people';
import { runHandlers } from './run';
import { savingHandlers } from './saving';
import { voteHandlers } from './votes';
import { reopenHandlers } from './reopen';

type CommandType = Exclude<WebviewMessage['type'], RequestKind>;

/** Every message that is not a request, by type (the Record is complete: a new message type needs its handler). */
const COMMAND_HANDLERS: { [T in CommandType]: CommandHandler<T> } = {
  ...pageHandlers,
  ...runHandlers,
  ...briefHandlers,
  ...reopenHandlers,
};
/** Every request, by kind. */
const REQUEST_HANDLERS: { [K in RequestKind]: RequestHandler<K> } = { ...savingHandlers, ...peopleHandlers, ...voteHandlers };

export async function dispatch(m: WebviewMessage, panel: PanelActions): Promise<void> {
  const refusal = untrustedRefusal(m, panel.trust);
  if (refusal) {
    panel.post(refusal);
    return;
  }
  if (isRequestKind(m.type)) {
    await answerRequest(m as RequestMessage, panel, REQUEST_HANDLERS[m.type] as RequestHandler<RequestKind>);
    return;
  }
  const handler = COMMAND_HANDLERS[m.type as CommandType] as CommandHandler<CommandType>;
  await handler(m as Parameters<typeof handler>[0], panel);
}
