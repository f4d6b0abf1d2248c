/**
 * The host's side of the request channel: a request is answered exactly once, with a reply its declared schema accepts;
 * a handler's malformed reply, a failure or no answer at all gets the request's refusal instead, and the log says why.
 */
import * as assert from 'node:assert/strict';
import { answerRequest } from '../../../src/extension/panel/handlers/answer';
import type { PanelActions, RequestHandler } from '../../../src/extension/panel/handlers/context';
import type { HostMessage, RequestKind, RequestMessage } from '../../../src/protocol/panel';

/** A panel that keeps what it posts and what it logs (the handlers under test use nothing else). */
function panel() {
  const posted: HostMessage[] = [];
  const errors: string[] = [];
  const log = { error: (line: string) => errors.push(line), warn: () => undefined, info: () => undefined };
  const actions = { post: (m: HostMessage) => posted.push(m), services: { log } } as unknown as PanelActions;
  return { actions, posted, errors };
}

const say: RequestMessage = { type: 'say', requestId: 4, runId: 'r', as: 'ana', text: 'Hi' };
const handler = (fn: RequestHandler<RequestKind>) => fn;

describe('panel requests: the host answers each exactly once', () => {
  it('posts a reply its schema accepts', async () => {
    const { actions, posted, errors } = panel();
    await answerRequest(
      say,
      actions,
      handler(async (m, _p, answer) => answer({ type: 'peopleResult', requestId: m.requestId, ok: true, message: 'Said.' })),
    );
    assert.deepEqual(posted, [{ type: 'peopleResult', requestId: 4, ok: true, message: 'Said.' }]);
    assert.deepEqual(errors, []);
  });

  it('refuses a malformed answer, or one for another request, and sends the refusal instead', async () => {
    for (const bad of [
      { type: 'peopleResult', requestId: 4, ok: 'yes', message: 'Said.' },
      { type: 'peopleResult', requestId: 5, ok: true, message: 'Said.' },
      { type: 'saveFeedbackResult', requestId: 4, ok: true },
    ]) {
      const { actions, posted, errors } = panel();
      await answerRequest(
        say,
        actions,
        handler(async (_m, _p, answer) => answer(bad as never)),
      );
      assert.deepEqual(
        posted,
        [{ type: 'peopleResult', requestId: 4, ok: false, message: 'The extension could not answer say; see the TeamFusion log.' }],
        JSON.stringify(bad),
      );
      assert.match(errors.join('\n'), /answer to say does not match its schema/);
    }
  });

  it('answers a handler that fails with its refusal, naming the failure', async () => {
    const { actions, posted, errors } = panel();
    await answerRequest(
      say,
      actions,
      handler(async () => {
        throw new Error('The run is gone.');
      }),
    );
    assert.deepEqual(posted, [{ type: 'peopleResult', requestId: 4, ok: false, message: 'The run is gone.' }]);
    assert.match(errors.join('\n'), /say from the review panel failed: The run is gone\./);
  });

  it('answers a handler that ends without answering, and sends no second answer', async () => {
    const silent = panel();
    await answerRequest(
      say,
      silent.actions,
      handler(async () => undefined),
    );
    assert.deepEqual(silent.posted, [
      { type: 'peopleResult', requestId: 4, ok: false, message: 'The extension did not answer say; see the TeamFusion log.' },
    ]);
    const twice = panel();
    const ok = { type: 'peopleResult', requestId: 4, ok: true, message: 'Said.' } as const;
    await answerRequest(
      say,
      twice.actions,
      handler(async (_m, _p, answer) => (answer(ok), answer(ok))),
    );
    assert.equal(twice.posted.length, 1);
    assert.match(twice.errors.join('\n'), /answered say \(request 4\) twice/);
  });
});
