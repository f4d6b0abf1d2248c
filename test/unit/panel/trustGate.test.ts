/**
 * Workspace Trust in the panel is an allow-list: in Restricted Mode the host's dispatcher refuses every message kind not
 * declared `reads` (src/protocol/effects.ts), before any handler runs, with the request's own refusal or a notice, and tells
 * the user once. Reached by calling the dispatcher with each message, as the webview would post it (not through buttons).
 */
import * as assert from 'node:assert/strict';
import { MESSAGE_EFFECTS, type MessageKind } from '../../../src/protocol/effects';
import { isRequestKind, PANEL_REQUESTS, parseWebviewMessage, WebviewMessageSchema } from '../../../src/protocol/panel';
import type { MessageOf } from '../../../src/extension/panel/handlers/context';
import { fakePanel, usePanelDispatch } from '../../support/panelDispatch';

/** One message of every kind (the type keeps it complete: a new kind needs its sample here). */
const SAMPLES: { [K in MessageKind]: MessageOf<K> } = {
  ready: { type: 'ready' },
  refresh: { type: 'refresh' },
  openRun: { type: 'openRun', runId: 'r1' },
  openFile: { type: 'openFile', path: 'brief.md' },
  openRerank: { type: 'openRerank', runId: 'r1' },
  backToRun: { type: 'backToRun' },
  setMe: { type: 'setMe', member: 'ana' },
  log: { type: 'log', level: 'info', message: 'hello' },
  showBriefChanges: { type: 'showBriefChanges', runId: 'r1' },
  run: { type: 'run' },
  refine: { type: 'refine', runId: 'r1', feedback: 'Warmer.' },
  codeDiscussion: { type: 'codeDiscussion', runId: 'r1' },
  adoptBrief: { type: 'adoptBrief', runId: 'r1' },
  commentOnBrief: { type: 'commentOnBrief' },
  cancel: { type: 'cancel', runId: 'r1' },
  cancelCoding: { type: 'cancelCoding' },
  setApiKey: { type: 'setApiKey' },
  saveRanking: { type: 'saveRanking', requestId: 1, designer: 'Ana', ranking: [{ option: 'a.png', rank: 1, justification: 'Best.' }] },
  saveRatings: { type: 'saveRatings', requestId: 2, runId: 'r1', designer: 'ana', ratings: [{ message: 'm1', score: 4 }] },
  saveSurvey: { type: 'saveSurvey', requestId: 3, runId: 'r1', designer: 'ana', clarity: 5 },
  saveCoverage: { type: 'saveCoverage', requestId: 4, runId: 'r1', designer: 'ana', points: [{ point: 'Warm light', agree: true }] },
  say: { type: 'say', requestId: 5, runId: 'r1', as: 'ana', text: 'Hi' },
  pin: { type: 'pin', requestId: 6, runId: 'r1', message: 'm1', as: 'ana' },
  vote: { type: 'vote', requestId: 7, runId: 'r1', as: 'ana', iteration: 1, decisionPoint: 1, choice: 'x' },
  reopen: { type: 'reopen', runId: 'r1', as: 'ana', iteration: 1, decisionPoint: 1 },
};

describe('panel messages in Restricted Mode: an allow-list the host keeps', () => {
  const dispatch = usePanelDispatch();

  it('declares what every message kind does, and only the kinds there are', () => {
    const kinds = WebviewMessageSchema.options.map((o) => o.shape.type.value).sort();
    assert.deepEqual(Object.keys(MESSAGE_EFFECTS).sort(), kinds);
    for (const m of Object.values(SAMPLES)) assert.equal(parseWebviewMessage(m).ok, true, `the sample ${m.type} parses`);
    // Declaring a kind read-only lets it through in Restricted Mode: a deliberate change, made here too.
    const readOnly = Object.entries(MESSAGE_EFFECTS)
      .filter(([, e]) => e === 'reads')
      .map(([k]) => k)
      .sort();
    assert.deepEqual(readOnly, ['backToRun', 'log', 'openFile', 'openRerank', 'openRun', 'ready', 'refresh', 'setMe', 'showBriefChanges']);
  });

  const guarded = (Object.keys(MESSAGE_EFFECTS) as MessageKind[]).filter((k) => MESSAGE_EFFECTS[k] !== 'reads');
  for (const kind of guarded) {
    it(`refuses ${kind} (${MESSAGE_EFFECTS[kind]}) before its handler, and says why`, async () => {
      const { panel, posted, told, touched } = fakePanel(false);
      await dispatch(SAMPLES[kind], panel);
      assert.deepEqual(touched, [], 'no handler ran');
      assert.equal(posted.length, 1);
      const answer = posted[0]!;
      if (isRequestKind(kind)) {
        const parsed = PANEL_REQUESTS[kind].reply.safeParse(answer);
        assert.ok(parsed.success, `the refusal is a ${kind} reply: ${JSON.stringify(answer)}`);
        assert.equal((answer as { requestId: number }).requestId, (SAMPLES[kind] as { requestId: number }).requestId);
        assert.equal((answer as { ok: boolean }).ok, false);
      } else {
        assert.equal(answer.type, 'notice');
      }
      assert.match(JSON.stringify(answer), /untrusted workspace/);
      assert.match(
        JSON.stringify(answer),
        MESSAGE_EFFECTS[kind] === 'sends' ? /nothing is sent to a model/ : /Nothing is written|nothing is sent/,
      );
      assert.equal(told.length, 1);
      assert.match(told[0]!, new RegExp(`^${MESSAGE_EFFECTS[kind]}: `));
    });
  }

  it('lets read-only kinds through in Restricted Mode', async () => {
    const { panel, posted, told, touched } = fakePanel(false);
    await dispatch(SAMPLES.refresh, panel);
    await dispatch(SAMPLES.openRun, panel);
    await dispatch(SAMPLES.ready, panel);
    assert.deepEqual(touched, ['reload', 'showRun', 'pageReady']);
    assert.deepEqual(posted, []);
    assert.deepEqual(told, []);
  });

  it('lets a writing or sending kind through when the workspace is trusted', async () => {
    const { panel, posted, told, touched } = fakePanel(true, { root: { fsPath: '/review' } });
    await dispatch(SAMPLES.run, panel);
    assert.deepEqual(touched, ['command runReview']);
    assert.deepEqual(posted, []);
    assert.deepEqual(told, []);
  });
});
