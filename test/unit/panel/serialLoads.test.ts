/**
 * The panel's loads run one at a time: a load asked for while another is in flight starts only after it, so a slow older
 * load can never be shown after a newer one (the fork's decision, written by `teamfusion vote` right after the vote file,
 * stayed hidden behind a slower load of the vote file); loads asked for while one waits its turn join it.
 */
import * as assert from 'node:assert/strict';
import { SerialLoads } from '../../../src/extension/panel/serialLoads';

/** A load whose end the test decides, and the order in which loads start and end. */
function controlledLoads() {
  const events: string[] = [];
  const finish: (() => void)[] = [];
  let n = 0;
  const loads = new SerialLoads(async (all) => {
    const id = ++n;
    events.push(`start ${id}${all ? ' all' : ''}`);
    await new Promise<void>((resolve) => finish.push(resolve));
    events.push(`end ${id}`);
  });
  const tick = () => new Promise((r) => setImmediate(r));
  return { loads, events, finish, tick };
}

describe('panel loads: one at a time, the newest last', () => {
  it('starts a second load only once the first has ended, even when the first is the slower', async () => {
    const { loads, events, finish, tick } = controlledLoads();
    const first = loads.request(false);
    await tick();
    const second = loads.request(false);
    await tick();
    assert.deepEqual(events, ['start 1'], 'the second waits');
    assert.equal(loads.busy, true);
    finish[0]!();
    await first;
    await tick();
    assert.deepEqual(events, ['start 1', 'end 1', 'start 2']);
    finish[1]!();
    await second;
    assert.deepEqual(events, ['start 1', 'end 1', 'start 2', 'end 2']);
    assert.equal(loads.busy, false, 'nothing in flight');
  });

  it('joins loads asked for while one waits its turn into one, a full load if any asked for one', async () => {
    const { loads, events, finish, tick } = controlledLoads();
    const first = loads.request(false);
    await tick();
    const a = loads.request(false);
    const b = loads.request(true);
    const c = loads.request(false);
    assert.equal(a, b);
    assert.equal(b, c);
    finish[0]!();
    await first;
    await tick();
    assert.deepEqual(events, ['start 1', 'end 1', 'start 2 all']);
    finish[1]!();
    await c;
    assert.equal(finish.length, 2, 'three requests, one load');
  });

  it('goes on after a load that failed', async () => {
    let calls = 0;
    const loads = new SerialLoads(async () => {
      calls++;
      if (calls === 1) throw new Error('disk gone');
    });
    await assert.rejects(loads.request(true), /disk gone/);
    await loads.request(false);
    assert.equal(calls, 2);
  });
});
