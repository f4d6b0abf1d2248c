/**
 * Routes each message of the review panel's webview to its area's handler: a request (src/protocol/requests.ts) to one
 * that answers it exactly once, with a reply checked against the request's declared reply schema (or its refusal); anything else to one
 * that acts. Workspace Trust is asked first, in one place (../trust.ts).
 */
import { PANEL_REQUESTS, isRequestKind, type HostMessage, type RequestKind, type RequestMessage, type WebviewMessage } from '../../../protocol/panel';
import { errorMessage } from '../../../core/kernel/errors';
import { untrustedRefusal } from '../trust';
import type { CommandHandler, PanelActions, RequestHandler } from './context';
import { briefHandlers } from './brief';
import { pageHandlers } from './page';
import { peopleHandlers } from './people';
import { runHandlers } from './run';
import { savingHandlers } from './saving';
import { voteHandlers } from './votes';

type CommandType = Exclude<WebviewMessage['type'], RequestKind>;

/** Every message that is not a request, by type (the Record is complete: a new message type needs its handler). */
const COMMAND_HANDLERS: { [T in CommandType]: CommandHandler<T> } = { ...pageHandlers, ...runHandlers, ...briefHandlers };
/** Every request, by kind. */
const REQUEST_HANDLERS: { [K in RequestKind]: RequestHandler<K> } = { ...savingHandlers, ...peopleHandlers, ...voteHandlers };

export async function dispatch(m: WebviewMessage, panel: PanelActions): Promise<void> {
  const refusal = untrustedRefusal(m, panel.services.log);
  if (refusal) {
    panel.post(refusal);
    return;
  }
  if (isRequestKind(m.type)) {
    await answerRequest(m as RequestMessage, panel);
    return;
  }
  const handler = COMMAND_HANDLERS[m.type as CommandType] as CommandHandler<CommandType>;
  await handler(m as Parameters<typeof handler>[0], panel);
}

/**
 * Runs a request's handler. Its one reply is checked against the declared schema before it is posted; a reply that does
 * not match, a handler that fails or ends without answering gets the request's refusal instead, so the page never waits
 * in vain.
 */
async function answerRequest(m: RequestMessage, panel: PanelActions): Promise<void> {
  const kind = m.type;
  const declared = PANEL_REQUESTS[kind];
  const log = panel.services.log;
  let answered = false;
  const send = (reply: HostMessage): void => {
    answered = true;
    panel.post(reply);
  };
  const answer = (reply: unknown): void => {
    if (answered) {
      log.error(`The review panel answered ${kind} (request ${m.requestId}) twice: the second answer is not sent.`);
      return;
    }
    const checked = declared.reply.safeParse(reply);
    if (checked.success && checked.data.requestId === m.requestId) {
      send(checked.data);
      return;
    }
    log.error(`The review panel's answer to ${kind} does not match its schema: ${checked.success ? 'another requestId' : (checked.error.issues[0]?.message ?? '')}.`);
    send(declared.refused(m.requestId, `The extension could not answer ${kind}; see the TeamFusion log.`));
  };
  const handler = REQUEST_HANDLERS[kind] as RequestHandler<RequestKind>;
  try {
    await handler(m, panel, answer);
  } catch (e) {
    log.error(`${kind} from the review panel failed: ${errorMessage(e)}`);
    if (!answered) send(declared.refused(m.requestId, errorMessage(e)));
  }
  if (!answered) {
    log.error(`The review panel did not answer ${kind} (request ${m.requestId}).`);
    send(declared.refused(m.requestId, `The extension did not answer ${kind}; see the TeamFusion log.`));
  }
}
