/**
 * How a request of the panel's webview is answered: exactly once, with a reply its declared schema accepts (the request
 * map of src/protocol/requests.ts). No vscode import: a unit test drives it with a handler of its own.
 */
import { PANEL_REQUESTS, type HostMessage, type RequestKind, type RequestMessage } from '../../../protocol/panel';
import { errorMessage } from '../../../core/kernel/errors';
import type { PanelActions, RequestHandler } from './context';

/**
 * Runs a request's handler. Its one reply is checked against the declared schema before it is posted; a reply that does
 * not match, a handler that fails or ends without answering gets the request's refusal instead, so the page never waits
 * in vain.
 */
export async function answerRequest(m: RequestMessage, panel: PanelActions, handler: RequestHandler<RequestKind>): Promise<void> {
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
    log.error(
      `The review panel's answer to ${kind} does not match its schema: ${checked.success ? 'another requestId' : (checked.error.issues[0]?.message ?? '')}.`,
    );
    send(declared.refused(m.requestId, `The extension could not answer ${kind}; see the TeamFusion log.`));
  };
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
