import * as assert from 'node:assert/strict';
import type { RunEvent } from '../../../src/core/step/events';
import {
  eventLogLevel,
  eventLogLine,
  labelOf,
  outcomeSentence,
  progressMessage,
  statusBarText,
} from '../../../src/extension/run/eventText';
import { sampleRecord } from './fixtures';

const runId = 'R';

describe('extension-run: event words', () => {
  it('gives the per-turn progress message', () => {
    const e: RunEvent = { type: 'turn-started', runId, iteration: 1, speaker: 'ana', speakerName: 'Ana', turn: 2 };
    assert.equal(progressMessage(e), 'Iteration 1 · Ana, turn 2');
  });

  it('logs each event on one line, message text flattened, deltas only at trace level', () => {
    const done: RunEvent = {
      type: 'turn-completed',
      runId,
      iteration: 2,
      message: { speaker: 'ben', turn: 1, content: 'Image 3 is\n\ntoo dark.' },
    };
    assert.equal(eventLogLine(done), '[R] iteration 2: ben, turn 1: Image 3 is too dark.');
    const delta: RunEvent = { type: 'turn-delta', runId, iteration: 1, speaker: 'ben', turn: 1, text: 'x' };
    assert.equal(eventLogLine(delta), undefined);
    assert.equal(eventLogLevel(delta), 'trace');
    const fin: RunEvent = { type: 'run-finished', runId, status: 'failed', error: 'Rate limited.' };
    assert.equal(eventLogLine(fin), '[R] finished: failed — Rate limited.');
    assert.equal(eventLogLevel(fin), 'error');
    for (const e of [done, fin]) assert.ok(!eventLogLine(e)?.includes('\n'));
    const saved: RunEvent = { type: 'record-saved', runId, record: sampleRecord() };
    assert.equal(eventLogLevel(saved), 'trace', 'saves after every turn do not flood the log');
  });

  it("logs the remix agent's directions: one proposal (a pool that elected one) as its directions, several as proposals", () => {
    const proposal = (letter: string, editingDirections: string) => ({ letter, from: ['1'], editingDirections });
    const agent = (proposals: ReturnType<typeof proposal>[]): RunEvent =>
      ({ type: 'remix-agent-completed', runId, iteration: { index: 1, ranking: ['3', '1'], proposals } }) as unknown as RunEvent;
    assert.equal(
      eventLogLine(agent([proposal('b', 'Warm the\nlight.')])),
      '[R] iteration 1: remix agent ranking 3 > 1; directions (b): Warm the light.',
    );
    assert.equal(
      eventLogLine(agent([proposal('a', 'Warm it.'), proposal('b', 'Cool it.')])),
      '[R] iteration 1: remix agent ranking 3 > 1; 2 remix proposals: a) Warm it. b) Cool it.',
    );
  });

  it('logs warnings as warnings', () => {
    const e: RunEvent = { type: 'notice', runId, level: 'warning', message: 'Retrying after 429.' };
    assert.equal(eventLogLevel(e), 'warn');
    assert.equal(progressMessage(e), 'Retrying after 429.');
  });

  it('shows iteration k/N in the status bar, or k alone when N is unknown or exceeded', () => {
    assert.equal(statusBarText(2, 3), '$(sync~spin) TeamFusion: iteration 2/3');
    assert.equal(statusBarText(4, 3), '$(sync~spin) TeamFusion: iteration 4');
    assert.equal(statusBarText(undefined, 3), '$(sync~spin) TeamFusion: starting');
    assert.equal(statusBarText(1, 3, 2), '$(sync~spin) TeamFusion: iteration 1/3 (+1)');
  });

  it('says how a run ended in words', () => {
    assert.equal(outcomeSentence(sampleRecord()), 'TeamFusion run 2026-11-21T22-40-05Z-3f9c completed: final pick Image 8 (r2).');
    assert.match(outcomeSentence(sampleRecord({ status: 'failed', error: 'The key was refused.' })), /failed: The key was refused\.$/);
    assert.match(outcomeSentence(sampleRecord({ status: 'cancelled' })), /cancelled after 3 iteration\(s\)/);
    assert.equal(labelOf(sampleRecord(), 'nope'), 'nope');
  });
});
