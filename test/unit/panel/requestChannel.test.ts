/**
 * The panel's one request channel: every request is declared once with its reply's schema, the webview's channel waits
 * for exactly that reply, a request nobody answers fails after the timeout with a sentence that says so, and a reply
 * that answers nothing, answers with the wrong type or is malformed is refused.
 */
import * as assert from 'node:assert/strict';
import {
  HostMessageSchema,
  WebviewMessageSchema,
  PANEL_REQUESTS,
  REQUEST_KINDS,
  REQUEST_REPLIES,
  parseHostMessage,
  parseWebviewMessage,
  type WebviewMessage,
} from '../../../src/protocol/panel';
import { RequestChannel, RequestFailed } from '../../../webview/panel/host';
import { checkHostMessage } from '../../../webview/panel/guards';

const runId = '2026-11-21T22-40-05Z-3f9c';

/** A channel whose posts are kept, with what it reported, and a short timeout. */
function channel(timeoutMs = 1000) {
  const sent: WebviewMessage[] = [];
  const reports: string[] = [];
  const c = new RequestChannel(
    (m) => sent.push(m),
    (p) => reports.push(p),
    timeoutMs,
  );
  return { c, sent, reports };
}

describe('panel requests: one channel', () => {
  it('declares every request kind once, with params, a reply schema of the reply type it waits for, and its refusal', () => {
    assert.deepEqual([...REQUEST_KINDS].sort(), Object.keys(PANEL_REQUESTS).sort());
    for (const kind of REQUEST_KINDS) {
      const declared = PANEL_REQUESTS[kind];
      assert.equal(declared.params.shape.type.value, kind, `${kind}: its message is typed by its name`);
      assert.equal(
        declared.reply.shape.type.value,
        REQUEST_REPLIES[kind],
        `${kind}: its reply schema is of the type the webview waits for`,
      );
      assert.ok(WebviewMessageSchema.options.includes(declared.params as never), `${kind}: the webview may post it`);
      assert.ok(HostMessageSchema.options.includes(declared.reply as never), `${kind}: the host may post its reply`);
      // What the webview's guard refuses for a reply type, so does the schema: neither takes a reply without `ok`.
      const incomplete = { type: REQUEST_REPLIES[kind], requestId: 1 };
      assert.equal(declared.reply.safeParse(incomplete).success, false);
      assert.equal(checkHostMessage(incomplete).ok, false, `${kind}: the webview checks its reply's shape`);
      // Its refusal (untrusted workspace, a failure of the host) is a reply of its own schema that says no, and why.
      const refusal = declared.reply.safeParse(declared.refused(7, 'Nothing is written in an untrusted workspace.'));
      assert.ok(refusal.success && refusal.data.requestId === 7 && refusal.data.ok === false, `${kind}: its refusal is a reply`);
      assert.match(JSON.stringify(refusal.data), /Nothing is written in an untrusted workspace\./);
    }
  });

  it('posts a request the host accepts and resolves with its reply', async () => {
    const { c, sent } = channel();
    const said = c.request('say', { runId, as: 'ana', text: 'Keep the serif' });
    const posted = sent[0];
    assert.ok(posted && posted.type === 'say');
    assert.equal(parseWebviewMessage(posted).ok, true, 'the host parses what the channel posts');
    const reply = { type: 'peopleResult', requestId: posted.requestId, ok: true, message: 'Said.' } as const;
    assert.equal(parseHostMessage(reply).ok, true);
    c.receive(reply);
    assert.deepEqual(await said, reply);
    assert.equal(c.waiting, 0);
  });

  it('numbers requests from one counter: each reply answers its own request', async () => {
    const { c, sent } = channel();
    const ranking = c.request('saveRanking', { designer: 'Eve', ranking: [{ option: '1', rank: 1, justification: 'x' }] });
    const survey = c.request('saveSurvey', { runId, designer: 'eve', clarity: 4 });
    const [a, b] = sent.map((m) => ('requestId' in m ? m.requestId : -1));
    assert.ok(a !== undefined && b !== undefined && a !== b);
    c.receive({ type: 'saveFeedbackResult', requestId: b, ok: true, file: `runs/${runId}/survey/eve.yaml` });
    c.receive({ type: 'saveRankingResult', requestId: a, ok: true, file: 'rankings/eve.yaml', diagnostics: [] });
    assert.equal((await survey).file, `runs/${runId}/survey/eve.yaml`);
    assert.equal((await ranking).file, 'rankings/eve.yaml');
  });

  it('fails a request nobody answers after the timeout, saying so, and refuses a reply that comes later', async () => {
    const { c, sent, reports } = channel(30);
    const pinned = c.request('pin', { runId, message: 'i1-m3', as: 'ana' });
    await assert.rejects(
      pinned,
      (e: unknown) => e instanceof RequestFailed && e.kind === 'pin' && /did not answer \(pin, /.test(e.message),
    );
    assert.equal(c.waiting, 0);
    const late = sent[0];
    assert.ok(late && late.type === 'pin');
    c.receive({ type: 'peopleResult', requestId: late.requestId, ok: true, message: 'Pinned.' });
    assert.match(reports.join('\n'), /peopleResult that answers no request waiting/);
  });

  it('refuses a reply to no request, a reply of the wrong type and a malformed reply', async () => {
    const { c, sent, reports } = channel();
    c.receive({ type: 'saveRankingResult', requestId: 99 });
    c.receive({ type: 'peopleResult' });
    assert.equal(reports.length, 2, 'a reply that names no waiting request is reported and dropped');

    const wrong = c.request('saveRatings', { runId, designer: 'ana', ratings: [{ message: 'i1-m4', score: 4 }] });
    const first = sent[0];
    assert.ok(first && first.type === 'saveRatings');
    c.receive({ type: 'peopleResult', requestId: first.requestId, ok: true, message: 'x' });
    await assert.rejects(wrong, /answered saveRatings with peopleResult, not saveFeedbackResult/);

    const malformed = c.request('saveRanking', { designer: 'Eve', ranking: [] });
    const second = sent[1];
    assert.ok(second && second.type === 'saveRanking');
    c.receive({ type: 'saveRankingResult', requestId: second.requestId, ok: 'yes', diagnostics: [] });
    await assert.rejects(malformed, /answer to saveRanking was malformed \(saveRankingResult is incomplete\)/);
    assert.equal(c.waiting, 0);
  });
});
