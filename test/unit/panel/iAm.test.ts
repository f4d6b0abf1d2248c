/**
 * Who is at the panel, said once ("I am", issue 40): the page's own choice first ('' = nobody, said there), else the one the
 * workspace remembers, and only a member of this review; the ranking form follows the person while it holds nothing typed.
 */
import * as assert from 'node:assert/strict';
import { chosenMe } from '../../../webview/panel/context';
import { draftAs, draftFollowsMe, emptyDraft } from '../../../webview/panel/rankingDraft';
import { parsePersistedState, parseWebviewMessage } from '../../../src/protocol/panel';

const MEMBERS = [{ id: 'ana' }, { id: 'ben' }];

describe('panel: I am', () => {
  it("the page's choice comes first, then the workspace's; someone not of this review is nobody", () => {
    assert.equal(chosenMe(undefined, 'ben', MEMBERS), 'ben', 'a panel opened afresh starts from the workspace');
    assert.equal(chosenMe('ana', 'ben', MEMBERS), 'ana');
    assert.equal(chosenMe('', 'ben', MEMBERS), undefined, 'nobody, chosen in this page');
    assert.equal(chosenMe(undefined, 'zoe', MEMBERS), undefined, 'not a member of this review');
    assert.equal(chosenMe(undefined, undefined, MEMBERS), undefined);
  });

  it('the page keeps one "I am" and tells the host, which keeps it for the workspace; the strip\'s actions are messages the host takes', () => {
    const kept = parsePersistedState({ root: '/r', me: 'ana', rateAs: 'ben', voteAs: 'chen' });
    assert.ok(kept.ok);
    assert.deepEqual(kept.value, { root: '/r', me: 'ana' }, 'the old separate pickers are gone');
    assert.ok(parseWebviewMessage({ type: 'setMe', member: 'ana' }).ok);
    assert.ok(parseWebviewMessage({ type: 'setMe' }).ok, 'nobody');
    assert.ok(parseWebviewMessage({ type: 'openRerank', runId: 'r' }).ok);
    assert.ok(parseWebviewMessage({ type: 'run', resume: 'r' }).ok);
    assert.equal(parseWebviewMessage({ type: 'setMe', member: 'x'.repeat(201) }).ok, false);
  });

  it("the ranking form starts from the member's saved ranking, else a new one under their name; it never drops typed text", () => {
    const ids = ['1', '2'];
    const ana = {
      id: 'ana',
      name: 'Ana Ruiz',
      entries: [
        { option: '2', rank: 1, justification: 'bold' },
        { option: '1', rank: 2, justification: 'flat' },
      ],
    };
    assert.deepEqual(
      draftAs({ id: 'ana', name: 'Ana Ruiz' }, ana, ids).items.map((i) => i.option),
      ['2', '1'],
    );
    const fresh = draftAs({ id: 'ben', name: 'Ben Okafor' }, undefined, ids);
    assert.equal(fresh.designer, 'Ben Okafor');
    assert.equal(fresh.designerId, undefined);
    assert.equal(draftFollowsMe(emptyDraft(ids), undefined), true, 'a blank form follows');
    assert.equal(draftFollowsMe(fresh, fresh), true, 'as it was started for the member before');
    const typed = { ...fresh, items: fresh.items.map((i, n) => (n === 0 ? { ...i, justification: 'mine' } : i)) };
    assert.equal(draftFollowsMe(typed, fresh), false, 'something typed stays');
  });
});
