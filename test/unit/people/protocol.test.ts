/** The panel protocol's people messages: say, pin, their reply, and the waiting / pins events. */
import * as assert from 'node:assert/strict';
import { parseHostMessage, parseWebviewMessage } from '../../../src/protocol/panel';

describe('people: panel protocol', () => {
  it('accepts say and pin from the webview, and refuses them malformed or oversized', () => {
    const runId = '2026-11-21T22-40-05Z-3f9c';
    assert.equal(parseWebviewMessage({ type: 'say', requestId: 1, runId, as: 'ana', text: 'Keep the serif @ben' }).ok, true);
    assert.equal(parseWebviewMessage({ type: 'pin', requestId: 2, runId, message: 'i1-m3', as: 'ana' }).ok, true);
    assert.equal(parseWebviewMessage({ type: 'pin', requestId: 3, runId, message: 'i1-m3', as: 'ana', remove: true }).ok, true);
    for (const bad of [
      { type: 'say', requestId: 1, runId, text: 'no speaker' },
      { type: 'say', requestId: 1, runId, as: 'ana', text: 'x'.repeat(4001) },
      { type: 'pin', requestId: -1, runId, message: 'i1-m3', as: 'ana' },
      { type: 'pin', requestId: 1, runId, as: 'ana' },
    ]) {
      assert.equal(parseWebviewMessage(bad).ok, false, JSON.stringify(bad).slice(0, 80));
    }
  });

  it('carries the reply and the people events to the webview', () => {
    assert.equal(
      parseHostMessage({ type: 'peopleResult', requestId: 1, ok: false, message: '"zed" is not a designer of this review.' }).ok,
      true,
    );
    const waiting = { type: 'waiting', runId: 'r', waitingFor: { speaker: 'ben', iteration: 1, turn: 2 }, speakerName: 'Ben' };
    assert.equal(parseHostMessage({ type: 'runEvent', event: waiting }).ok, true);
    assert.equal(
      parseHostMessage({ type: 'runEvent', event: { ...waiting, waitingFor: { speaker: 'ben', iteration: 1, turn: 0 } } }).ok,
      false,
    );
    assert.equal(
      parseHostMessage({ type: 'runEvent', event: { type: 'pins-changed', runId: 'r', pins: [{ message: 'i1-m1', by: 'ana', at: 't' }] } })
        .ok,
      true,
    );
    const extra = { type: 'turn-started', runId: 'r', iteration: 1, speaker: 'client', speakerName: 'Client', turn: null, kind: 'guest' };
    assert.equal(parseHostMessage({ type: 'runEvent', event: extra }).ok, true);
  });
});
