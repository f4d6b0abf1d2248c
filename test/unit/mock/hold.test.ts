import * as assert from 'node:assert/strict';
import { MockOpenAI } from '../../support/openaiMock';
import { waitFor } from '../../support/waitFor';
import { client } from './helpers';

const messages = [{ role: 'user' as const, content: 'Hello' }];

describe('mock OpenAI: holding answers (a test acts mid-run, whatever the load)', () => {
  let mock: MockOpenAI;
  before(async () => {
    mock = await MockOpenAI.start();
  });
  afterEach(() => mock.reset());
  after(() => mock.close());

  const ask = (content: string) => client(mock.baseURL).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] });
  /** Which of the promises have settled, by label. */
  const settled = (all: Record<string, Promise<unknown>>) => {
    const done = new Set<string>();
    for (const [k, p] of Object.entries(all))
      void p.then(
        () => done.add(k),
        () => done.add(k),
      );
    return done;
  };

  it('hold(): requests arrive and are recorded, none is answered until release; then all are', async () => {
    mock.enqueue('chat', { kind: 'chat', content: 'one' }, { kind: 'chat', content: 'two' });
    const release = mock.hold();
    const a = ask('a');
    const b = ask('b');
    const done = settled({ a, b });
    await mock.waitForRequests(2, { route: 'chat' });
    assert.equal(mock.maxInFlight('chat'), 2);
    assert.deepEqual([...done], []);
    assert.ok(
      mock.requests.every((r) => r.status === undefined),
      'nothing answered while held',
    );
    release();
    assert.deepEqual([(await a).choices[0]!.message.content, (await b).choices[0]!.message.content].sort(), ['one', 'two']);
  });

  it("hold(when): answers go until the condition holds at a request's arrival; that one and later ones wait", async () => {
    const release = mock.hold(() => mock.requests.length > 2);
    assert.ok((await ask('1')).choices[0]!.message.content);
    assert.ok((await ask('2')).choices[0]!.message.content);
    const third = ask('3');
    const fourth = ask('4');
    const done = settled({ third, fourth });
    await mock.waitForRequests(4);
    assert.deepEqual([...done], []);
    assert.deepEqual(
      mock.requests.map((r) => r.status),
      [200, 200, undefined, undefined],
    );
    release();
    await Promise.all([third, fourth]);
    assert.deepEqual(
      mock.requests.map((r) => r.status),
      [200, 200, 200, 200],
    );
  });

  it('reset() and close() let held requests go: nothing is left waiting', async () => {
    mock.hold();
    const answered = ask('held, then reset');
    await mock.waitForRequests(1);
    mock.reset();
    assert.ok((await answered).choices[0]!.message.content, 'answered once the hold was dropped');

    const other = await MockOpenAI.start();
    other.hold();
    const cut = client(other.baseURL).chat.completions.create({ model: 'gpt-4o', messages });
    const outcome = cut.then(
      () => 'answered',
      () => 'cut',
    );
    await other.waitForRequests(1);
    await other.close();
    assert.equal(await outcome, 'cut');
  });

  it('waitFor returns what the probe found, retries a probe that throws, and names what it waited for', async () => {
    let calls = 0;
    const probe = (): number | undefined => {
      calls++;
      if (calls === 1) throw new Error('not yet');
      return calls >= 3 ? calls : undefined;
    };
    assert.equal(await waitFor('the third call', probe), 3);
    await assert.rejects(
      waitFor(
        'something that never comes',
        () => false,
        30,
        () => 'the detail',
      ),
      /Timed out after 30 ms waiting for something that never comes\.\nthe detail/,
    );
  });
});
