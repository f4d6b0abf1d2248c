import { strict as assert } from 'node:assert';
import { limiter, mapLimited } from '../../../src/core/kernel/limit';

/** A task that ends when told to, and says when it started. */
function held(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((r) => (release = r));
  return { promise, release };
}

describe('kernel/limit: at most n at a time', () => {
  it('runs at most n at once, the waiting ones in the order given, each as a slot frees', async () => {
    const gate = limiter(2);
    const tasks = Array.from({ length: 5 }, () => held());
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const all = tasks.map((t, i) =>
      gate(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await t.promise;
        running--;
        return i * 10;
      }),
    );
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, [0, 1]);
    tasks[1]!.release();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, [0, 1, 2]);
    for (const t of tasks) t.release();
    assert.deepEqual(await Promise.all(all), [0, 10, 20, 30, 40]);
    assert.deepEqual(started, [0, 1, 2, 3, 4]);
    assert.equal(most, 2);
  });

  it('a failure frees its slot and rejects only its own call', async () => {
    const gate = limiter(1);
    const first = gate(() => Promise.reject(new Error('no')));
    const second = gate(() => Promise.resolve('yes'));
    await assert.rejects(first, /no/);
    assert.equal(await second, 'yes');
  });

  it('mapLimited keeps the items order whatever order they end in, and a limit below 1 still runs one', async () => {
    const out = await mapLimited([30, 10, 20], 3, (ms) => new Promise<number>((r) => setTimeout(() => r(ms), ms)));
    assert.deepEqual(out, [30, 10, 20]);
    assert.deepEqual(await mapLimited([1, 2], 0, (x) => Promise.resolve(x * 2)), [2, 4]);
  });
});
