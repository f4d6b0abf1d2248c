/**
 * The panel's run picker labels a run answered by the bundled scripted server (issue 38 item 5): "scripted" when every part
 * was (run.json `scripted: true`), "partly scripted" when some parts of its `endpoints` were and some a model, and nothing
 * when none was. The host's summary decides with the core's anyScripted; the picker line is a pure function.
 */
import * as assert from 'node:assert/strict';
import type { RunRecord } from '../../../src/core/record/record';
import { RunSummarySchema } from '../../../src/protocol/panel';
import { panelRun, runSummary } from '../../../src/extension/panel/panelState';
import { runOptionLabel } from '../../../webview/panel/text/format';

const base = { id: 'r1', status: 'completed', startedAt: '2026-03-01T10:04:00.000Z', iterations: [{}, {}] };
const record = (extra: object): RunRecord => ({ ...base, ...extra }) as unknown as RunRecord;
const real = { host: 'api.example.com', scripted: false };
const canned = { host: '127.0.0.1', scripted: true };

describe('panel: a partly scripted run is labelled so in the run picker', () => {
  it('summarises scripted, partly scripted and real runs apart', () => {
    const all = runSummary(record({ scripted: true, endpoints: { chat: canned, images: canned } }));
    const part = runSummary(record({ endpoints: { chat: real, images: canned } }));
    const judge = runSummary(record({ endpoints: { chat: real, judge: canned } }));
    const none = runSummary(record({ endpoints: { chat: real, images: real } }));
    const old = runSummary(record({}));
    for (const s of [all, part, judge, none, old]) assert.ok(RunSummarySchema.safeParse(s).success, JSON.stringify(s));
    assert.equal(all.scripted, true);
    assert.equal(all.partlyScripted, undefined, 'a scripted run is not also partly scripted');
    assert.equal(part.partlyScripted, true);
    assert.equal(part.scripted, undefined);
    assert.equal(judge.partlyScripted, true, "a scripted judge's verdicts alone make it partly scripted");
    assert.equal(none.partlyScripted, undefined);
    assert.equal(old.partlyScripted, undefined);
  });

  it('the run shown carries the sentence that says which parts were scripted (its badge says "partly scripted")', () => {
    const shown = (extra: object) => panelRun('/review', { ...record(extra), prompts: [] } as unknown as RunRecord, (p) => p);
    assert.equal(
      shown({ endpoints: { chat: real, images: canned } }).partlyScripted,
      "Partly scripted run: its chat answers from the model at api.example.com; its images from TeamFusion's bundled scripted server, not a model.",
    );
    assert.equal(shown({ scripted: true, endpoints: { chat: canned, images: canned } }).partlyScripted, undefined);
    assert.equal(shown({ endpoints: { chat: real } }).partlyScripted, undefined);
  });

  it('says "partly scripted" at the end of the picker line', () => {
    assert.equal(
      runOptionLabel(runSummary(record({ endpoints: { chat: real, images: canned } })), 'UTC'),
      '1 Mar 2026, 10:04 · completed · 2 iterations · partly scripted',
    );
    assert.equal(
      runOptionLabel(runSummary(record({ scripted: true, endpoints: { chat: canned } })), 'UTC'),
      '1 Mar 2026, 10:04 · completed · 2 iterations · scripted',
    );
    assert.equal(runOptionLabel(runSummary(record({ endpoints: { chat: real } })), 'UTC'), '1 Mar 2026, 10:04 · completed · 2 iterations');
    assert.equal(
      runOptionLabel({ ...runSummary(record({ endpoints: { chat: canned, images: real } })), interrupted: true }, 'UTC'),
      '1 Mar 2026, 10:04 · interrupted · 2 iterations · partly scripted',
    );
  });
});
