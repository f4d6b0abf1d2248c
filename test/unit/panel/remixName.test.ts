import * as assert from 'node:assert/strict';
import { imageName } from '../../../webview/panel/views/runOutcome';

type Run = Parameters<typeof imageName>[0];

describe('panel: a remix card names the image the discussion calls it', () => {
  const run = { options: [{ id: '1', label: 'Image 1', file: 'options/1.png' }, { id: 'r1', label: 'Image 7', file: 'runs/x/iteration-1/remix.png' }] } as unknown as Run;

  it('"Remix r1" is "Image 7" in the messages: the card says so', () => {
    assert.equal(imageName(run, 'r1'), ' · Image 7 in the discussion');
  });

  it('a remix not among the options (an older record) gets nothing added', () => {
    assert.equal(imageName(run, 'r2'), '');
  });
});
