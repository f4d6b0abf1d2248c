import * as assert from 'node:assert/strict';
import {
  draftFromDesigner,
  draftProblems,
  emptyDraft,
  moveItem,
  normalizeDraft,
  ranksOf,
  toRanking,
} from '../../../webview/panel/rankingDraft';

const item = (option: string, tiedWithAbove = false) => ({ option, justification: `j${option}`, tiedWithAbove });

describe('ranking form model', () => {
  it('moves items up and down and clamps at the ends', () => {
    const items = ['a', 'b', 'c'].map((o) => item(o));
    assert.deepEqual(
      moveItem(items, 2, 0).map((i) => i.option),
      ['c', 'a', 'b'],
    );
    assert.deepEqual(
      moveItem(items, 0, 1).map((i) => i.option),
      ['b', 'a', 'c'],
    );
    assert.deepEqual(
      moveItem(items, 0, -1).map((i) => i.option),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(
      moveItem(items, 2, 9).map((i) => i.option),
      ['a', 'b', 'c'],
    );
  });

  it('never leaves the first item tied with "the one above"', () => {
    const moved = moveItem([item('a'), item('b', true)], 1, 0);
    assert.equal(moved[0]!.option, 'b');
    assert.equal(moved[0]!.tiedWithAbove, false);
  });

  it('gives competition ranks to ties', () => {
    assert.deepEqual(ranksOf([item('a'), item('b'), item('c', true), item('d')]), [1, 2, 2, 4]);
    assert.deepEqual(
      toRanking([item('a'), item('b', true)]).map((e) => e.rank),
      [1, 1],
    );
  });

  it('turns a designer ranking into a draft in rank order, keeping ties', () => {
    const d = draftFromDesigner(
      {
        id: 'ana',
        name: 'Ana',
        role: 'AD',
        entries: [
          { option: '3', rank: 3, justification: 'c' },
          { option: '1', rank: 1, justification: 'a' },
          { option: '2', rank: 1, justification: 'b' },
        ],
      },
      ['1', '2', '3', '4'],
    );
    assert.equal(d.designerId, 'ana');
    assert.deepEqual(
      d.items.map((i) => i.option),
      ['1', '2', '3', '4'],
    );
    assert.deepEqual(ranksOf(d.items), [1, 1, 3, 4]);
    assert.equal(d.items[3]!.justification, '');
  });

  it('drops options that disappeared and duplicates, appends new ones', () => {
    const d = normalizeDraft({ designer: 'x', role: '', items: [item('9'), item('2'), item('2'), item('1', true)] }, ['1', '2', '3']);
    assert.deepEqual(
      d.items.map((i) => i.option),
      ['2', '1', '3'],
    );
  });

  it('lists what is missing before asking the host', () => {
    const p = draftProblems(emptyDraft(['1', '2']));
    assert.equal(p.length, 2);
    assert.match(p[1]!, /options 1, 2/);
    assert.deepEqual(draftProblems({ designer: 'E', role: '', items: [item('1')] }), []);
  });
});
