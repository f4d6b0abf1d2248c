/** A brief review wears its own face (issue 40): a review with members' comments and no rankings is a brief review. */
import * as assert from 'node:assert/strict';
import { isBriefOnly } from '../../../webview/panel/views/brief/briefReview';
import type { PanelReview } from '../../../src/protocol/panel';

const review = (designers: number, comments: number): PanelReview =>
  ({
    root: '/r',
    title: 'R',
    brief: '',
    options: [],
    designers: Array.from({ length: designers }, (_, i) => ({ id: `d${i}`, name: `D${i}`, weight: 1, file: '', entries: [] })),
    comments: Array.from({ length: comments }, (_, i) => ({ designer: `c${i}`, name: `C${i}`, body: 'x', file: '' })),
  }) as PanelReview;

describe("panel: a brief review's face", () => {
  it('comments and no rankings: a brief review; rankings (with or without comments) or nothing: not', () => {
    assert.equal(isBriefOnly(review(0, 3)), true);
    assert.equal(isBriefOnly(review(2, 3)), false, 'a review of both kinds keeps its design face');
    assert.equal(isBriefOnly(review(2, 0)), false);
    assert.equal(isBriefOnly(review(0, 0)), false, 'an empty review is not a brief review');
    assert.equal(isBriefOnly(undefined), false);
  });
});
