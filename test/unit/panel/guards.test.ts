import * as assert from 'node:assert/strict';
import { checkHostMessage, checkPersistedState } from '../../../webview/panel/guards';
import { buildPanelState, thumbSizeOf } from '../../../src/extension/panel/panelState';
import { HostMessageSchema, THUMB_SIZE } from '../../../src/protocol/panel';

const state = buildPanelState({
  root: '/reviews/a',
  load: { diagnostics: [] } as never,
  analysis: { error: "Agreement needs at least two designers' rankings." },
  runs: [],
  trusted: true,
  running: false,
  toWebviewUri: (p) => `https://webview/${p}`,
  thumbSize: 140,
});

describe('webview message checks (the webview carries no schema library)', () => {
  it('accept what the host sends, which the zod schemas accept too', () => {
    const m = { type: 'state', state };
    assert.equal(HostMessageSchema.safeParse(m).success, true);
    assert.equal(checkHostMessage(m).ok, true);
    assert.equal(checkHostMessage({ type: 'notice', level: 'warning', message: 'x' }).ok, true);
    assert.equal(checkHostMessage({ type: 'runEvent', event: { type: 'turn-started' } }).ok, true);
  });

  it('refuse what the app could not render', () => {
    for (const bad of [
      null,
      'state',
      [],
      { type: 1 },
      { type: 'state', state: { root: 1 } },
      { type: 'state' },
      { type: 'notice', level: 'loud', message: 'x' },
      { type: 'runEvent', event: {} },
      { type: 'saveRankingResult', requestId: '1', ok: true, diagnostics: [] },
    ]) {
      assert.equal(checkHostMessage(bad).ok, false, JSON.stringify(bad));
    }
  });

  it('let a message type the app does not know pass (the app ignores it)', () => {
    assert.equal(checkHostMessage({ type: 'somethingNew', x: 1 }).ok, true);
  });

  it('read back only a persisted state with a root', () => {
    assert.deepEqual(checkPersistedState({ root: '/r', tab: 'run' }), { root: '/r', tab: 'run' });
    assert.equal(checkPersistedState({ tab: 'run' }), undefined);
    assert.equal(checkPersistedState({ root: '/r', runId: 5 }), undefined);
    assert.equal(checkPersistedState('x'), undefined);
  });
});

describe('thumbnail size setting', () => {
  it('is clamped to 96–320 px, 96 when unset or not a number', () => {
    assert.equal(state.thumbSize, 140);
    assert.equal(thumbSizeOf(undefined), THUMB_SIZE.default);
    assert.equal(thumbSizeOf('200'), 96);
    assert.equal(thumbSizeOf(20), 96);
    assert.equal(thumbSizeOf(5000), 320);
    assert.equal(thumbSizeOf(150.4), 150);
  });
});
