/**
 * The panel's page host drops nothing a page can still use: what is posted before the page says `ready` (run events,
 * notices) waits and is delivered in order on `ready`, before the state; at most PAGE_QUEUE_LIMIT wait (the oldest go,
 * and the log says how many); a reply to a page that is gone is not kept.
 */
import * as assert from 'node:assert/strict';
import type { HostMessage } from '../../../src/protocol/panel';
import type * as PageHostModule from '../../../src/extension/panel/pageHost';
import { stubVscode } from '../../support/vscodeStub';

function fakePage() {
  const delivered: HostMessage[] = [];
  const warnings: string[] = [];
  const log = { warn: (l: string) => warnings.push(l), info: () => undefined, error: () => undefined };
  const panel = { visible: true, webview: { postMessage: (m: HostMessage) => (delivered.push(m), Promise.resolve(true)) } };
  return { delivered, warnings, args: [{ log }, panel, { fsPath: '/reviews/lumen' }] as const };
}

/** What each delivered message was: a notice's words, else its type. */
const said = (ms: HostMessage[]): string[] => ms.map((m) => (m.type === 'notice' ? m.message : m.type));
const notice = (n: number): HostMessage => ({ type: 'notice', level: 'info', message: `notice ${n}` });

describe('the panel page host: nothing posted before the page is ready is lost', () => {
  let mod: typeof PageHostModule;
  before(() => {
    const vscode = stubVscode();
    try {
      mod = require('../../../src/extension/panel/pageHost') as typeof PageHostModule;
    } finally {
      vscode.restore();
    }
  });
  const host = (args: ReturnType<typeof fakePage>['args']) =>
    new mod.PageHost(...(args as unknown as ConstructorParameters<typeof mod.PageHost>));

  it('delivers what was posted before `ready` in order on `ready`, before the state, then posts at once', async () => {
    const page = fakePage();
    const ph = host(page.args);
    ph.post(notice(1));
    ph.post({ type: 'codingProgress', progress: { runId: 'r1', active: true, coded: 1, total: 3, message: 'Coding…' } });
    ph.post(notice(2));
    assert.deepEqual(page.delivered, [], 'nothing reaches a page that is not ready');
    let deliveredAtState = -1;
    await ph.onReady(undefined, async () => {
      deliveredAtState = page.delivered.length;
    });
    assert.deepEqual(said(page.delivered), ['notice 1', 'codingProgress', 'notice 2']);
    assert.equal(deliveredAtState, 3, 'the waiting messages went before the state was built');
    ph.post(notice(3));
    assert.equal(page.delivered.length, 4);
    assert.deepEqual(page.warnings, []);
  });

  it('keeps at most PAGE_QUEUE_LIMIT messages: the oldest go, and the log says how many', async () => {
    const page = fakePage();
    const ph = host(page.args);
    const posted = mod.PAGE_QUEUE_LIMIT + 2;
    for (let i = 0; i < posted; i++) ph.post(notice(i));
    await ph.onReady(undefined, async () => undefined);
    assert.equal(page.delivered.length, mod.PAGE_QUEUE_LIMIT);
    assert.deepEqual(page.delivered[0], notice(2));
    assert.deepEqual(page.delivered.at(-1), notice(posted - 1));
    assert.equal(page.warnings.length, 1);
    assert.match(page.warnings[0]!, /the 2 oldest message\(s\) posted before the page was ready were dropped/);
  });

  it('queues again while the page is torn down (hidden), and does not keep a reply for the page that asked', async () => {
    const page = fakePage();
    const ph = host(page.args);
    await ph.onReady(undefined, async () => undefined);
    ph.hidden();
    ph.post({ type: 'peopleResult', requestId: 3, ok: true, message: 'Said.' });
    ph.post(notice(7));
    assert.deepEqual(page.delivered, []);
    assert.match(page.warnings.join('\n'), /peopleResult not posted: the page that asked is gone/);
    await ph.onReady(undefined, async () => undefined);
    assert.deepEqual(page.delivered, [notice(7)]);
  });

  it('posts nothing once disposed, not even what waited', async () => {
    const page = fakePage();
    const ph = host(page.args);
    ph.post(notice(1));
    ph.disposed = true;
    ph.post(notice(2));
    await ph.onReady(undefined, async () => undefined);
    assert.deepEqual(page.delivered, []);
  });
});
